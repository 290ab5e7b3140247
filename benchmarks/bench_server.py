"""The web server under load: concurrent online games between scripted clients on loopback.

Starts ``lifearena serve`` in its own process on a free port with a fresh database, creates
``--games`` online War of Life games (random starts) over HTTP, opens one WebSocket per seat
(two per game) and plays every game at once: on its turn a seat sends a random legal move
and waits for the server's push that shows it played. A move's latency is that WebSocket
round trip. Each game stops at its end or after ``--moves`` moves; the whole run after
``--seconds``. No agent is involved. Prints moves per second, p50/p99/max latency, errors,
and the server's resident memory (from ``/proc``) after the run. The clock starts once the
server prints its URL (after its warm-up).

    .venv/bin/python benchmarks/bench_server.py --games 200 --moves 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import select
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux ``/proc``; NaN elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def receive_until(ws: Any, number: int, errors: list[str]) -> dict:
    """The first state message showing ``number`` moves played (or the game over)."""
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "error":
            errors.append(message["error"])
            raise RuntimeError(message["error"])
        if message.get("type") == "state" and (message["move_number"] >= number
                                               or message["outcome"]):
            return message


async def play(ws_base: str, created: dict, rng: random.Random, max_moves: int,
               deadline: float, latencies: list[float], errors: list[str]) -> int:
    """Play one game between two scripted seats; return the moves made."""
    tokens = [created["links"][f"seat{s}"].split("#t=")[1] for s in (0, 1)]
    url = f"{ws_base}/ws/{created['id']}?token="
    async with websockets.connect(url + tokens[0]) as ws0, \
            websockets.connect(url + tokens[1]) as ws1:
        sockets = (ws0, ws1)
        states = [json.loads(await ws0.recv()), json.loads(await ws1.recv())]
        made = 0
        while made < max_moves and not states[0]["outcome"] and time.monotonic() < deadline:
            seat = states[0]["awaiting"][0]
            legal = states[seat]["legal"][str(seat)]["moves"]
            move = rng.choice(legal)["move"]
            number = states[seat]["move_number"] + 1
            started = time.perf_counter()
            await sockets[seat].send(json.dumps({"type": "move", "move": move}))
            mine = await receive_until(sockets[seat], number, errors)
            latencies.append(time.perf_counter() - started)
            other = await receive_until(sockets[1 - seat], number, errors)
            states = [mine, other] if seat == 0 else [other, mine]
            made += 1
        return made


async def run(args: argparse.Namespace, port: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        created = []
        for index in range(args.games):
            response = await client.post("/api/games", json={
                "game": "war_of_life", "opponent": "online",
                "params": {"start": "random", "seed": index}})
            response.raise_for_status()
            created.append(response.json())
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + args.seconds
    started = time.perf_counter()
    results = await asyncio.gather(*(
        play(f"ws://127.0.0.1:{port}", game, random.Random(index), args.moves, deadline,
             latencies, errors)
        for index, game in enumerate(created)), return_exceptions=True)
    elapsed = time.perf_counter() - started
    failures = [r for r in results if isinstance(r, BaseException)]
    errors += [repr(f) for f in failures if not isinstance(f, RuntimeError)]
    return {"latencies": sorted(latencies), "errors": errors, "elapsed": elapsed,
            "moves": sum(r for r in results if isinstance(r, int))}


def wait_ready(server: subprocess.Popen[str], seconds: float = 600) -> None:
    """Return once ``lifearena serve`` prints its URL, which it does when it answers (after
    its warm-up: minutes when numba's cache is cold); exit naming what went wrong else."""
    assert server.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if select.select([server.stdout], [], [], 1.0)[0]:
            line = server.stdout.readline()
            if not line:
                sys.exit(f"lifearena serve exited with status {server.wait()} before it was "
                         "ready")
            if line.startswith("lifearena web:"):
                return
    sys.exit(f"lifearena serve was not ready after {seconds:.0f} s")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (1..1000)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game at most")
    parser.add_argument("--seconds", type=float, default=120, help="bound of the whole run")
    args = parser.parse_args()
    if not 1 <= args.games <= 1000 or not 1 <= args.moves <= 250 or args.seconds <= 0:
        parser.error("--games 1..1000, --moves 1..250, --seconds > 0")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "lifearena", "serve", "--port", str(port), "--db",
             os.path.join(folder, "bench.sqlite"), "--creates-per-minute", "100000"],
            stdout=subprocess.PIPE, text=True)
        try:
            wait_ready(server)
            result = asyncio.run(run(args, port))
            rss_after = rss_mib(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=20)
    lat = result["latencies"]
    moves = result["moves"]
    print(f"games {args.games} concurrent, {moves} moves in {result['elapsed']:.1f} s: "
          f"{moves / result['elapsed']:.0f} moves/s")
    print(f"move latency (WebSocket round trip): p50 {1000 * percentile(lat, 0.5):.1f} ms, "
          f"p99 {1000 * percentile(lat, 0.99):.1f} ms, max {1000 * (lat[-1] if lat else 0):.1f} ms")
    print(f"errors {len(result['errors'])}" + (f": {result['errors'][:3]}" if result["errors"]
                                                else ""))
    print(f"server memory (RSS) {rss_after:.0f} MiB")


if __name__ == "__main__":
    main()
