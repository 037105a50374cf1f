"""The article benchmarks' halves and page-separator stripping (bench/quality_sets.py), and the
quality report's options (bench/bench_quality.py); no converter is run and no peer is needed."""

from __future__ import annotations

import argparse
import random
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT))

import bench.bench_quality as bq  # noqa: E402
import bench.quality_sets as qs  # noqa: E402


def _ids() -> list[str]:
    kyokcha = [f"doc_{n:03d}" for n in range(1, 44)]
    readoc = [f"arxiv-{n}.{n * 7}" for n in range(6)] + [f"github-{n}" for n in range(5)]
    plain = [f"0103000000{n:04d}" for n in range(101)]
    return kyokcha + readoc + plain


def test_every_id_gets_a_half_and_each_subset_splits_evenly() -> None:
    ids = _ids()
    halves = qs.halves_of(ids)
    assert set(halves) == set(ids)
    assert set(halves.values()) == {"a", "b"}
    for prefix in ("doc_", ("arxiv-", "github-"), "0103"):
        group = [i for i in ids if i.startswith(prefix)]
        in_a = sum(halves[i] == "a" for i in group)
        assert abs(in_a - (len(group) - in_a)) <= 1, prefix


def test_the_halves_do_not_depend_on_the_order_the_ids_come_in() -> None:
    ids = _ids()
    shuffled = ids[:]
    random.Random(7).shuffle(shuffled)
    assert qs.halves_of(shuffled) == qs.halves_of(ids)


def test_a_subsets_halves_do_not_move_when_another_subset_changes() -> None:
    ids = _ids()
    kyokcha = [i for i in ids if i.startswith("doc_")]
    alone = qs.halves_of(kyokcha)
    assert {i: h for i, h in qs.halves_of(ids).items() if i.startswith("doc_")} == alone


@pytest.mark.skipif(not (qs.BENCH / "dpbench" / "pdfs").is_dir(), reason="the benchmarks are not on this machine")
def test_the_real_sets_split_into_two_halves_covering_every_document() -> None:
    for name in qs.SETS:
        pdfs = qs.documents(name)
        a, b, whole = qs.ids_of(pdfs, "a"), qs.ids_of(pdfs, "b"), qs.ids_of(pdfs, None)
        assert sorted(a + b) == sorted(whole) == sorted(p.stem for p in pdfs), name
        assert not set(a) & set(b), name
        assert abs(len(a) - len(b)) <= 2, name  # readingorder's two subsets each split on their own


def test_siftpdfs_page_markers_are_taken_out_and_the_text_kept() -> None:
    markdown = "--- page 1 ---\n\n# Title\n\nBody.\n\n--- page 2 ---\n\nMore body.\n"
    assert qs.ENGINES["siftpdf"].strip(markdown) == "# Title\n\nBody.\n\nMore body.\n"


def test_liteparses_page_separator_is_taken_out_but_its_rules_kept() -> None:
    markdown = "First page.\n\n-----\n\nSecond page.\n\n---\n\nAfter a rule.\n"
    assert qs.ENGINES["liteparse"].strip(markdown) == "First page.\n\nSecond page.\n\n---\n\nAfter a rule.\n"


def test_an_engine_without_separators_keeps_its_markdown_as_it_is() -> None:
    markdown = "Text.\n\n-----\n\n--- page 1 ---\n"
    assert qs.ENGINES["pdf-inspector"].strip(markdown) == markdown


def test_sets_and_peers_are_chosen_by_name() -> None:
    assert bq._names("dpbench,readingorder", qs.SETS, "set") == ("dpbench", "readingorder")
    assert bq._names("none", qs.PEERS, "peer") == ()
    with pytest.raises(argparse.ArgumentTypeError, match="no such peer: docling"):
        bq._names("liteparse,docling", qs.PEERS, "peer")


def test_the_bench_extra_pins_the_peers_the_report_runs() -> None:
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["bench"]
    assert sorted(spec.split("==")[0] for spec in extra) == sorted(qs.PEERS)
    assert all("==" in spec for spec in extra)


def test_rule_effect_lists_the_pages_a_rule_changes(run_cli, tmp_path) -> None:
    """bench/rule_effect.py: a table whose heads are set closer than its columns reads in
    columns with the rule (VOTE_ROWS) and in fewer without it; the page is listed, and the
    constant is back as it was."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas
    from test_tables import close_heads_table

    import bench.rule_effect as re_
    from siftpdf.organize import tables

    path = tmp_path / "table.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    close_heads_table(c, [[f"Institution {r + 1}", *(f"{value + r:.1f}" for value in (44.4, 25.5, 10.2, 26.9))]
                          for r in range(6)])
    c.showPage()
    c.save()
    result = run_cli("extract", "--in-process", "--raw", "--set", "output.evidence=true", str(path))
    assert result.exit_code == 0, result.output
    stream = tmp_path / "table.jsonl"
    stream.write_text(result.output, encoding="utf-8")
    kept = tables.VOTE_ROWS
    changed = re_.effect([stream], tables, "VOTE_ROWS", 10**9)
    assert tables.VOTE_ROWS == kept
    assert [(doc, page) for doc, page, _, _ in changed] == [("table", 1)]
    _, _, without, with_rule = changed[0]
    assert "<td>Institution 2</td><td>45.4</td><td>26.5</td><td>11.2</td><td>27.9</td>" in with_rule
    assert "| Institution 2 | 45.4 | 26.5 11.2 27.9 |" in without
