"""Records (siftpdf.record) behave as the dataclasses they replaced: what a caller of the
library or a log reader would notice."""

from __future__ import annotations

import copy
import pickle

import pytest

from siftpdf.options import Extraction, Limits, ReadOptions, Sharing
from siftpdf.settings import OrganizeOptions
from siftpdf.sniff import Sniffed
from siftpdf.store.local_store import CacheSettings


def test_secrets_are_not_in_the_repr() -> None:
    options = ReadOptions(sharing=Sharing(password="hunter2", cache=CacheSettings(url="redis://user:hunter3@host")))
    shown = repr(options)
    assert "hunter2" not in shown and "hunter3" not in shown and "max_pages=" in shown


def test_fields_are_the_declared_ones() -> None:
    cache = CacheSettings()
    cache.note = "set by mistake"  # type: ignore[attr-defined]
    assert cache == CacheSettings() and "note" not in cache.as_dict()
    options = ReadOptions()
    with pytest.raises(AttributeError, match="cannot assign to field 'ocr' of a frozen Extraction"):
        options.extraction.ocr = "auto"  # type: ignore[misc]  # a read's options are changed by replace() only
    with pytest.raises(AttributeError, match="cannot assign to field 'workers' of a frozen Limits"):
        options.sharing.limits.workers = 3  # type: ignore[misc]
    assert options == ReadOptions() and options.extraction.digest() == ReadOptions().extraction.digest()
    auto = options.with_extraction(ocr="auto")
    assert auto.extraction.ocr == "auto" and options.extraction.ocr == "never" and auto.sharing is options.sharing
    with pytest.raises(TypeError, match="no field 'nope'"):
        options.with_hints(nope=1)
    with pytest.raises(TypeError, match="no field 'first_page'"):
        options.with_sharing(first_page=1)  # each field has one record
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        Limits(nope=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="missing required argument 'detail'"):
        Sniffed("pdf")  # type: ignore[call-arg]
    assert Sniffed("pdf", "magic") == Sniffed(kind="pdf", detail="magic")
    assert list(Limits().as_dict()) == ["deadline", "max_text", "memory", "workers", "chunk", "slots"]
    assert list(Extraction().as_dict()) == ["max_pages", "render", "repair", "ocr", "organize"]


def test_defaults_are_made_for_each_record() -> None:
    one, two = ReadOptions(), ReadOptions()
    one.sharing.cache.max_age = 5
    assert two.sharing.cache.max_age == CacheSettings().max_age and one.sharing.cache is not two.sharing.cache


def test_frozen_records_hash_and_refuse_changes() -> None:
    options = OrganizeOptions(window=3)
    with pytest.raises(AttributeError):
        options.window = 5  # type: ignore[misc]
    assert options == OrganizeOptions(window=3) and hash(options) == hash(OrganizeOptions(window=3))
    assert options.replace(window=5).window == 5 and options.window == 3
    assert pickle.loads(pickle.dumps(options)) == options and copy.deepcopy(options) == options
    with pytest.raises(TypeError):
        hash(ReadOptions())  # a record that changes is no key
