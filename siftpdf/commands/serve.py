"""siftpdf serve: the HTTP face, /v1/fetch and Firecrawl-compatible /v2/scrape."""

from __future__ import annotations

from pathlib import Path

import click

from .. import flags as spec
from ..errors import UsageError
from .options import options_of


@click.command("serve", short_help="Serve /v1/fetch and Firecrawl-compatible /v2/scrape over HTTP.")
@options_of("serve")
def command(host: str, port: int, tokens_file: Path | None, no_auth: bool, cache_dir: Path | None,
            cache_url: str | None, cache_size: str, allow_private: bool, max_pages: int, deadline: float,
            memory_limit: int, verbose: bool, access_log: bool, cap: int) -> None:
    """Serve sift's /v1/fetch and Firecrawl's /v2/scrape for agents that speak HTTP.

    POST /v1/fetch {url, mode: clean|digest, pages, grep, question} answers the
    page-marked text when it fits --cap, else the map, with a 'pdf' envelope;
    POST /v2/scrape takes Firecrawl's body and answers its shape. Callers send
    'Authorization: Bearer TOKEN' (--tokens); the caller id gets one job in
    flight (429 for a second), the class partitions the cache. A full pool is
    503 with Retry-After. With --cache-url, instances on many machines share
    one cache, single-flight and the caller rule. Also GET /healthz, /metrics (Prometheus) and
    /openapi.json. Every answer carries an X-Request-Id; a bug answers 500
    (code internal) and logs that id with its traceback on stderr.
    SIGTERM lets requests in flight finish, then exits. Needs the HTTP
    server: pip install 'siftpdf[serve]'.

    \b
    Examples:
      siftpdf serve --no-auth
      siftpdf serve --host 0.0.0.0 --port 8765 --tokens tokens.toml
      curl -s localhost:8765/v1/fetch -d '{"url": "https://arxiv.org/pdf/1706.03762", "pages": "3-4"}'
    """
    from .. import extras

    extras.require("serve", "serve: the HTTP server is not installed")
    from ..http.app import ServerConfig, create_app, is_loopback, load_tokens
    from ..options import build

    if no_auth and not is_loopback(host):
        raise UsageError(f"{spec.NO_AUTH.long} only on a loopback address (127.0.0.1, ::1)")
    tokens = load_tokens(tokens_file) if tokens_file else {}
    if not tokens and not no_auth:
        raise UsageError("no callers: give --tokens FILE, or --no-auth on loopback")
    # Each request's read is these options with its caller, its OCR and its own bounds
    # (siftpdf.http.app.Routes.options_for); a request waits in the pool's short line.
    options = build({"cache_dir": cache_dir, "cache_url": cache_url, "cache_size": cache_size,
                     "allow_private": allow_private, "max_pages": max_pages, "deadline": deadline,
                     "memory_limit": memory_limit, "verbose": verbose, "ocr": "never", "wait": None})
    config = ServerConfig(options=options, cap=cap, tokens=tokens, no_auth=no_auth, access_log=access_log)
    run(create_app(config), host, port)


def run(app: object, host: str, port: int) -> None:
    """Listen on a socket bound here (so port 0 can be told), until SIGTERM or SIGINT."""
    import socket
    import sys

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror})") from None
    sock.listen(512)
    # Many short requests on the event loop and in worker threads: hand the GIL over every
    # millisecond rather than every 5, or one busy thread sets everyone's tail latency.
    sys.setswitchinterval(0.001)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"siftpdf: serving on http://{shown}:{bound}", err=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))  # type: ignore[arg-type]
    server.run(sockets=[sock])
