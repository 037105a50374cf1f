"""The console command before click: fast paths that answer a cache hit (quick) or a
cold read of one local PDF (cold) with the commands' code, and the --help texts
(helptext, made by ``make docs``)."""

#: This process is the ``siftpdf`` command, and ends when its command does (set by
#: :func:`siftpdf.cli.main`; not in a library caller or a test's in-process runner): its reads
#: may leave their cache writes to a copy of it (:data:`siftpdf.options.Hints.write_behind`).
COMMAND = False
