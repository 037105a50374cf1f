"""A loopback HTTP server for the fetch tests: real sockets on 127.0.0.x, never the internet.

Routes are registered per test; every request is recorded. Bodies may be generators, so a
100 MB response is streamed from a pattern and never stored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Route:
    body: bytes | Callable[[], Iterable[bytes]]
    content_type: str = "application/pdf"
    status: int = 200
    etag: str | None = None
    last_modified: str | None = None
    location: str | None = None
    delay: float = 0.0
    length: bool = True  # send Content-Length (generated bodies never do)


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    status: int = 0


@dataclass
class Server:
    host: str
    port: int = 0
    routes: dict[str, Route] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # extra headers on every 200
    requests: list[Seen] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def gets(self, path: str) -> list[Seen]:
        return [r for r in self.requests if r.method == "GET" and r.path == path]


def _handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            seen = Seen("GET", self.path, {k.lower(): v for k, v in self.headers.items()})
            server.requests.append(seen)
            route = server.routes.get(self.path)
            if route is None:
                seen.status = 404
                self.send_error(404)
                return
            if route.delay:
                time.sleep(route.delay)
            if route.location:
                seen.status = route.status
                self.send_response(route.status)
                self.send_header("Location", route.location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if route.etag and seen.headers.get("if-none-match") == route.etag:
                seen.status = 304
                self.send_response(304)
                self.send_header("ETag", route.etag)
                self.end_headers()
                return
            seen.status = route.status
            self.send_response(route.status)
            self.send_header("Content-Type", route.content_type)
            if route.etag:
                self.send_header("ETag", route.etag)
            if route.last_modified:
                self.send_header("Last-Modified", route.last_modified)
            for name, value in server.headers.items():
                self.send_header(name, value)
            if isinstance(route.body, bytes):
                self.send_header("Content-Length", str(len(route.body)))
                self.end_headers()
                self.wfile.write(route.body)
                return
            self.end_headers()  # HTTP/1.0 without a length: the body ends when the socket closes
            try:
                for chunk in route.body():
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading at its limit

    return Handler


class Running:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.server = Server(host)
        self.httpd = ThreadingHTTPServer((host, 0), _handler(self.server))
        self.httpd.daemon_threads = True
        self.server.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def pattern(total: int, head: bytes, chunk: int = 1 << 20) -> Callable[[], Iterable[bytes]]:
    """A body of exactly ``total`` bytes: ``head`` then filler, generated chunk by chunk."""

    def body() -> Iterable[bytes]:
        yield head
        left = total - len(head)
        block = b"0" * chunk
        while left > 0:
            piece = block[: min(chunk, left)]
            yield piece
            left -= len(piece)

    return body
