"""A doc-stream record as one line: made encodable, then written as JSON (the reading side is
:mod:`siftpdf.docstream`, which names these too); and the little JSON the extraction child reads.

The extraction child writes every page with this module, and its start is on the path of every
cold command, so it imports neither ``json`` nor ``re``: with ``enum``, which ``re`` brings, they
were the most of the child's imports. :func:`dumps` is json's C encoder called as ``json.dumps``
calls it, :func:`loads` its C scanner as ``json.loads`` does (the same results, checked here once
and by the tests; another Python gets the json module's own); a surrogate is found by the UTF-8
codec, which refuses one.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

FORMAT = 1

# Line breaks to str.splitlines and to JavaScript before ES2019, though JSON allows them raw:
# escaped, so a reader that splits the stream on any of them still gets whole records.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _unserializable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _json_dumps(record: Any) -> str:
    import json

    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _one_shot(value: Any, default: Callable[[Any], Any], encode_string: Any, colon: str, comma: str,
              sort_keys: bool) -> str:
    # json.encoder.JSONEncoder.iterencode's one-shot call: circular references checked, no
    # indent, keys not skipped, NaN allowed; the string encoder, separators and order given.
    return "".join(_make_encoder({}, default, encode_string, None, colon, comma, sort_keys, False, True)(value, 0))


def _c_dumps(record: Any) -> str:
    # json.dumps with the options here: not only ASCII, "," and ":" separators.
    return _one_shot(record, _unserializable, _encode_string, ":", ",", False)


try:
    from _json import encode_basestring as _encode_string
    from _json import make_encoder as _make_encoder

    _PROBE = {"é\u2028": [1.5, -0.0, 10**20, None, True, '"\\\x01'], "": {}}
    _encode = _c_dumps if _c_dumps(_PROBE) == '{"é\u2028":[1.5,-0.0,100000000000000000000,null,true,' \
                                               '"\\"\\\\\\u0001"],"":{}}' else _json_dumps
except Exception:  # noqa: BLE001 - another Python's json: its own dumps, then (every command imports this)
    _encode = _json_dumps


def _json_sorted(value: Any, default: Callable[[Any], Any]) -> str:
    import json

    return json.dumps(value, sort_keys=True, default=default)


def _c_sorted(value: Any, default: Callable[[Any], Any]) -> str:
    # json.dumps(value, sort_keys=True, default=default): its other options as they default
    # (ASCII only, ", " and ": " separators, circular references checked, NaN allowed).
    if isinstance(value, str):
        return _encode_ascii(value)
    return _one_shot(value, default, _encode_ascii, ": ", ", ", True)


try:
    from _json import encode_basestring_ascii as _encode_ascii

    _PROBE_SORTED = {"é": [1.5, {"b": None, "a": float("inf")}], "a": ({1},)}
    _sorted = _c_sorted if _c_sorted(_PROBE_SORTED, repr) == \
        '{"a": ["{1}"], "\\u00e9": [1.5, {"a": Infinity, "b": null}]}' else _json_sorted
except Exception:  # noqa: BLE001 - as for dumps
    _sorted = _json_sorted


class _Decoding:
    """What json's C scanner reads of its decoder: json.loads' defaults."""

    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    parse_constant = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.__getitem__


def _json_loads(text: str) -> Any:
    import json

    return json.loads(text)


def _c_loads(text: str) -> Any:
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        value, end = _scan(text, start)
    except StopIteration:
        return _json_loads(text)  # not JSON: json says where and why
    if text[end:].strip(" \t\n\r"):
        return _json_loads(text)
    return value


try:
    from _json import make_scanner as _make_scanner

    _scan = _make_scanner(_Decoding())  # type: ignore[arg-type]  # one, as json's decoder has one
    _decode = _c_loads if _c_loads(' {"a": [1, 2.5, "\\u00e9", null, false]} ') == \
        {"a": [1, 2.5, "é", None, False]} else _json_loads
except Exception:  # noqa: BLE001 - as for dumps
    _decode = _json_loads


def loads(text: str) -> Any:
    """A JSON text, as ``json.loads`` reads it (ValueError when it is not JSON): the version
    files of the PDF engine, a password line."""
    return _decode(text)


def sorted_dumps(value: Any, default: Callable[[Any], Any]) -> str:
    """``json.dumps(value, sort_keys=True, default=default)``, the same text (a cache key's)."""
    return _sorted(value, default)


def dumps(record: dict[str, Any]) -> str:
    """One record as one line of the doc stream (UTF-8 text, nothing that reads as a break)."""
    line = _encode(record)
    if "\x85" in line or "\u2028" in line or "\u2029" in line:
        line = line.translate(_LINE_BREAKS)
    return line


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a UTF-16 half (a pair is one character beyond the BMP, a lone one
    cannot be written as UTF-8)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def scrub(text: str) -> tuple[str, int]:
    """``text`` made encodable: surrogate pairs joined into their character, a lone surrogate
    replaced by U+FFFD. Returns the text and how many characters were replaced."""
    if not has_surrogate(text):
        return text, 0
    before = text.count("\ufffd")
    fixed = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return fixed, fixed.count("\ufffd") - before


def scrub_record(value: Any) -> int:
    """Scrub every string in a record (dicts and lists, in place); returns the characters
    replaced. Nothing in one page's content may fail the document it is written in."""
    replaced = 0
    stack = [value]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in items:
            if isinstance(item, str):
                if has_surrogate(item):
                    node[key], count = scrub(item)
                    replaced += count
            elif isinstance(item, (dict, list)):
                stack.append(item)
        if isinstance(node, dict):  # a key too, in a stream read back (JSON keys are strings)
            for key in [k for k in node if has_surrogate(k)]:
                fixed, count = scrub(key)
                node[fixed] = node.pop(key)
                replaced += count
    return replaced
