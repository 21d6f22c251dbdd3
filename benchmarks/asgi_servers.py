"""Compare uvicorn and daphne serving this site (embedded mode, one process each).

Run: ``.venv/bin/python benchmarks/asgi_servers.py`` (after ``make install``). Prints a table:
HTTP requests per second on the home page (16 client threads, keep-alive off), and WebSocket
ping/pong round trips per second over 50 open sockets, with p50/p99 latency.
"""

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
HTTP_REQUESTS = 1500
WS_SOCKETS = 50
WS_ROUNDS = 40


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(name: str, port: int) -> list[str]:
    if name == "uvicorn":
        return [sys.executable, "-m", "uvicorn", "ttr_site.asgi:application", "--port", str(port),
                "--no-access-log", "--log-level", "warning"]  # fmt: skip
    return [sys.executable, "-m", "daphne", "-p", str(port), "-v", "0", "ttr_site.asgi:application"]


def wait_up(url: str) -> None:
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def http_bench(url: str) -> tuple[float, list[float]]:
    def fetch(_):
        start = time.perf_counter()
        urllib.request.urlopen(url, timeout=10).read()
        return time.perf_counter() - start

    start = time.perf_counter()
    with ThreadPoolExecutor(16) as pool:
        latencies = list(pool.map(fetch, range(HTTP_REQUESTS)))
    return HTTP_REQUESTS / (time.perf_counter() - start), latencies


async def ws_bench(url: str) -> tuple[float, list[float]]:
    latencies: list[float] = []

    async def client():
        async with websockets.connect(url, origin="http://127.0.0.1") as ws:
            for _ in range(WS_ROUNDS):
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "ping"}))
                await ws.recv()
                latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(WS_SOCKETS)))
    return WS_SOCKETS * WS_ROUNDS / (time.perf_counter() - start), latencies


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] * 1000


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DEBUG": "true", "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"}
        env.pop("REDIS_URL", None)
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                       check=True)  # fmt: skip
        for name in ("uvicorn", "daphne"):
            port = free_port()
            server = subprocess.Popen(server_command(name, port), cwd=ROOT, env=env)
            try:
                wait_up(f"http://127.0.0.1:{port}/")
                http_rps, http_lat = http_bench(f"http://127.0.0.1:{port}/")
                ws_rps, ws_lat = asyncio.run(ws_bench(f"ws://127.0.0.1:{port}/ws/lobby/"))
            finally:
                server.terminate()
                server.wait()
            rows.append((name, http_rps, pct(http_lat, 50), pct(http_lat, 99),
                         ws_rps, pct(ws_lat, 50), pct(ws_lat, 99)))  # fmt: skip
    print(f"{'server':8} | {'HTTP req/s':>10} | {'p50 ms':>7} | {'p99 ms':>7} | "
          f"{'WS msg/s':>9} | {'p50 ms':>7} | {'p99 ms':>7}")  # fmt: skip
    print("-" * 76)
    for row in rows:
        print("{:8} | {:10.0f} | {:7.1f} | {:7.1f} | {:9.0f} | {:7.1f} | {:7.1f}".format(*row))


if __name__ == "__main__":
    main()
