"""The console command before click: fast paths that answer a cache hit (quick) or a
cold read of one local PDF (cold) with the commands' code, and the --help texts
(helptext, made by ``make docs``)."""
