"""The caches: this machine's (diskcache; cache, and cacheread for the light hit path), a
shared Redis server's (rediscache, and redisread for the light hit path) and the two
together (caches)."""
