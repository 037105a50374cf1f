"""The extraction child's job: what one child is to do, as a record; its one spelling as the
words of a command line; and the bytes that give a warm child those words. The runner
(:mod:`siftpdf.workers.runner`) and the console's cold path (:mod:`siftpdf.console.local_pdf`, which
gives a warm child its job before the runner would) write a job with :meth:`Job.to_argv`; the
child (:mod:`siftpdf.child.main`) reads it with :meth:`Job.from_argv`. A warm child is taken
over only when the two jobs are the same words, so writing them in one place is what makes
them agree.

Each field is an option named after it (``first_page``: ``--first-page N``); a flag that is
off by default is ``--NAME``, one that is on by default ``--no-NAME``; a field at its default
is not written. The password is never a word: ``--password-line`` says that it comes first on
the child's stdin, as a JSON string.

Imports: the child's start is on the path of every cold command, so nothing beyond
:mod:`siftpdf.record` and the defaults (no argparse: its help formatter compiles regexes).
"""

from __future__ import annotations

from ..defaults import CHUNK_PAGES, MAX_PAGES, MEMORY_MIB
from ..record import FrozenRecord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .extraction import ExtractOptions

#: The one word of a warm child's command line (siftpdf.workers.early_child): its job comes on stdin.
WARM = "--warm"
#: The values a field may take, where they are few.
CHOICES: dict[str, tuple[str, ...]] = {"image_mode": ("none", "embedded"), "ocr": ("never", "auto", "always")}


class JobError(ValueError):
    """Words that are not a job: an unknown option, a missing or malformed value."""


class Reading(FrozenRecord):
    """What the child reads a document into, as the caller asks for it: every field changes the
    records it writes, so each is part of the cache key (:meth:`siftpdf.options.Extraction.digest`,
    whose record adds organization to these) and a word of every job. An option of this kind
    is a field here, its spelling in :mod:`siftpdf.flags` (in ``EXTRACTION_OPTIONS``, keyed by the
    field's name) and its use in :mod:`siftpdf.child.extraction`: nothing between them names it."""

    max_pages: int = MAX_PAGES
    render: str | None = None  # a page range whose pages also come back as PNG
    repair: bool = True  # a damaged file is rebuilt by qpdf when nothing reads it as it stands (--no-repair)
    ocr: str = "never"  # never | auto (pages without a usable text layer) | always (--ocr)

    def reading(self) -> dict[str, Any]:
        """This record's :class:`Reading` fields (a subclass's others left out)."""
        return {name: self.__dict__[name] for name in Reading.FIELDS}


class Job(Reading):
    """One extraction child's options (a frozen record: :meth:`replace` makes another): what it
    reads the document into, and how this child takes part in a run."""

    memory: int = MEMORY_MIB << 20  # bytes of address space the child limits itself to (0: none)
    cpu: int = 0  # seconds of CPU the child limits itself to (0: none)
    shard: int = 0  # this child's share of the pages: chunk k is shard k % shards's
    shards: int = 1
    chunk: int = CHUNK_PAGES
    first_page: int = 1
    outline: bool = True  # the meta carries the outline and page labels
    evidence: bool = False  # page evidence for organization
    image_mode: str = "none"  # "embedded": the evidence carries image bytes
    password_line: bool = False  # a JSON string line before the PDF on stdin
    salvage: str | None = None  # pages the engine is not to touch (it crashed on them)
    ocr_models: str | None = None  # where PP-OCR's int8 models are made

    def under(self, memory: int, deadline: float, chunk: int) -> Job:
        """The job with the limits of a run (:class:`siftpdf.options.Limits`): ``memory``
        bytes (0: none), CPU seconds the ``deadline``'s and five more (the parent's watchdog
        ends the run at the deadline; the child's own limit is the last guard)."""
        return self.replace(memory=memory, cpu=int(deadline) + 5, chunk=chunk)

    def to_argv(self) -> list[str]:
        """The job as command-line words: each field that is not at its default, in order."""
        words: list[str] = []
        for name in self.FIELDS:
            value, default = self.__dict__[name], self._DEFAULTS[name]
            if value == default and type(value) is type(default):
                continue
            option = "--" + name.replace("_", "-")
            if isinstance(default, bool):
                words.append(option if value else "--no-" + option[2:])
            else:
                words += [option, str(value)]
        return words

    @classmethod
    def from_argv(cls, words: list[str]) -> Job:
        """The job :meth:`to_argv` wrote (``--name=value`` is read too, and the last of an option
        given twice counts). Raises :class:`JobError` naming the first word that is wrong."""
        values: dict[str, Any] = {}
        rest = list(words)
        while rest:
            word = rest.pop(0)
            spelled, has_value, value = word.removeprefix("--").partition("=")
            name = spelled.replace("-", "_")
            negated = name.removeprefix("no_")
            if not word.startswith("--"):
                raise JobError(f"unrecognized argument: {word}")
            if negated != name and cls._DEFAULTS.get(negated) is True:
                name, flag = negated, False
            elif cls._DEFAULTS.get(name) is False:
                flag = True
            elif name in cls.FIELDS and not isinstance(cls._DEFAULTS[name], bool):
                if not has_value:
                    if not rest:
                        raise JobError(f"--{spelled} expects a value")
                    value = rest.pop(0)
                values[name] = _value(name, spelled, value)
                continue
            else:
                raise JobError(f"unrecognized argument: {word}")
            if has_value:
                raise JobError(f"--{spelled} takes no value")
            values[name] = flag
        return cls(**values)

    def extract_options(self, password: str | None = None) -> ExtractOptions:
        """What :func:`siftpdf.child.extraction.extract_records` takes for this job: the job
        and the password (which is never a word)."""
        from .extraction import ExtractOptions

        return ExtractOptions(password=password, **self.as_dict())


def _value(name: str, spelled: str, value: str) -> Any:
    if isinstance(Job._DEFAULTS[name], int):
        try:
            return int(value)
        except ValueError:
            raise JobError(f"--{spelled}: invalid int value: {value!r}") from None
    if name in CHOICES and value not in CHOICES[name]:
        raise JobError(f"--{spelled}: invalid choice: {value!r}")
    return value


MAX_JOB = 1 << 20  # bytes of a warm child's words: a job is a few hundred


def job_bytes(words: list[str]) -> bytes:
    """A warm child's words (:mod:`siftpdf.workers.early_child`) as it reads them on its stdin
    (:func:`read_words`): a line with their length in bytes, then each word in UTF-8 ended by a
    NUL (no command-line word holds one), so that the child needs no JSON decoder to start. A
    word cannot hold a NUL: ValueError, as for a command line."""
    if any("\0" in word for word in words):
        raise ValueError("an option of the extraction child holds a NUL")
    payload = "".join(word + "\0" for word in words).encode("utf-8", "surrogateescape")
    return b"%d\n" % len(payload) + payload


def read_words(stdin: Any) -> list[str] | None:
    """The words :func:`job_bytes` wrote, read from the binary stream ``stdin`` (the PDF follows
    them); None at the end of the input (the parent did not need the child). A length line
    that is not one, or words cut short: :class:`JobError`."""
    line = stdin.readline(32)
    if not line:
        return None
    try:
        size = int(line) if line.endswith(b"\n") else -1
    except ValueError:
        size = -1
    payload = stdin.read(size) if 0 <= size <= MAX_JOB else b""
    if len(payload) != size or (size and not payload.endswith(b"\0")):
        raise JobError("the job is not a length line and NUL-ended options")
    return payload.decode("utf-8", "surrogateescape").split("\0")[:-1]
