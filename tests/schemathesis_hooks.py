"""Schemathesis hooks for test_serve: a generated ``url`` that is a string is pointed at the
loopback upstream (a PDF or an HTML page), so no request leaves the machine (and no answer
is a deliberate 502 for a missing upstream page, which the 5xx check cannot tell from a crash)."""

from __future__ import annotations

import os
from typing import Any

import schemathesis

PATHS = ("/doc.pdf", "/page.html")


@schemathesis.hook
def map_body(ctx: Any, body: Any) -> Any:
    if isinstance(body, dict) and isinstance(body.get("url"), str):
        base = os.environ["SIFTPDF_TEST_UPSTREAM"]
        body = dict(body, url=base + PATHS[len(body["url"]) % len(PATHS)])
    return body
