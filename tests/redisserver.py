"""A real ``redis-server`` for the shared-cache tests: on a free port of 127.0.0.1, without
persistence (nothing written to disk, so a restart starts empty), stopped at teardown. It can
be killed (SIGKILL, as a crash) and started again on the same port."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    def __init__(self, folder: Path, password: str | None = None, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server; .ci/run does)")
        self.binary, self.folder, self.password = binary, folder, password
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, password=self.password, socket_timeout=5)

    def start(self) -> None:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", str(self.folder), "--daemonize", "no"]
        if self.password:
            argv += ["--requirepass", self.password]
        log = open(self.folder / f"redis-{self.port}.log", "ab")
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        end = time.monotonic() + START_TIMEOUT
        while True:
            try:
                if self.client().ping():
                    return
            except redis.RedisError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: the server is gone at once, with everything it held."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
