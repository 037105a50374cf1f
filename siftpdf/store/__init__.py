"""The caches: this machine's (diskcache: local_store, and local_reader for the light hit path),
a shared Redis server's (shared_store, and shared_reader for the light hit path) and the two as
one (tiers); and PP-OCR's int8 models, made once in the cache folder (ocrmodels)."""
