"""The HTTP service (``siftpdf serve``, the ``serve`` extra): the app, the service's
answers, and web pages as text."""
