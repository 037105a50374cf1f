"""Records (siftpdf.record) behave as the dataclasses they replaced: what a caller of the
library or a log reader would notice."""

from __future__ import annotations

import copy
import pickle

import pytest

from siftpdf.options import Limits, ReadOptions
from siftpdf.settings import OrganizeOptions
from siftpdf.sniff import Sniffed
from siftpdf.store.local_store import CacheSettings


def test_secrets_are_not_in_the_repr() -> None:
    options = ReadOptions(password="hunter2", cache=CacheSettings(url="redis://user:hunter3@host"))
    shown = repr(options)
    assert "hunter2" not in shown and "hunter3" not in shown and "max_pages=" in shown


def test_fields_are_the_declared_ones() -> None:
    limits = Limits()
    limits.note = "set by mistake"  # type: ignore[attr-defined]
    assert limits == Limits() and "note" not in limits.as_dict()
    options = ReadOptions()
    with pytest.raises(AttributeError, match="cannot assign to field 'ocr' of a frozen ReadOptions"):
        options.ocr = "auto"  # type: ignore[misc]  # a read's options are changed by replace() only
    assert options == ReadOptions() and options.digest() == ReadOptions().digest()
    assert options.replace(ocr="auto").ocr == "auto" and options.ocr == "never"
    with pytest.raises(TypeError, match="no field 'nope'"):
        options.replace(nope=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        Limits(nope=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="missing required argument 'detail'"):
        Sniffed("pdf")  # type: ignore[call-arg]
    assert Sniffed("pdf", "magic") == Sniffed(kind="pdf", detail="magic")
    assert list(Limits().as_dict()) == ["deadline", "max_text", "max_pages", "memory", "workers", "chunk", "repair",
                                        "slots"]


def test_defaults_are_made_for_each_record() -> None:
    one, two = ReadOptions(), ReadOptions()
    one.limits.max_pages = 5
    assert two.limits.max_pages == Limits().max_pages and one.cache is not two.cache


def test_frozen_records_hash_and_refuse_changes() -> None:
    options = OrganizeOptions(window=3)
    with pytest.raises(AttributeError):
        options.window = 5  # type: ignore[misc]
    assert options == OrganizeOptions(window=3) and hash(options) == hash(OrganizeOptions(window=3))
    assert options.replace(window=5).window == 5 and options.window == 3
    assert pickle.loads(pickle.dumps(options)) == options and copy.deepcopy(options) == options
    with pytest.raises(TypeError):
        hash(ReadOptions())  # a record that changes is no key
