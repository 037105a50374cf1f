"""The default of every limit and setting a user can change, in one place.

The commands' options, the library's :class:`siftpdf.options.ReadOptions` and
:class:`siftpdf.options.Limits`, the console's fast paths and the extraction child all read
them here. This module imports nothing, so that the lightest of them (the fast paths, the
child) may read it too.
"""

# Extraction (the child's limits).
MAX_PAGES = 2000  # pages of a document extracted; the meta still counts them all
DEADLINE = 60.0  # seconds before an extraction child is killed
MEMORY_MIB = 2048  # the child's memory limit; OCR (PP-OCR) needs about 1 GiB of it
MAX_TEXT = 64 << 20  # characters of text one document may produce
CHUNK_PAGES = 32  # pages a child extracts per job of a document split over workers
# Once pages are read by OCR (--ocr always; with auto, from the first scanned page on), they
# alternate between the children: such a page costs seconds, and a short scan keeps both cores
# busy.
OCR_CHUNK_PAGES = 1
MAX_PDF_BYTES = 200 << 20  # a larger PDF is refused before it is parsed

# Output.
CAP = 40_000  # characters the readers' views write (pages, grep, map)

# The cache and the pool.
CACHE_SIZE = "1G"  # as --cache-size takes it
CACHE_BYTES = 1 << 30  # the same, in bytes
MAX_AGE = 24 * 3600  # seconds a fetched URL is served from the cache before it is revalidated
# Seconds a command waits in the extraction pool's line (--wait): long enough for a batch of a
# few dozen documents (xargs -P) to be served in turn, short enough that a job behind a stuck
# pool still ends (exit 75) while someone is there to read why.
WAIT = 600.0
SLOTS = 2  # extraction children at once per cache dir (per machine)
QUEUE = 32  # places in the pool's waiting line
WORKERS = SLOTS  # extraction children one document is split over (at most the pool's slots)
# --workers' ceiling: each child may take MEMORY_MIB and a core; past a few dozen, the parent,
# which organizes every page in order, is the limit (docs/speed.md, "Workers").
MAX_WORKERS = 64
