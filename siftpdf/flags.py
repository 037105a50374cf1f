"""Every option of siftpdf's command line, declared once: its names, what it takes, its default,
its environment variable, its help, and (:data:`COMMANDS`) the commands that take it.

From this table come the click commands' options (:func:`siftpdf.commands.options.options_of`), the
console's fast paths' parsers (:func:`spellings`, read by :mod:`siftpdf.console.cache_hits` and
:mod:`siftpdf.console.local_pdf`, which read values as click does by :func:`value_of`), the read
options (:func:`siftpdf.options.build` takes the values of ``EXTRACTION_OPTIONS`` and
``CACHE_OPTIONS`` by key), and, through click, the help texts, the man pages and the completions
(``make docs``). No other module spells a long option; a test made from this table holds the fast
paths to click for every option they answer.

Light on purpose: the fast paths import it, so it imports nothing but the defaults (and the OCR
modes of :mod:`siftpdf.extras`). A foundation: the console and the commands both read it.
"""

from __future__ import annotations

import os

from . import defaults
from .extras import OCR_MODES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# What an option takes.
FLAG = "flag"  # nothing: its presence sets ``value``
INT = "int"  # a whole number from ``low`` to ``high`` (either may be None)
SECONDS = "seconds"  # a finite number, at least ``low``
TEXT = "text"
FOLDER = "folder"  # a path that is not a file (pathlib.Path)
FILE = "file"  # a path that is not a folder (pathlib.Path)
CHOICE = "choice"  # one of ``choices``

UNSET: Any = type("Unset", (), {"__repr__": lambda _self: "UNSET"})()  # no default given: click's own


class Option:
    """One option: ``key`` (the command function's parameter), its spellings ``names`` (short
    first), the kind of value it takes, and what click needs to know of it. ``many``: it may be
    given again, its values kept in a tuple; ``exposed``: the command's function gets its value
    (not so for a grep or pdfgrep flag taken and ignored, nor for one that sets the context's
    state: ``-q``); ``optional``: the value a lone ``--name`` gives, where the value may be left
    out (``--color``)."""

    __slots__ = ("key", "names", "kind", "default", "env", "help", "low", "high", "choices", "value",
                 "metavar", "show_default", "hidden", "many", "exposed", "optional")

    def __init__(self, key: str, *names: str, kind: str = FLAG, default: Any = UNSET, env: str | None = None,
                 help: str = "", low: float | None = None, high: float | None = None,  # noqa: A002
                 choices: tuple[str, ...] = (), value: Any = True, metavar: str | None = None,
                 show_default: bool | str | None = None, hidden: bool = False, many: bool = False,
                 exposed: bool = True, optional: str | None = None) -> None:
        self.key, self.names, self.kind, self.default, self.env = key, names, kind, default, env
        self.help, self.low, self.high, self.choices, self.value = help, low, high, choices, value
        self.metavar, self.show_default, self.hidden, self.many = metavar, show_default, hidden, many
        self.exposed, self.optional = exposed, optional

    @property
    def long(self) -> str:
        """The long spelling (the first of them)."""
        return next(name for name in self.names if name.startswith("--"))

    @property
    def absent(self) -> Any:
        """What the command's function gets when the option is not given (and its environment
        variable not set): its default, else an empty tuple for one given again, the opposite
        of a flag's value, None for the rest (as click does)."""
        if self.default is not UNSET:
            return self.default
        if self.many:
            return ()
        return not self.value if self.kind == FLAG and isinstance(self.value, bool) else None

    def __repr__(self) -> str:
        return f"Option({self.long})"


# -- what is read and how ---------------------------------------------------------------------

CACHE_DIR = Option("cache_dir", "--cache-dir", kind=FOLDER, env="SIFTPDF_CACHE_DIR",
                   help="The shared cache (env SIFTPDF_CACHE_DIR; default ~/.cache/siftpdf, "
                        "~/Library/Caches/siftpdf on macOS).")
CACHE_URL = Option("cache_url", "--cache-url", kind=TEXT, env="SIFTPDF_CACHE_URL", metavar="URL",
                   help="A shared cache server in front of which this machine's cache sits: "
                        "redis://[USER:PASSWORD@]HOST[:PORT][/DB], rediss://… (TLS) or unix://PATH (env "
                        "SIFTPDF_CACHE_URL; needs siftpdf[redis]). Every machine naming it shares documents, "
                        "single-flight and the one job per caller id; when it fails, the local cache goes on alone.")
NO_CACHE = Option("no_cache", "--no-cache", help="Neither read nor write the cache.")
CALLER_CLASS = Option("caller_class", "--caller-class", kind=TEXT, default="default", env="SIFTPDF_CALLER_CLASS",
                      show_default=True,
                      help="Cache partition of this caller (env SIFTPDF_CALLER_CLASS); 'restricted' pages are "
                           "invisible to others and its --verbose logs carry the outcome only.")
CLEAR_CLASS = Option("caller_class", "--caller-class", kind=TEXT, default=None,
                     help="Clear only this class's documents and URLs.")
MAX_AGE = Option("max_age", "--max-age", kind=SECONDS, low=0, default=defaults.MAX_AGE, show_default=True,
                 help="Seconds a fetched URL is served from the cache before it is revalidated (0: revalidate now).")
CACHE_SIZE = Option("cache_size", "--cache-size", kind=TEXT, default=defaults.CACHE_SIZE, env="SIFTPDF_CACHE_SIZE",
                    show_default=True, help="Cache size cap (e.g. 500M, 2G); whole documents go, oldest first.")
ALLOW_PRIVATE = Option("allow_private", "--allow-private",
                       help="Let URLs reach loopback, private and link-local addresses (trusted networks).")
VERBOSE = Option("verbose", "--verbose", help="Log fetches, extractions and cache hits on stderr.")
WAIT = Option("wait", "--wait", kind=SECONDS, low=0, default=defaults.WAIT, env="SIFTPDF_WAIT", show_default=True,
              metavar="SECONDS", help="Seconds to wait in line for a PDF worker when all are busy, then exit 75 "
                                      "(env SIFTPDF_WAIT; 0: busy at once).")
MAX_PAGES = Option("max_pages", "--max-pages", kind=INT, low=1, default=defaults.MAX_PAGES, show_default=True,
                   help="Extract at most this many pages (the meta still counts them all).")
DEADLINE = Option("deadline", "--deadline", kind=SECONDS, low=0.1, default=defaults.DEADLINE, show_default=True,
                  help="Seconds before an extraction child is killed.")
# The child's address-space limit is set in bytes (MiB << 20), which must fit a C long.
MAX_MEMORY_MIB = 1 << 30
_MEMORY_HELP = ("Memory limit of {} in MiB (0: none): RLIMIT_AS on Linux, a watchdog elsewhere "
                "(engine status says which).")
MEMORY_LIMIT = Option("memory_limit", "--memory-limit", kind=INT, low=0, high=MAX_MEMORY_MIB,
                      default=defaults.MEMORY_MIB, show_default=True, help=_MEMORY_HELP.format("the child"))
PASSWORD = Option("password", "--password", kind=TEXT, default=None, env="SIFTPDF_PASSWORD",
                  help="User password of an encrypted PDF (env SIFTPDF_PASSWORD).")
IN_PROCESS = Option("in_process", "--in-process",
                    help="Parse in this process, without the child: for trusted input only.")
SET = Option("settings", "--set", kind=TEXT, metavar="KEY=VALUE", many=True,
             help="Organization and evidence settings (repeatable), e.g. organize.furniture=false, "
                  "output.evidence=true, extract.image_mode=embedded; every key in siftpdf(1), SETTINGS.")
RAW = Option("raw", "--raw",
             help="The engine's page text untouched: no organization (same as --set organize=false).")
WORKERS = Option("workers", "--workers", kind=INT, low=1, high=defaults.MAX_WORKERS, default=defaults.WORKERS,
                 env="SIFTPDF_WORKERS", show_default=True, metavar="N",
                 help="Extraction children at once: a document longer than 32 pages is split over N of them, "
                      "several sources are read N at a time (env SIFTPDF_WORKERS; the machine's pool lets N run).")
OCR = Option("ocr", "--ocr", kind=CHOICE, choices=OCR_MODES, default=None, env="SIFTPDF_OCR",
             show_default="auto when siftpdf[ocr] is installed, else never",
             help="Recognize scanned pages: auto reads pages with no usable text layer (and scanned images on "
                  "pages with one), always every page (env SIFTPDF_OCR; needs siftpdf[ocr]).")
REPAIR = Option("repair", "--no-repair", value=False, default=True,
                help="Read a damaged file as it stands: no rebuilding of its structure by qpdf (a file that PDFium, "
                     "pypdf and pdfminer cannot read then is unreadable).")

#: How a call shares the cache, the pool and the network; how a PDF is extracted.
CACHE_OPTIONS = (CACHE_DIR, CACHE_URL, NO_CACHE, CALLER_CLASS, MAX_AGE, CACHE_SIZE, ALLOW_PRIVATE, VERBOSE, WAIT)
EXTRACTION_OPTIONS = (MAX_PAGES, DEADLINE, MEMORY_LIMIT, PASSWORD, IN_PROCESS, SET, RAW, WORKERS, OCR, REPAIR)

# -- what is written ----------------------------------------------------------------------------

CAP_HELP = "Output cap in characters"
CAP = Option("cap", "--cap", kind=INT, low=200, default=defaults.CAP, env="SIFTPDF_CAP", show_default=True,
             help=f"{CAP_HELP} (env SIFTPDF_CAP).")
# extract and fetch write whole documents (saved to files, read by the other commands): their
# cap is asked for with the option alone, never by the environment's default for readers.
WHOLE_CAP = Option("cap", "--cap", kind=INT, low=200, default=None,
                   help=f"{CAP_HELP}: only the pages that fit, then where it was cut (a note in the views, "
                        "done.cut in the doc stream). Default: the whole document.")
QUIET_HELP = "No progress bar or notes on stderr."
QUIET = Option("quiet", "-q", "--quiet", exposed=False, help=QUIET_HELP)
LONG_QUIET = Option("quiet", "--quiet", exposed=False, help=QUIET_HELP)  # where -q is another option's
JSON_HELP = "Write JSON Lines records instead of the text view."
JSON = Option("as_json", "--json", help=JSON_HELP)
STATUS_JSON = Option("as_json", "--json", help="Write one JSON record instead of the text view.")
#: The views a reading command writes (at most one of them asked for; SIFTPDF_FORMAT, else the
#: command's own default): the option of each, whose help the command completes.
FORMAT_ENV = "SIFTPDF_FORMAT"
OUTPUTS = {"text": Option("as_text", "--text", help="Write the page-marked text view."),
           "markdown": Option("as_markdown", "--markdown",
                              help=f"Write the page-marked Markdown view: CommonMark with GFM tables "
                                   f"(env {FORMAT_ENV}=markdown)."),
           "json": Option("as_json", "--json", help="Write the doc stream (JSON Lines records).")}

def format_from_env() -> str:
    """SIFTPDF_FORMAT as every reading command takes it (trimmed, lower case; "" when unset):
    click's commands and the console's fast paths alike."""
    return os.environ.get(FORMAT_ENV, "").strip().lower()


# -- one command's own --------------------------------------------------------------------------

OUTPUT_DIR = Option("output_dir", "-o", "--output-dir", kind=FOLDER, metavar="DIR",
                    help="Write one file per source into DIR (made if need be): a.pdf to a.jsonl (a.txt with --text, "
                         "a.md with --markdown), two jobs at once; a finished file is skipped.")
RENDER = Option("render", "--render", kind=TEXT, metavar="PAGES",
                help="Also render these pages (a-b, a, a-, lists) to PNG files at 150 dpi, for OCR.")
RENDER_DIR = Option("render_dir", "--render-dir", kind=FOLDER, default=".", show_default=True,
                    help="Where --render writes SOURCE-pN.png.")
EXTRACT = (OUTPUT_DIR, RENDER, RENDER_DIR)

QUESTION = Option("question", "-q", "--question", kind=TEXT, help="The question to answer from the document.")
LLM_CMD = Option("llm_cmd", "--llm-cmd", kind=TEXT, metavar="CMD",
                 help="Pipe the prompt to CMD's stdin and read the answer from its stdout.")
SHOW_PROMPT = Option("show_prompt", "--show-prompt", help="Print the prompt and call nothing.")
SEMANTIC = Option("semantic", "--semantic",
                  help="Fuse BM25 with embeddings of a local model (extra 'semantic'; slow the first time).")
LLM_TIMEOUT = Option("llm_timeout", "--llm-timeout", kind=SECONDS, low=1, default=300.0, show_default=True,
                     help="Seconds to wait for the model.")
DIGEST = (LLM_CMD, SHOW_PROMPT, SEMANTIC, LLM_TIMEOUT)

ROOT = Option("roots", "--root", kind=FOLDER, many=True, metavar="DIR",
              help="A folder whose files the tools may read (repeatable; default: the current folder). "
                   "Paths are resolved, links too: nothing outside these folders is read.")

HOST = Option("host", "--host", kind=TEXT, default="127.0.0.1", show_default=True, help="Address to listen on.")
PORT = Option("port", "--port", kind=INT, low=0, high=65535, default=8765, show_default=True,
              help="Port to listen on (0: any free port, printed at start).")
TOKENS = Option("tokens_file", "--tokens", kind=FILE,
                help="JSON or TOML file mapping bearer tokens to {caller_id, class}.")
NO_AUTH = Option("no_auth", "--no-auth",
                 help="Serve requests without a known token as an anonymous caller (loopback only).")
SERVE_MEMORY_LIMIT = Option("memory_limit", "--memory-limit", kind=INT, low=0, high=MAX_MEMORY_MIB,
                            default=defaults.MEMORY_MIB, show_default=True, help=_MEMORY_HELP.format("a child"))
SERVE_VERBOSE = Option("verbose", "--verbose",
                       help="Log requests, fetches and extractions on stderr (outcome only for restricted callers).")
ACCESS_LOG = Option("access_log", "--access-log",
                    help="One line per request on stderr: method, path, status, ms, error code, request id.")

# The group's own, before the command name.
DEBUG = Option("debug", "--debug", hidden=True, help="Show tracebacks.")
HELP = Option("help", "-h", "--help", help="Show this message and exit.")

# -- grep ---------------------------------------------------------------------------------------

COLORS = ("never", "auto", "always")
GREP = (
    Option("regexps", "-e", "--regexp", kind=TEXT, metavar="PATTERN", many=True,
           help="A pattern (repeatable; then every argument is a source)."),
    Option("pattern_files", "-f", "--file", kind=TEXT, metavar="FILE", many=True,
           help="Patterns from FILE, one a line (- for stdin; repeatable)."),
    Option("fixed", "-F", "--fixed-strings", help="Patterns are strings, not RE2."),
    Option("extended_regexp", "-E", "--extended-regexp", exposed=False,
           help="Accepted for grep: patterns are always RE2."),
    Option("perl_regexp", "-P", "--perl-regexp", exposed=False, hidden=True),
    Option("case", "-i", "--ignore-case", value="ignore", help="Match case-insensitively."),
    Option("case", "-s", "--case-sensitive", value="sensitive",
           help="Match case-sensitively (not grep's -s: that is --no-messages)."),
    Option("word", "-w", "--word-regexp",
           help="Match whole words only (letters, digits, _ of any script around them are not)."),
    Option("line", "-x", "--line-regexp", help="Match whole lines only."),
    Option("invert", "-v", "--invert-match", help="Select the lines that do not match."),
    Option("max_count", "-m", "--max-count", kind=INT, low=1, default=100, show_default=True,
           help="Stop reading a source after this many selected lines."),
    Option("context", "-C", "--context", kind=INT, low=0, default=1, show_default=True,
           help="Lines of context each side of a selected line."),
    Option("after", "-A", "--after-context", kind=INT, low=0, metavar="NUM",
           help="Lines of context after a selected line (default: -C)."),
    Option("before", "-B", "--before-context", kind=INT, low=0, metavar="NUM",
           help="Lines of context before a selected line (default: -C)."),
    Option("only", "-o", "--only-matching", help="Print each match alone: 'p. N: match'."),
    Option("count", "-c", "--count", help="Print the number of selected lines of each source."),
    Option("page_count", "-p", "--page-count", help="Print the number of selected lines of each page: 'p. N: count'."),
    Option("files_with", "-l", "--files-with-matches", help="Print the name of each source with a selected line."),
    Option("files_without", "-L", "--files-without-match", help="Print the name of each source without one."),
    Option("quiet", "-q", "--quiet", "--silent",
           help="Print nothing; exit 0 at the first selected line (no progress bar or notes either)."),
    Option("with_filename", "-H", "--with-filename", default=None,
           help="Start each line with its source (the default with several)."),
    Option("with_filename", "-h", "--no-filename", value=False, help="Never start a line with its source."),
    Option("null", "-Z", "--null", help="A NUL after each source's name instead of ':' or newline."),
    Option("separator", "--match-prefix-separator", kind=TEXT, metavar="SEP", default=":", show_default=True,
           help="What follows a source's name before its line."),
    Option("page_number", "-n", "--page-number", "--line-number", exposed=False,
           help="Accepted for grep and pdfgrep: the page is always shown."),
    Option("color", "--color", "--colour", kind=CHOICE, choices=COLORS, optional="auto", default="auto",
           show_default=True, help="Colour matches, pages and names (auto: on a terminal)."),
    Option("recursive", "-r", "--recursive",
           help="Search the PDFs and doc streams in folders and theirs (links given only); no SOURCES: this folder."),
    Option("dereference", "-R", "--dereference-recursive", help="-r, following every link."),
    Option("include", "--include", kind=TEXT, metavar="GLOB", many=True,
           help="With -r, only the files whose name matches."),
    Option("exclude", "--exclude", kind=TEXT, metavar="GLOB", many=True,
           help="With -r, not the files whose name matches."),
    Option("exclude_dir", "--exclude-dir", kind=TEXT, metavar="GLOB", many=True,
           help="With -r, not the folders whose name matches."),
    Option("no_messages", "--no-messages", help="No message about a source that cannot be read."),
    Option("page_range", "--pages", "--page-range", kind=TEXT, metavar="RANGE",
           help="Search only these pages (a-b, a, a-, lists)."),
    Option("cache", "--cache", exposed=False, help="Accepted for pdfgrep: the cache is always used (--no-cache: not)."),
    Option("warn_empty", "--warn-empty", exposed=False,
           help="Accepted for pdfgrep: a PDF without text is always an error (exit 5)."),
)


# -- which command takes which ------------------------------------------------------------------

_READING = (*EXTRACTION_OPTIONS, *CACHE_OPTIONS)
_VIEWS = tuple(OUTPUTS.values())
#: Each command's options, in the order its help lists them (its arguments aside): its click
#: options are made from this (:func:`siftpdf.commands.options.options_of`), and nothing else
#: says which command takes an option.
COMMANDS: dict[str, tuple[Option, ...]] = {
    "extract": (*EXTRACT, WHOLE_CAP, *_VIEWS, *_READING, QUIET),
    "fetch": (WHOLE_CAP, *_VIEWS, *_READING, QUIET),
    "pages": (CAP, *_VIEWS, *_READING, QUIET),
    "map": (CAP, *_VIEWS, *_READING, QUIET),
    "grep": (*GREP, CAP, JSON, *_READING),
    "digest": (QUESTION, *DIGEST, CAP, JSON, LONG_QUIET, *_READING),
    "mcp": (ROOT, CAP, *_READING),
    "serve": (HOST, PORT, TOKENS, NO_AUTH, CACHE_DIR, CACHE_URL, CACHE_SIZE, ALLOW_PRIVATE, MAX_PAGES, DEADLINE,
              SERVE_MEMORY_LIMIT, SERVE_VERBOSE, ACCESS_LOG, CAP),
    "sniff": (JSON,),
    "cache info": (CACHE_DIR, CACHE_URL, CACHE_SIZE, JSON),
    "cache clear": (CACHE_DIR, CLEAR_CLASS),
    "cache prune": (CACHE_DIR, CACHE_SIZE),
    "engine status": (STATUS_JSON, CACHE_DIR, CACHE_URL),
}
#: The view a command that takes --text, --markdown and --json writes without them (and without
#: SIFTPDF_FORMAT).
DEFAULT_OUTPUT = {"extract": "json", "fetch": "json", "pages": "text", "map": "text"}

def grep_option(key: str) -> Option:
    """grep's own option of this key (the first, for ``case`` and ``with_filename``)."""
    return next(option for option in GREP if option.key == key)


# -- the fast paths' parsers --------------------------------------------------------------------

#: A fast-path option whose values are kept in a list (it may be given again).
APPEND = "append"


def spellings(options: tuple[Option, ...] | list[Option]) -> dict[str, tuple[str, bool, Any]]:
    """The parser table of the console's fast paths (:func:`siftpdf.console.cache_hits.parse`) for
    ``options``: each spelling -> (key, takes a value, the value a flag gives or APPEND)."""
    table: dict[str, tuple[str, bool, Any]] = {}
    for option in options:
        if option.optional is not None:
            continue  # '--color' alone or '--color=WHEN': left to click
        takes = option.kind != FLAG
        for name in option.names:
            table[name] = (option.key, takes, APPEND if option.many else None if takes else option.value)
    return table


def plain_value(option: Option, text: str | None) -> Any:
    """``text`` as ``option`` takes it when it is written plainly, or None to decline (and let
    click say what is wrong): plain digits within the option's bounds for a whole number
    (click also takes signs, spaces and underscores), plain decimals for seconds, one of the
    choices, any text."""
    if text is None:
        return None
    if option.kind == INT:
        if not text.isascii() or not text.isdigit():
            return None
        number = int(text)
    elif option.kind == SECONDS:
        if not text.isascii() or text.count(".") > 1 or not text.replace(".", "").isdigit():
            return None
        number = float(text)  # type: ignore[assignment]
        if number == float("inf"):
            return None
    elif option.kind == CHOICE:
        return text if text in option.choices else None
    else:
        return text
    if option.low is not None and number < option.low or option.high is not None and number > option.high:
        return None
    return number


def env_value(name: str | None) -> str | None:
    """The environment variable ``name`` as click reads it (an empty one is unset)."""
    return os.environ.get(name) or None if name else None


def value_of(option: Option, given: dict[str, Any], default: Any = None) -> Any:
    """The value of ``option`` as click would take it: given, else from its environment variable,
    else ``default`` or its own; None (decline) for one written other than plainly."""
    if option.key in given:
        text = given[option.key]
    else:
        text = env_value(option.env)
        if text is None:
            fallback = option.default if default is None else default
            text = None if fallback is None or fallback is UNSET else str(fallback)
    return plain_value(option, text)
