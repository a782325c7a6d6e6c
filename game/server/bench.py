"""``hexfire bench net``: games played through real websocket clients on the loopback against one
server process (``hexfire serve`` in a process of its own), each the server's computer (level
1) against a client that plays random legal actions from its view.

Figures: the round trip of an action (sent -> its answer) p50 and p95 with ``concurrent`` games
at once; actions a second (both sides', the server's whole throughput); the server's memory per
game (its resident size with those games open, less its size before any, by game); desyncs
(after every action the client's view, hashed, is compared with the server's view of that seat,
asked for its SHA-256); ``games`` games played through (``concurrent`` at a time; the actions a
second are the clients' acknowledged actions in the first ``concurrent`` games, which are
timed); and ``kills`` times the server killed
with SIGKILL mid-game and started again, every acknowledged action checked to be there
(lost actions)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from game.files.shipped import scenarios_dir
from game.net.client import Backoff, Client, Disconnected, Refusal, create_game, invitation

GOALS = {
    "round_trip_p95_ms": "<= 10 with 100 games at once",
    "desyncs": "0 in 1,000 games",
    "lost_actions": "0 across 20 server kills",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``hexfire serve`` in a process of its own, on a fixed port and data folder."""

    def __init__(self, data: Path, port: int, sync: str = "full", db: str | None = None):
        self.data, self.port, self.sync, self.db = data, port, sync, db
        self.proc: subprocess.Popen | None = None
        self.spent = 0.0
        """The CPU seconds of this server's processes killed so far."""

    def command(self) -> list[str]:
        """The server's command line (its store, its port, its ``--sync``)."""
        return [
            sys.executable,
            "-m",
            "game",
            "serve",
            "--port",
            str(self.port),
            *(["--db", self.db] if self.db else ["--data", str(self.data)]),
            "--sync",
            self.sync,
        ]

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command(),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "hexfire serve: ws://" not in line:
            self.stop()
            raise RuntimeError(f"the server did not start: {line.strip()!r}")

    def rss(self) -> int:
        """The server's resident memory, in bytes."""
        assert self.proc is not None
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def cpu(self) -> float:
        """The server's CPU time so far (user and system, all its threads), in seconds."""
        assert self.proc is not None
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        assert self.proc is not None
        self.spent += self.cpu()  # what it used before it died still counts (bench net --db)
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    actions: int = 0
    desyncs: int = 0
    games: int = 0
    lost: int = 0
    kills: int = 0


def _digest(client: Client) -> str:
    assert client.view is not None
    return hashlib.sha256(client.view.to_json().encode("utf-8")).hexdigest()


async def _play(
    url: str,
    text: str,
    side: str,
    seed: int,
    tally: Tally,
    measure: bool,
    stop: asyncio.Event,
    think: float = 0.0,
) -> Client:
    """One game: the server's computer plays the other side; this client its own from its
    view, checking after each action that its view is the server's."""
    created = await create_game(url, "tutorial-duel.toml", text, computer="german", level=1)
    client = Client(
        invitation(url, created.game, created.tokens[side]),
        backoff=Backoff(first=0.05, most=0.5),
        timeout=60,
    )
    await client.connect()
    rng = random.Random(seed)

    def due() -> bool:
        view = client.view
        ready = client.status == "connected" and client.ready
        return client.end is not None or (ready and view is not None and view.acting == side)

    while client.end is None and not stop.is_set():
        try:
            await client.until(due, 120)
        except Disconnected:
            continue
        if client.end is not None:
            break
        if think:  # a player's pace: a moment to choose (0.5 to 1.5 times ``think``)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        view = client.view
        assert view is not None
        action = rng.choice(list(view.legal) or [{"type": "end_phase"}])
        t0 = time.perf_counter()
        try:
            await client.act(action, view.version)
        except (Refusal, Disconnected):
            continue
        if measure:
            tally.round_trips.append(time.perf_counter() - t0)
        tally.actions += 1
        try:
            await client.until(lambda: client.ready, 60)
            if await client.ask("digest") != _digest(client):
                tally.desyncs += 1
        except Disconnected:
            continue
    tally.games += client.end is not None
    await client.close()
    return client


async def _phase(
    url: str, text: str, n: int, start: int, tally: Tally, measure: bool, think: float = 0.0
) -> None:
    stop = asyncio.Event()
    await asyncio.gather(
        *(_play(url, text, "russian", start + i, tally, measure, stop, think) for i in range(n))
    )


async def _kills(server: ServerProcess, url: str, text: str, kills: int, tally: Tally) -> None:
    """Games played while the server is killed ``kills`` times: after each restart every
    client's acknowledged actions must be in its side's record (a game that ended is replaced
    by a new one)."""
    rng = random.Random(kills)

    async def new_client() -> tuple[Client, list[dict]]:
        created = await create_game(url, "tutorial-duel.toml", text, computer="german", level=1)
        c = Client(
            invitation(url, created.game, created.tokens["russian"]),
            backoff=Backoff(first=0.05, most=0.3),
            timeout=30,
        )
        await c.connect()
        return c, []

    async def player(c: Client, acked: list[dict], stop: asyncio.Event) -> None:
        def due() -> bool:
            view = c.view
            return (
                stop.is_set()
                or c.end is not None
                or (
                    c.status == "connected"
                    and c.ready
                    and view is not None
                    and view.acting == "russian"
                )
            )

        while c.end is None and not stop.is_set():
            try:
                await c.until(due, 60)
            except (Disconnected, TimeoutError):
                continue
            view = c.view
            if stop.is_set() or c.end is not None or view is None:
                return
            action = rng.choice(list(view.legal) or [{"type": "end_phase"}])
            try:
                await c.act(action, view.version)
            except (Refusal, Disconnected):
                continue
            acked.append(action)

    clients = [await new_client() for _ in range(4)]
    for _ in range(kills):
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(player(c, acked, stop)) for c, acked in clients]
        await asyncio.sleep(rng.uniform(0.05, 0.3))
        await asyncio.to_thread(server.kill)
        tally.kills += 1
        stop.set()
        for task in tasks:  # the players stop: what each had acknowledged is checked below
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(server.start)
        for k, (c, acked) in enumerate(clients):
            with contextlib.suppress(TimeoutError):
                await c.until(partial(_back, c), 30)
            record = (await c.record()).record
            if record.get("format") == "hexfire-side-record":  # its own actions, exactly
                mine = [a["action"] for a in record["actions"] if a["by"] == "seat"]
                tally.lost += sum(1 for a, b in zip(acked, mine, strict=False) if a != b)
                tally.lost += max(0, len(acked) - len(mine))
            else:  # over: its whole save (this side's actions among them, in order)
                mine = _side_actions(record, "russian")
                tally.lost += _missing(acked, mine)
            acked[:] = mine
            if c.end is not None:
                await c.close()
                clients[k] = await new_client()
    for c, _ in clients:
        await c.close()


def _missing(acked: list[dict], stored: list[dict]) -> int:
    """How many of the acknowledged actions are not among the stored ones, in order (the
    stored may hold more: the one in flight when the server died, a phase the server passed
    for the seat)."""
    it = iter(stored)
    return sum(1 for a in acked if not any(a == b for b in it))


def _back(c: Client) -> bool:
    return c.status == "connected" and c.ready


def _side_actions(save: dict, side: str) -> list[dict]:
    """``side``'s actions in a whole save, in order (replayed to know who acted)."""
    from game.engine import Game
    from game.engine.actions import action_from_json
    from game.files.scenario import parse_scenario

    game = Game(parse_scenario(save["scenario"]["text"], "save").setup, save["seed"])
    out = []
    for entry in save["actions"]:
        if game.to_act == side:
            out.append(entry["action"])
        game.apply(action_from_json(entry["action"]))
    return out


def disk_commits(folder: Path, n: int = 200) -> tuple[float, float]:
    """The reference measured in the same run: p50 and p95 (ms) of ``n`` commits of one small
    row to a SQLite file in ``folder`` as the server's store makes them (WAL, synchronous
    FULL: each synced to the disk). A round trip holds one such commit, so its p95 cannot be
    below theirs on this disk at this moment."""
    import sqlite3

    db = sqlite3.connect(str(folder / "reference.sqlite"), isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (i INTEGER, text TEXT)")
        times = []
        for i in range(n):
            t0 = time.perf_counter()
            db.execute("BEGIN")
            db.execute("INSERT INTO t VALUES (?, ?)", (i, "x" * 600))
            db.execute("COMMIT")
            times.append(time.perf_counter() - t0)
    finally:
        db.close()
    times.sort()
    return round(1000 * times[n // 2], 2), round(1000 * times[int(0.95 * n)], 2)


def bench_net(
    games: int = 1000,
    concurrent: int = 100,
    kills: int = 20,
    think: float = 1.0,
    sync: str = "full",
) -> dict:
    """The figures (see the module's docstring): the first ``concurrent`` games timed with
    each client taking ``think`` seconds (0.5 to 1.5 times) to choose each action, a player's
    pace; the rest played through as fast as the clients can (the server's most actions a
    second); then the kills."""
    text = (scenarios_dir() / "tutorial-duel.toml").read_text("utf-8")
    folder = Path(tempfile.mkdtemp(prefix="hexfire-bench-net-"))
    server = ServerProcess(folder, _free_port(), sync)
    server.start()
    url = f"ws://127.0.0.1:{server.port}"
    first = min(concurrent, games)
    mem: list[int] = []
    paced, fast = Tally(), Tally()
    walls: dict[str, float] = {}
    load = os.getloadavg()[0]
    disk = disk_commits(folder)
    try:
        base = server.rss()

        async def run_all() -> None:
            sampler = asyncio.ensure_future(_sample(server, mem))
            start = time.perf_counter()
            cpu = server.cpu(), _own_cpu()
            await _phase(url, text, first, 0, paced, True, think)
            walls["paced"] = time.perf_counter() - start
            walls["server_cpu"] = server.cpu() - cpu[0]
            walls["clients_cpu"] = _own_cpu() - cpu[1]
            sampler.cancel()
            start = time.perf_counter()
            done = first
            while done < games:  # the rest played through, as many at once, at full speed
                n = min(concurrent, games - done)
                await _phase(url, text, n, done, fast, True)
                done += n
            walls["fast"] = time.perf_counter() - start
            if kills:
                await _kills(server, url, text, kills, fast)

        asyncio.run(run_all())
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    def pct(trips: list[float], q: float) -> float:
        trips = sorted(trips)
        return round(1000 * trips[min(len(trips) - 1, int(q * len(trips)))], 2) if trips else 0.0

    def per_action(key: str) -> float:  # the timed games' CPU by client action, in ms
        return round(1000 * walls[key] / paced.actions, 2) if paced.actions else 0.0

    return {
        "concurrent_games": first,
        "think_seconds": think,
        "sync": sync,
        "load_average": round(load, 2),
        "reference_disk_commit_p50_ms": disk[0],
        "reference_disk_commit_p95_ms": disk[1],
        "round_trip_p50_ms": pct(paced.round_trips, 0.50),
        "round_trip_p95_ms": pct(paced.round_trips, 0.95),
        "actions_per_second": round(paced.actions / walls["paced"], 1),
        "server_cpu_ms_per_action": per_action("server_cpu"),
        "clients_cpu_ms_per_action": per_action("clients_cpu"),
        "flat_out_round_trip_p50_ms": pct(fast.round_trips, 0.50),
        "flat_out_actions_per_second": round(fast.actions / walls["fast"], 1)
        if fast.actions
        else 0.0,
        "server_memory_per_game_kib": round((max(mem or [base]) - base) / first / 1024, 1),
        "games_played_through": paced.games + fast.games,
        "desyncs": paced.desyncs + fast.desyncs,
        "server_kills": fast.kills,
        "lost_actions": fast.lost,
        "goals": GOALS,
    }


def _own_cpu() -> float:
    """This process's CPU time so far (the clients': user and system), in seconds."""
    t = os.times()
    return t.user + t.system


async def _sample(server: ServerProcess, out: list[int]) -> None:
    while True:
        out.append(server.rss())
        await asyncio.sleep(0.2)
