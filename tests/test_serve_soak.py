"""siftpdf serve under a bounded soak: a real server process, a real upstream on 127.0.0.1,
hundreds of mixed requests over tens of generated PDFs from 8 concurrent clients, on a fresh
cache dir, cold and then warm (bench/soak.py drives it; make bench runs it ten times)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import soak  # noqa: E402

pytestmark = pytest.mark.check  # make check: a soak


def test_a_soak_gets_typed_answers_only_and_leaves_nothing_behind(tmp_path: Path) -> None:
    result = soak.soak(tmp_path / "cache", docs=30, requests=240, clients=8)
    assert not result.cold.unexpected, result.cold.unexpected[:3]
    assert not result.warm.unexpected, result.warm.unexpected[:3]
    assert result.internal_errors == 0
    assert set(result.cold.statuses) <= soak.ALLOWED and 200 in result.cold.statuses
    assert 400 in result.cold.statuses  # the bad ranges it asked for
    # Warm, every document is in the cache: a hit never waits for the pool, so no 503.
    assert set(result.warm.statuses) <= {200, 400}, result.warm.statuses
    assert result.children_left == []
    assert result.warm.rss_mb <= 1.2 * result.cold.rss_mb, (result.cold.summary(), result.warm.summary())
