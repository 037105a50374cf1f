"""The doc stream's line writer and the child's JSON reader (siftpdf.docline): json's C encoder
and scanner called without the json module must give what json.dumps and json.loads give, and
the extraction child must start without the modules this saves it."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from siftpdf import docline
from siftpdf.console import local_pdf
from siftpdf.workers import early_child

SURROGATE = re.compile("[\ud800-\udfff]")
# Floats as the evidence holds them, the text of any page (surrogates included), nested records.
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(st.characters(codec=None))
RECORDS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)


def test_the_c_routes_are_taken_here() -> None:
    """On CPython both go through json's C code; the fallbacks are for other Pythons."""
    assert docline._encode is docline._c_dumps and docline._decode is docline._c_loads
    assert docline._sorted is docline._c_sorted


@settings(max_examples=400, deadline=None)
@given(RECORDS | st.sets(st.integers(), max_size=3) | st.dictionaries(st.text(max_size=3), st.frozensets(st.text())))
def test_sorted_dumps_writes_what_json_dumps_with_sorted_keys_writes(value: object) -> None:
    """A cache key's text: the same, or every cache entry written before would be missed."""
    assert docline.sorted_dumps(value, repr) == json.dumps(value, sort_keys=True, default=repr)


@settings(max_examples=400, deadline=None)
@given(RECORDS)
def test_dumps_writes_what_json_dumps_writes(record: object) -> None:
    expected = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    for escaped, plain in (("\\u0085", "\x85"), ("\\u2028", "\u2028"), ("\\u2029", "\u2029")):
        expected = expected.replace(plain, escaped)
    assert docline.dumps(record) == expected  # type: ignore[arg-type]


def test_dumps_refuses_what_json_refuses() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        docline.dumps({"a": {1, 2}})
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        docline.dumps({"a": loop})


@settings(max_examples=400, deadline=None)
@given(RECORDS)
def test_loads_reads_what_json_loads_reads(record: object) -> None:
    text = json.dumps(record, indent=1)
    assert repr(docline.loads(f" \n{text}\t ")) == repr(json.loads(text))


@pytest.mark.parametrize("text", ["", "{", '{"a": 1} x', "nul", "[1,]", '"\\x"', "'a'"])
def test_loads_refuses_what_json_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        docline.loads(text)


@settings(deadline=None)
@given(st.text(st.characters(codec=None)))
def test_surrogates_are_found_as_the_pattern_finds_them(text: str) -> None:
    assert docline.has_surrogate(text) == (SURROGATE.search(text) is not None)
    fixed, count = docline.scrub(text)
    assert not docline.has_surrogate(fixed) and count <= len(text)


def test_the_child_starts_without_what_it_does_not_need(fixtures: Path) -> None:
    """The child reads a page with evidence and --ocr auto, as every cold command has it do,
    without typing, re, enum, json or collections (the most of its imports before: every cold
    command waited for them), nor OpenSSL for a short file's hash."""
    argv = early_child.default_argv()  # as every child is started: python -I -S, nothing imported but by it
    words = local_pdf.job_words(0, ocr="auto")
    code = argv[4].replace("sys.exit(main())", f"main({words!r}); sys.stderr.write(' '.join(sorted(sys.modules)))")
    done = subprocess.run(argv[:4] + [code], input=(fixtures / "three_page.pdf").read_bytes(),
                          capture_output=True, env={}, timeout=60)
    assert [json.loads(line).get("page") for line in done.stdout.splitlines()][1:-1] == [1, 2, 3]
    loaded = set(done.stderr.decode().split())
    assert {"siftpdf.child.evidence", "siftpdf.child.ocrpage"} <= loaded
    assert not loaded & {"typing", "re", "enum", "json", "collections", "contextlib", "dataclasses", "inspect",
                         "_hashlib"}


@pytest.mark.parametrize("line", ['{"page": 1', '{"page": 1} x', "nul", '{"page": 1,}'])
def test_a_broken_doc_stream_line_is_named_with_what_json_says_of_it(line: str) -> None:
    from siftpdf.docstream import read_records
    from siftpdf.errors import UnreadableError

    meta = '{"meta": {"format": 1, "source": null, "pages": 1}}'
    with pytest.raises(json.JSONDecodeError) as said:
        json.loads(line)
    with pytest.raises(UnreadableError, match=re.escape(f"doc stream line 2: not JSON ({said.value.msg})")):
        list(read_records([meta, line]))
