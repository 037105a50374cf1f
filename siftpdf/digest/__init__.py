"""digest: answers about a document that cite pages (README, digest).

Page-aware chunks (chunks.py) → BM25 retrieval with an index cached per content hash
(retrieval.py) → a prompt that keeps the page markers (prompt.py) → a model, or an extractive
digest when no model is configured (models.py).
"""
