"""The extraction child's job (siftpdf.child.job): one spelling as command-line words, written
by the runner and the console's cold path, read by the child."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import records

from siftpdf.child.job import CHOICES, Job, JobError
from siftpdf.workers import runner

# A value other than the default for every field of the job.
CHANGED = {"max_pages": 0, "memory": 0, "cpu": 65, "shard": 3, "shards": 4, "chunk": 8, "first_page": 33,
           "outline": False, "evidence": True, "image_mode": "embedded", "render": "1-2,5", "repair": False,
           "password_line": True, "salvage": "7", "ocr": "auto", "ocr_models": "/tmp/cache dir/models"}


def test_every_field_has_a_changed_value_here() -> None:
    assert set(CHANGED) == set(Job.FIELDS)
    assert all(CHANGED[name] != default for name, default in Job().as_dict().items())


@pytest.mark.parametrize("name", Job.FIELDS)
def test_each_field_goes_through_the_words_and_back(name: str) -> None:
    job = Job(**{name: CHANGED[name]})
    words = job.to_argv()
    assert Job.from_argv(words) == job
    assert len(words) == (1 if isinstance(CHANGED[name], bool) else 2)  # a field at its default is not written


def test_all_fields_at_once_and_the_defaults() -> None:
    job = Job(**CHANGED)
    assert Job.from_argv(job.to_argv()) == job
    options = job.extract_options("secret")  # what the child reads with: every field of it carried
    assert options.password == "secret"
    assert all(getattr(options, name) == CHANGED[name] for name in options.FIELDS if name != "password")
    assert Job().to_argv() == [] and Job.from_argv([]) == Job()
    spelled = Job(first_page=5, outline=False, password_line=True).to_argv()
    assert spelled == ["--first-page", "5", "--no-outline", "--password-line"]
    assert Job.from_argv(["--first-page=5", "--first-page", "6"]).first_page == 6  # the last one counts


@pytest.mark.parametrize(("words", "problem"), [
    (["--pages", "3"], "unrecognized argument: --pages"),
    (["evidence"], "unrecognized argument: evidence"),
    (["--outline"], "unrecognized argument: --outline"),  # on by default: only --no-outline is a word
    (["--no-evidence"], "unrecognized argument: --no-evidence"),
    (["--evidence=yes"], "--evidence takes no value"),
    (["--shard"], "--shard expects a value"),
    (["--chunk", "eight"], "--chunk: invalid int value: 'eight'"),
    (["--ocr", "sometimes"], "--ocr: invalid choice: 'sometimes'"),
    (["--image-mode", "all"], "--image-mode: invalid choice: 'all'"),
])
def test_words_that_are_not_a_job_are_named(words: list[str], problem: str) -> None:
    with pytest.raises(JobError) as caught:
        Job.from_argv(words)
    assert str(caught.value) == problem
    assert set(CHOICES) <= set(Job.FIELDS)


def test_the_child_reads_the_job_and_refuses_a_bad_one(fixtures: Path) -> None:
    """The real child, given a job's words: the pages of its shard; a bad word exits 2 naming it."""
    data = (fixtures / "three_page.pdf").read_bytes()
    job = Job(max_pages=2, outline=False, evidence=True)
    done = subprocess.run(runner.child_argv() + job.to_argv(), input=data, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = records(done.stdout.decode())
    assert [line["page"] for line in lines if "page" in line] == [1, 2]
    assert all("evidence" in line for line in lines if "page" in line)
    assert lines[0]["meta"]["outline"] == []
    bad = subprocess.run(runner.child_argv() + ["--chunk", "eight"], input=data, capture_output=True, timeout=60)
    assert bad.returncode == 2
    assert b"--chunk: invalid int value: 'eight'" in bad.stderr
