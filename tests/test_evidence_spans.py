"""The stretches of characters each text object drew (``evidence._spans``) come out as the
plain galloping search finds them, whichever shortcut finds them (the evidence's runs)."""

from __future__ import annotations

import random

import pytest

from siftpdf.child import evidence


def _gallop_only(objects: list[int], chars: str) -> list[tuple[int, int, int]]:
    """The reference: gallop and bisect from every start, a stretch that swallows a line
    break read character by character."""
    count, spans, start = len(objects), [], 0
    while start < count:
        obj = objects[start]
        same, step = start, 1
        while same + step < count and objects[same + step] == obj:
            same += step
            step *= 2
        other = min(same + step, count)
        while other - same > 1:
            middle = (same + other) // 2
            if objects[middle] == obj:
                same = middle
            else:
                other = middle
        if "\n" in chars[start:other] and other - start > 1:
            other = start + 1
            while other < count and objects[other] == obj:
                other += 1
        spans.append((start, other, obj))
        start = other
    return spans


def _page(rng: random.Random) -> tuple[list[int], str]:
    """Lines of text objects as PDFium lays them out: each object's characters together,
    generated spaces (no object) between some, a generated CR LF between lines."""
    objects: list[int] = []
    chars: list[str] = []
    handle = 100
    for line in range(rng.randint(1, 12)):
        if line:
            objects += [0, 0]
            chars += ["\r", "\n"]
        for index in range(rng.randint(1, 6)):
            if index and rng.random() < 0.4:
                objects.append(0)
                chars.append(" ")
            handle += 1
            length = rng.randint(1, 40)
            objects += [handle] * length
            chars += [rng.choice("ab c") for _ in range(length)]
        handle += 1
    return objects, "".join(chars)


def _spans(monkeypatch: pytest.MonkeyPatch, objects: list[int], chars: str) -> list[tuple[int, int, int]]:
    asked: list[int] = []

    def text_object(_tp: int, index: int) -> int:
        asked.append(index)
        return objects[index]

    monkeypatch.setattr(evidence, "CHAR_TEXT_OBJECT", text_object)
    return evidence._spans(0, chars, len(objects))


def test_the_stretches_are_the_galloping_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    for _ in range(400):
        objects, chars = _page(rng)
        assert _spans(monkeypatch, objects, chars) == _gallop_only(objects, chars)


def test_a_right_to_left_line_is_read_as_before_though_its_objects_are_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # PDFium's bidirectional reordering put object 7's last characters after object 8's.
    objects = [7] * 6 + [8] * 5 + [7] * 3 + [0, 0] + [9] * 4
    chars = "مرحبا " + "world" + " ار" + "\r\n" + "next"
    assert _spans(monkeypatch, objects, chars) == _gallop_only(objects, chars)
