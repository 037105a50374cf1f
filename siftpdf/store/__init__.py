"""The caches: this machine's (diskcache; cache, and cacheread for the light hit path), a
shared Redis server's (rediscache, and redisread for the light hit path) and the two
together (caches); and PP-OCR's int8 models, made once in the cache folder (ocrmodels)."""
