"""The faults the drills inject: a Redis server of the test's own that can be killed and
restarted, and a TCP proxy in front of PostgreSQL that can be cut and restored.

Neither touches the shared services: the Redis listens on a free port with no persistence
(a restart loses everything, like a crash), and the proxy only forwards to PostgreSQL.
"""

import asyncio
import contextlib
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from tests.live import free_port


class RedisServer:
    """``redis-server`` on a free port; ``kill()`` and ``start()`` again keep the port."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> "RedisServer":
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.workdir),
                "--logfile", str(self.workdir / "redis.log")]  # fmt: skip
        self.process = subprocess.Popen(args, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.ping():
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not come up")

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None


class TcpProxy:
    """Forwards a local port to ``target`` from an asyncio loop in a thread of its own.

    ``cut()`` resets every open connection and stops listening (new connections are
    refused), as when the database host goes away; ``restore()`` listens again on the
    same port.
    """

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self) -> "TcpProxy":
        self._thread.start()
        self._call(self._listen())
        return self

    def cut(self) -> None:
        self._call(self._cut())

    def restore(self) -> None:
        self._call(self._listen())

    def stop(self) -> None:
        self._call(self._cut())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()  # a reset, not a polite close
        self._writers.clear()

    async def _serve(self, reader, writer) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, upstream_writer}
        await asyncio.gather(
            self._pipe(reader, upstream_writer), self._pipe(upstream_reader, writer)
        )

    async def _pipe(self, reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            with contextlib.suppress(OSError, RuntimeError):
                writer.close()
