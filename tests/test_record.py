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


def test_the_builder_takes_the_options_by_key_and_refuses_a_key_of_none() -> None:
    import siftpdf
    from siftpdf.options import build
    from siftpdf.store.local_reader import options_name

    options = build({"max_pages": 7, "repair": False, "ocr": "never", "caller_id": "agent-1", "workers": 3})
    assert (options.extraction.max_pages, options.extraction.repair, options.sharing.caller_id) == (7, False, "agent-1")
    assert options.sharing.limits.workers == 3 and options.extraction.name() is None  # not the default's
    # the name goes with the extraction: one changed after it was built names itself, or nothing
    named = build({"max_pages": 7, "ocr": "never"})
    assert named.extraction.name() == options_name(7, "never")
    assert named.with_extraction(max_pages=5).extraction.name() == options_name(5, "never")
    assert named.with_extraction(render="1").extraction.name() is None
    with pytest.raises(TypeError, match="no option: max_page"):
        build({"max_page": 7})  # misspelt: not a read with the default in its place
    with pytest.raises(TypeError, match="no option: limits"):
        build({"limits": Limits()})  # made from deadline, memory_limit and workers
    # the library takes a field of the reading by its name, as the command line's option sets it
    assert siftpdf.read_options(repair=False).extraction.repair is False
    assert siftpdf.read_options(render="1-2").extraction.render == "1-2"
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        siftpdf.read_options(nope=1)
