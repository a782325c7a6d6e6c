"""``hexfire bench net --db postgresql://... --servers N``: games played through real websocket
clients against N server processes sharing one PostgreSQL store and one port (the kernel spreads
the connections: ``SO_REUSEPORT``), one of them killed with SIGKILL every ``kill_every`` seconds
and started again (issue 43).

Each game is the server's computer (level 1) against a client that plays random legal actions
at a player's pace (``think`` seconds, 0.5 to 1.5 times). Figures: the round trip of an action
p50 / p95; actions a second; the failover time (from a kill until every client it cut off is
connected again to a live process and has its view: the longest of a run); the clients a busier
process sent to another once both were up (game.server.follow's balance), and the longest until
such a client had its view again; the p95 of the round trips begun outside the 10 s after each
kill, beside the p95 of them all; the clients' reconnects and why their connections dropped
(each close's code and reason: :func:`game.net.client.dropped`); the lost actions
(each client's acknowledged actions checked, in order, against the store at the end); the games
stuck (at the end each game not over must take one more action within 15 s). The games are
kept in a schema of their own in the database, dropped at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import secrets
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from game.files.shipped import scenarios_dir
from game.net.client import Backoff, Client, Disconnected, Refusal, create_game, invitation
from game.net.wire import Welcome

from .bench import ServerProcess, _free_port, _missing, _own_cpu

GOALS = {
    "round_trip_p95_ms": "<= 25 with 500 games over 2 server processes",
    "failover_seconds": "<= 5",
    "lost_actions": "0",
    "games_stuck": "0",
}


@dataclass
class Seat:
    """One bench game's client and what it was told was stored."""

    game: str
    client: Client
    acked: list[dict] = field(default_factory=list)
    down_since: float | None = None
    moved: bool = False
    """Its connection dropped while every server process was up: sent to another by a busier
    one (game.server.follow's balance), not cut off by a kill."""
    reconnects: int = 0


@dataclass
class Run:
    round_trips: list[float] = field(default_factory=list)
    began: list[float] = field(default_factory=list)
    """When each round trip began (``time.perf_counter``), in the order of ``round_trips``."""
    actions: int = 0
    kills: list[float] = field(default_factory=list)
    failovers: list[float] = field(default_factory=list)
    restarts: list[float] = field(default_factory=list)
    """When each killed process was serving again."""
    moves: list[float] = field(default_factory=list)
    """A client sent away by a busy process: the seconds until it had its view again."""
    cpu: tuple[float, float] = (0.0, 0.0)
    """The servers' and the clients' CPU seconds over the timed run."""
    done: list[tuple[str, list[dict], int]] = field(default_factory=list)
    """Each game played through: its id, its acknowledged actions and its client's reconnects
    (not its client: kept, its views were more for this process's collector to walk)."""
    freeze: bool = False
    """Each new game's client frozen (:func:`_seat`): in ``hexfire bench net``'s process."""
    drops: Counter[str] = field(default_factory=Counter)
    """Why the finished games' clients' connections dropped (:attr:`Client.drops`)."""


def _due(c: Client) -> bool:
    view = c.view
    ready = c.status == "connected" and c.ready
    return c.end is not None or (ready and view is not None and view.acting == "russian")


async def _seat(ws: str, text: str, freeze: bool = False) -> Seat:
    """A new game against the server's computer, and its client connected; with ``freeze``,
    what lives then goes to the collector's permanent generation (``gc.freeze``, as a server
    does when it opens a game). Issue 43: this one process holds 500 clients, each its game's
    whole view, and its full collections walked them all: 5 or 6 a run, 35 to 430 ms each,
    growing with the views; every client stood still meanwhile, and their actions due went
    to the servers at once after it (the trips begun then: 10 to 16% of those over 25 ms).
    A client in a process of its own has no such pause."""
    created = await create_game(ws, "tutorial-duel.toml", text, "german", level=1)
    link = invitation(ws, created.game, created.tokens["russian"])
    c = Client(link, backoff=Backoff(first=0.05, most=0.5), timeout=60)
    await c.connect()
    if freeze:  # (a test's bench in the test's process leaves the collector alone)
        gc.freeze()
    return Seat(created.game, c)


async def _games(
    ws: str, text: str, seats: list[Seat], k: int, run: Run, think, stop, watch: Watch
) -> None:
    """Game after game in the ``k``-th place of ``seats`` (each game played through goes to
    ``run.done``) until ``stop``: ``games`` are at once all the time."""
    rng = random.Random(k)
    while not stop.is_set():
        seat = seats[k]
        watch.follow(seat)
        await _player(seat, run, rng, think, stop)
        if seat.client.end is None:
            return
        watch.leave(seat)
        await seat.client.close()
        run.done.append((seat.game, seat.acked, seat.client.reconnects))  # lost actions'
        run.drops.update(seat.client.drops)
        seats[k] = await _seat(ws, text, run.freeze)


async def _player(seat: Seat, run: Run, rng: random.Random, think: float, stop) -> None:
    c = seat.client
    while c.end is None and not stop.is_set():
        try:
            await c.until(lambda: _due(c) or stop.is_set(), 120)
        except (Disconnected, TimeoutError):
            continue
        if c.end is not None or stop.is_set():
            return
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        view = c.view
        if view is None or not _due(c) or c.end is not None:
            continue
        action = rng.choice(list(view.legal) or [{"type": "end_phase"}])
        t0 = time.perf_counter()
        try:
            await c.act(action, view.version)
        except (Refusal, Disconnected):
            continue
        run.round_trips.append(time.perf_counter() - t0)
        run.began.append(t0)
        run.actions += 1
        seat.acked.append(action)


class Watch:
    """The failover times: a client cut off by a kill, until it is connected and has its view
    again (the games in play). Each seat in play is looked at when its client tells of a
    change (its connection dropped or made again; a message while it is cut off), at once:
    polling every seat every 20 ms was a twentieth of the bench's own CPU."""

    def __init__(self, run: Run):
        self.run = run
        self.told: dict[int, Seat] = {}
        self.woken = asyncio.Event()

    def follow(self, seat: Seat) -> None:
        """Watch ``seat`` (in play now)."""
        seat.client.on_message = lambda message: self._told(seat, message)

    def leave(self, seat: Seat) -> None:
        """``seat``'s game is over: no longer in play."""
        seat.client.on_message = None
        self.told.pop(id(seat), None)

    def _told(self, seat: Seat, message: object) -> None:
        if message is None or isinstance(message, Welcome) or seat.down_since is not None:
            self.told[id(seat)] = seat
            self.woken.set()

    async def watch(self) -> None:
        while True:
            await self.woken.wait()
            self.woken.clear()
            now = time.perf_counter()
            told, self.told = self.told, {}
            for seat in told.values():
                self._look(seat, now)

    def _look(self, seat: Seat, now: float) -> None:
        run, c = self.run, seat.client
        cut = c.status != "connected" or c.reconnects > seat.reconnects
        if cut and seat.down_since is None and c.end is None:
            seat.moved = len(run.restarts) == len(run.kills)  # every process up: sent
            if seat.moved or run.kills:
                seat.down_since = now if seat.moved else run.kills[-1]
        if c.status == "connected" and c.ready and seat.down_since is not None:
            (run.moves if seat.moved else run.failovers).append(now - seat.down_since)
            seat.down_since = None
        seat.reconnects = c.reconnects


async def _kill(procs: list[ServerProcess], run: Run, every: float, stop) -> None:
    k = 0
    while True:
        await asyncio.sleep(every)
        if stop.is_set():
            return
        proc = procs[k % len(procs)]
        k += 1
        run.kills.append(time.perf_counter())
        await asyncio.to_thread(proc.kill)
        await asyncio.to_thread(proc.start)  # two processes again
        run.restarts.append(time.perf_counter())


async def _unstuck(seat: Seat) -> bool:
    """Whether a game not over takes one more action within 15 s (a refusal, say a view that
    changed meanwhile, is tried again)."""
    c = seat.client
    rng = random.Random(0)
    deadline = asyncio.get_running_loop().time() + 15
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        try:
            await c.until(lambda: _due(c), left)
            if c.end is not None:
                return True
            view = c.view
            assert view is not None
            action = rng.choice(list(view.legal) or [{"type": "end_phase"}])
            await c.act(action, view.version)
            seat.acked.append(action)
            return True
        except Refusal:
            await asyncio.sleep(0.05)
        except (Disconnected, TimeoutError):
            continue
    return False


def bench_shared(
    db: str,
    servers: int = 2,
    games: int = 500,
    seconds: float = 95.0,
    kill_every: float = 30.0,
    think: float = 1.0,
    sync: str = "full",
    freeze: bool = False,
) -> dict:
    """The figures (the module's docstring) of ``games`` games at once for ``seconds``, the
    servers run with ``--sync sync``; ``freeze``: each new client frozen (:func:`_seat`)."""
    import psycopg

    from .pgstore import PgStore

    schema = f"hexfire_bench_{secrets.token_hex(4)}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    url = db + ("&" if "?" in db else "?") + "options=" + quote(f"-c search_path={schema}")
    folder = Path(tempfile.mkdtemp(prefix="hexfire-bench-shared-"))
    port = _free_port()
    procs = [ServerProcess(folder, port, sync, db=url) for _ in range(servers)]
    text = (scenarios_dir() / "tutorial-duel.toml").read_text("utf-8")
    run, seats = Run(freeze=freeze), []
    lost = stuck = 0
    try:
        for proc in procs:
            proc.start()
        ws = f"ws://127.0.0.1:{port}"

        async def main() -> tuple[int, int]:
            stop = asyncio.Event()
            for _ in range(games):
                seats.append(await _seat(ws, text, freeze))
            start = time.perf_counter()
            cpu = _cpu(procs), _own_cpu()
            watch = Watch(run)
            tasks = [
                asyncio.ensure_future(_games(ws, text, seats, k, run, think, stop, watch))
                for k in range(games)
            ]
            helpers = [
                asyncio.ensure_future(watch.watch()),
                asyncio.ensure_future(_kill(procs, run, kill_every, stop)),
            ]
            await asyncio.sleep(seconds)
            run.cpu = (_cpu(procs) - cpu[0], _own_cpu() - cpu[1])
            stop.set()
            for task in tasks:  # an action in flight is not counted acknowledged
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            run.wall = time.perf_counter() - start  # type: ignore[attr-defined]
            for h in helpers:
                h.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            done = await asyncio.gather(*(_unstuck(s) for s in seats[:games]))
            for s in seats[:games]:
                await s.client.close()
            return sum(1 for ok in done if not ok), 0

        stuck, _ = asyncio.run(main())
        store = PgStore(url)
        try:
            for game, acked, _ in [(s.game, s.acked, 0) for s in seats] + run.done:
                stored = store.load(game)
                mine = [a.shown for a in stored.actions if a.by == "seat"] if stored else []
                lost += _missing(acked, mine)
        finally:
            store.close()
    finally:
        for proc in procs:
            proc.stop()
        shutil.rmtree(folder, ignore_errors=True)
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

    def pct(q: float, trips: list[float] = run.round_trips) -> float:
        trips = sorted(trips)
        return round(1000 * trips[min(len(trips) - 1, int(q * len(trips)))], 2) if trips else 0.0

    wall = getattr(run, "wall", seconds)

    def per_action(which: int) -> float:
        """CPU ms by acknowledged action: the servers' (user and system, every process, the
        killed ones' until their kill) or the bench's own clients'."""
        used = run.cpu[which]
        return round(1000 * used / run.actions, 2) if run.actions else 0.0

    return {
        "server_processes": servers,
        "concurrent_games": games,
        "think_seconds": think,
        "sync": sync,
        "seconds": round(wall, 1),
        "round_trip_p50_ms": pct(0.50),
        "round_trip_p95_ms": pct(0.95),
        "round_trip_p95_ms_beyond_failovers": pct(0.95, steady(run)),
        "actions_per_second": round(run.actions / wall, 1),
        "servers_cpu_ms_per_action": per_action(0),
        "clients_cpu_ms_per_action": per_action(1),
        "server_kills": len(run.kills),
        "failover_seconds": round(max(run.failovers), 2) if run.failovers else 0.0,
        "clients_cut_off": len(run.failovers),
        "clients_sent_away": len(run.moves),
        "sent_away_seconds": round(max(run.moves), 2) if run.moves else 0.0,
        "reconnects": sum(s.client.reconnects for s in seats) + sum(d[2] for d in run.done),
        "reconnect_causes": dict(sum((s.client.drops for s in seats), run.drops).most_common()),
        "lost_actions": lost,
        "games_stuck": stuck,
        "games_played_through": sum(1 for s in seats if s.client.end is not None) + len(run.done),
        "goals": GOALS,
    }


AFTER_KILL = 10.0
"""The seconds after a kill whose round trips ``round_trip_p95_ms_beyond_failovers`` leaves
out (the p95 of the others, beside the p95 of all: the failover's share of it)."""


def steady(run: Run) -> list[float]:
    """The round trips of ``run`` begun outside the :data:`AFTER_KILL` seconds after each
    kill."""
    return [
        trip
        for trip, t0 in zip(run.round_trips, run.began, strict=True)
        if not any(k <= t0 < k + AFTER_KILL for k in run.kills)
    ]


def _cpu(procs: list[ServerProcess]) -> float:
    """The CPU seconds of every server process so far, the killed ones' included."""
    total = 0.0
    for proc in procs:
        total += proc.spent
        with contextlib.suppress(OSError, AssertionError):  # between a kill and its restart
            total += proc.cpu()
    return total
