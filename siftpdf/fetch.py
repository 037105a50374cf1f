"""Download a URL for extraction (README, Fetch): streamed, size- and time-limited, address-checked.

Only ``http`` and ``https``. Every hop of a redirect chain is checked before it is requested,
and the connection itself is made to an address that was checked (the host is resolved once,
each resolved address vetted, and the socket opened to a vetted address), so a name that
resolves to a private address on the second look cannot slip through. Loopback, private,
link-local (cloud metadata lives at 169.254.169.254), shared, reserved and other non-global
addresses are refused unless ``allow_private``. Environment proxies are not used.

This module imports httpx; import it only when a download is needed.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx

from . import __version__
from .errors import FetchError, SiftError, TimedOutError, TooLargeError
from .sniff import PDF_TYPES, SNIFF_BYTES, Sniffed, sniff_bytes

MAX_PDF_BODY = 100_000_000
MAX_OTHER_BODY = 5_000_000
PDF_TIMEOUT = 120.0
OTHER_TIMEOUT = 30.0
MAX_REDIRECTS = 10
ACCEPT = ("text/html,application/xhtml+xml,application/pdf;q=0.8,application/json;q=0.7,"
          "text/plain;q=0.6,*/*;q=0.5")


class RefusedAddress(Exception):
    """Raised inside the connection layer; turned into a FetchError."""


@dataclass
class Fetched:
    url: str
    final_url: str
    status: int  # 200 (or another 2xx) with a body, or 304 not modified
    data: bytes | None
    content_type: str
    etag: str | None
    last_modified: str | None
    kind: Sniffed | None
    elapsed_ms: int


def blocked_reason(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why an address must not be fetched from, or None when it is a public one."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local (cloud metadata)" if str(ip).startswith("169.254.") else "link-local"
    if ip.is_private:
        return "private"
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return "reserved"
    if not ip.is_global:
        return "non-global"
    return None


def resolve(host: str, port: int) -> list[str]:
    """Every address the host resolves to (a literal address resolves to itself)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"cannot resolve host ({exc})") from None
    seen: list[str] = []
    for info in infos:
        address = str(info[4][0]).split("%", 1)[0]
        if address not in seen:
            seen.append(address)
    return seen


def vetted(host: str, port: int, allow_private: bool) -> list[str]:
    """The host's addresses, all of which must pass unless ``allow_private``."""
    addresses = resolve(host, port)
    if not allow_private:
        for address in addresses:
            reason = blocked_reason(ipaddress.ip_address(address))
            if reason:
                raise RefusedAddress(f"{address} is a {reason} address")
    return addresses


class _GuardedBackend(httpcore.SyncBackend):
    """Connects only to addresses that passed the check, resolved here and used as is."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        addresses = vetted(host, port, self.allow_private)
        error: Exception | None = None
        for address in addresses:
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except httpcore.ConnectError as exc:
                error = exc
        raise error or httpcore.ConnectError(f"no address for {host}")


def _client(allow_private: bool) -> httpx.Client:
    transport = httpx.HTTPTransport(trust_env=False)
    # httpx has no public hook for the connection layer; the pool's backend is the one seam.
    transport._pool._network_backend = _GuardedBackend(allow_private)
    return httpx.Client(transport=transport, trust_env=False, follow_redirects=False,
                        timeout=httpx.Timeout(30.0, connect=10.0),
                        headers={"Accept": ACCEPT, "User-Agent": f"siftpdf/{__version__}"})


def check_url(url: str, allow_private: bool, restricted: bool = False) -> None:
    """Scheme and address check of one hop, before anything is sent."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        raise FetchError(f"fetch refused: only http and https URLs ({parts.scheme or 'no'} scheme)")
    if not parts.hostname:
        raise FetchError("fetch refused: URL without a host")
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError:
        raise FetchError("fetch refused: bad port in URL") from None
    try:
        vetted(parts.hostname, port, allow_private)
    except RefusedAddress as exc:
        raise _refused(str(exc), parts.hostname, restricted) from None


def _refused(why: str, host: str | None, restricted: bool) -> FetchError:
    where = "" if restricted or not host else f"{host}: "
    return FetchError(f"fetch refused: {where}{why if not restricted else 'not a public address'}",
                      hint=None if restricted else "--allow-private lets siftpdf fetch from a trusted network")


def download(url: str, *, allow_private: bool = False, etag: str | None = None,
             last_modified: str | None = None, restricted: bool = False) -> Fetched:
    """GET ``url`` (conditionally, when ``etag``/``last_modified`` are given), following and
    re-checking redirects; the body is read under its limit while it streams."""
    started = time.monotonic()
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    try:
        with _client(allow_private) as client:
            request = client.build_request("GET", url, headers=headers)
            for _hop in range(MAX_REDIRECTS + 1):
                check_url(str(request.url), allow_private, restricted)
                response = client.send(request, stream=True)
                try:
                    if response.next_request is not None:
                        request = response.next_request
                        continue
                    return _read(url, response, started, restricted)
                finally:
                    response.close()
            raise FetchError(f"fetch failed: more than {MAX_REDIRECTS} redirects")
    except RefusedAddress as exc:
        raise _refused(str(exc), None, restricted) from None
    except SiftError:
        raise
    except httpx.TimeoutException:
        raise TimedOutError("fetch timed out") from None
    except httpx.InvalidURL as exc:
        raise FetchError(f"fetch failed: bad URL ({exc})") from None
    except httpx.HTTPError as exc:
        detail = "" if restricted else f" ({type(exc).__name__}: {exc})"
        raise FetchError(f"fetch failed{detail}") from None


def _read(url: str, response: httpx.Response, started: float, restricted: bool) -> Fetched:
    final = str(response.url)
    if response.status_code == 304:
        return Fetched(url, final, 304, None, "", response.headers.get("etag"),
                       response.headers.get("last-modified"), None, _ms(started))
    if response.status_code >= 400:
        raise FetchError(f"fetch failed: HTTP {response.status_code} {response.reason_phrase}".rstrip())
    content_type = response.headers.get("content-type", "")
    declared_pdf = content_type.split(";")[0].strip().lower() in PDF_TYPES
    limit = MAX_PDF_BODY if declared_pdf else None
    deadline = started + PDF_TIMEOUT
    _check_length(response, MAX_PDF_BODY)  # over the largest limit whatever the kind
    body = bytearray()
    kind: Sniffed | None = None
    for chunk in response.iter_raw() if _identity(response) else response.iter_bytes():
        body += chunk
        if kind is None and len(body) >= SNIFF_BYTES:
            kind = sniff_bytes(bytes(body[:SNIFF_BYTES]), content_type)
            limit, deadline = _limits(kind, started)
            _check_length(response, limit)
        if limit is not None and len(body) > limit:
            raise _too_large(limit)
        if time.monotonic() > deadline:
            raise TimedOutError(f"fetch timed out after {deadline - started:.0f} s")
    if kind is None:
        kind = sniff_bytes(bytes(body), content_type)
        limit, _ = _limits(kind, started)
        if len(body) > limit:
            raise _too_large(limit)
    return Fetched(url, final, response.status_code, bytes(body), content_type, response.headers.get("etag"),
                   response.headers.get("last-modified"), kind, _ms(started))


def _identity(response: httpx.Response) -> bool:
    """No content coding: the raw stream is the body (and cheaper to read)."""
    return response.headers.get("content-encoding", "identity").strip().lower() in ("", "identity")


def _limits(kind: Sniffed, started: float) -> tuple[int, float]:
    if kind.kind == "pdf":
        return MAX_PDF_BODY, started + PDF_TIMEOUT
    return MAX_OTHER_BODY, started + OTHER_TIMEOUT


def _check_length(response: httpx.Response, limit: int) -> None:
    """A declared length over the limit fails early; the stream is still counted either way."""
    try:
        declared = int(response.headers.get("content-length", ""))
    except ValueError:
        return
    if declared > limit:
        raise _too_large(limit)


def _too_large(limit: int) -> TooLargeError:
    return TooLargeError(f"too large (>{limit // 1_000_000} MB)")


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
