"""``hexfire bench net`` runs and reports every figure (a smoke test, never a timed one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_smoke_bench_net_reports_every_figure():
    out = subprocess.run(
        [sys.executable, "-m", "game", "bench", "net", "--games", "3", "--concurrent", "2"]
        + ["--kills", "1", "--think", "0", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=280,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    for key in (
        "load_average",
        "reference_disk_commit_p50_ms",
        "reference_disk_commit_p95_ms",
        "round_trip_p50_ms",
        "round_trip_p95_ms",
        "actions_per_second",
        "server_memory_per_game_kib",
        "games_played_through",
        "desyncs",
        "server_kills",
        "lost_actions",
    ):
        assert key in figures, key
    # the timed games' CPU by client action: the server's process and the clients' (issue 43)
    assert 0 < figures["server_cpu_ms_per_action"] < 1000
    assert 0 < figures["clients_cpu_ms_per_action"] < 1000
    assert figures["games_played_through"] == 3 and figures["server_kills"] == 1
    assert figures["desyncs"] == 0 and figures["lost_actions"] == 0


def test_bench_net_refuses_a_count_out_of_range():
    out = subprocess.run(
        [sys.executable, "-m", "game", "bench", "net", "--concurrent", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 2 and "--concurrent" in out.stderr and "Traceback" not in out.stderr


def _cmdline(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().decode().split("\0")


def test_bench_net_sync_reaches_the_server_process(tmp_path):
    """``bench net --sync normal`` runs its server with ``--sync normal`` (it was dropped: the
    server ran with its default, full, whatever the bench said)."""
    from game.server.bench import ServerProcess, _free_port

    server = ServerProcess(tmp_path / "data", _free_port(), "normal")
    server.start()
    try:
        assert server.proc is not None
        args = _cmdline(server.proc.pid)
        assert args[args.index("--sync") + 1] == "normal"
    finally:
        server.stop()


def test_bench_net_db_sync_reaches_postgresql(tmp_path):
    """With ``--db`` the bench's ``--sync`` reaches each server process and its store:
    normal is PostgreSQL's ``synchronous_commit = off``; full, on."""
    from store_helpers import pg_schema

    from game.server.bench import ServerProcess
    from game.server.pgstore import PgStore

    with pg_schema() as url:
        proc = ServerProcess(tmp_path, 1, "normal", db=url)
        args = proc.command()
        assert args[args.index("--sync") + 1] == "normal" and url in args
        for sync, setting in (("normal", "off"), ("full", "on")):
            store = PgStore(url, sync=sync)
            try:
                assert store._query("SHOW synchronous_commit", ())[0][0] == setting
            finally:
                store.close()


def test_bench_net_db_counts_the_cpu_of_the_killed_server_processes():
    """``bench net --db`` prints the servers' and its clients' CPU by action; a server process
    killed mid-run counts what it used until its kill (it was not counted at all)."""
    from store_helpers import pg_url

    from game.server.bench_shared import bench_shared

    figures = bench_shared(pg_url(), servers=2, games=6, seconds=7, kill_every=3, think=0.2)
    assert figures["server_kills"] >= 1 and figures["lost_actions"] == 0
    assert figures["servers_cpu_ms_per_action"] > 0 and figures["clients_cpu_ms_per_action"] > 0


def test_a_killed_bench_server_keeps_the_cpu_it_used(tmp_path):
    """A server process the bench kills counts the CPU it used until then (``spent``): the
    servers' CPU by action of ``bench net --db`` left it out."""
    from game.server.bench import ServerProcess, _free_port

    server = ServerProcess(tmp_path / "data", _free_port(), "normal")
    server.start()
    try:
        used = server.cpu()
        server.kill()
        assert server.spent >= used > 0
    finally:
        server.stop()


def test_the_shared_bench_times_a_failover_as_its_client_tells_of_it():
    """``bench net --db``'s failover time runs from the kill until the client cut off is
    connected again with its view, each seat looked at when its client tells of a change
    (it polled every seat every 20 ms: a twentieth of the bench's CPU); a seat whose game is
    over is no longer watched."""
    import asyncio
    import time

    from game.server.bench_shared import Run, Seat, Watch

    class Told:
        status, ready, reconnects, end = "connected", True, 0, None
        on_message = None

    async def main() -> tuple[Run, Seat, Seat]:
        run = Run()
        watch = Watch(run)
        cut, over = Told(), Told()
        seat, done = Seat("a" * 16, cut), Seat("b" * 16, over)  # type: ignore[arg-type]
        watch.follow(seat)
        watch.follow(done)
        task = asyncio.ensure_future(watch.watch())
        await asyncio.sleep(0.05)
        assert seat.down_since is None and not run.failovers  # nothing told: nothing seen
        run.kills.append(time.perf_counter())
        watch.leave(done)
        assert done.client.on_message is None
        cut.status = "reconnecting"
        cut.on_message(None)
        await asyncio.sleep(0.01)
        assert seat.down_since == run.kills[-1]
        run.restarts.append(time.perf_counter())
        await asyncio.sleep(0.1)
        cut.status, cut.reconnects = "connected", 1
        cut.on_message(object())  # its welcome
        await asyncio.sleep(0.01)
        task.cancel()
        return run, seat, done

    run, seat, done = asyncio.run(main())
    assert len(run.failovers) == 1 and 0.1 <= run.failovers[0] < 2
    assert seat.down_since is None and seat.reconnects == 1 and not run.moves


def test_the_shared_bench_lets_a_finished_games_client_go(monkeypatch):
    """Issue 43: ``bench net --db`` kept every finished game's client (its last view and all)
    for the check of lost actions, so its own full garbage collections grew to 35-430 ms by
    the end of a run (the clients' actions due meanwhile then reached the servers at once).
    It keeps the game's id, its acknowledged actions and its client's reconnects."""
    import asyncio
    import gc
    import weakref
    from collections import Counter

    from game.server import bench_shared
    from game.server.bench_shared import Run, Seat, Watch

    made: list[weakref.ref] = []

    class Over:
        status, ready, reconnects, end = "connected", True, 1, "over"
        drops = Counter({"1012 try again": 1})
        on_message = None

        async def close(self) -> None:
            pass

    async def new_seat(ws: str, text: str, freeze: bool = False) -> Seat:
        client = Over()
        made.append(weakref.ref(client))
        return Seat(f"game-{len(made)}", client)  # type: ignore[arg-type]

    async def play(seat: Seat, run: Run, rng, think, stop) -> None:
        seat.acked.append({"type": "end_phase"})
        if len(made) == 3:
            stop.set()

    monkeypatch.setattr(bench_shared, "_seat", new_seat)
    monkeypatch.setattr(bench_shared, "_player", play)

    async def main() -> tuple[Run, list[Seat]]:
        run, stop = Run(), asyncio.Event()
        seats = [await new_seat("", "")]
        await bench_shared._games("", "", seats, 0, run, 0.0, stop, Watch(run))
        return run, seats

    run, seats = asyncio.run(main())
    gc.collect()
    assert run.done == [(f"game-{i}", [{"type": "end_phase"}], 1) for i in (1, 2, 3)]
    assert run.drops == {"1012 try again": 3}  # why they reconnected, kept with the count
    assert len(seats) == 1 and [ref() is None for ref in made] == [True, True, True, False]


def test_the_shared_bench_freezes_each_new_client_when_told(monkeypatch):
    """Issue 43: the bench's one process of 500 clients paused 35-430 ms in each full pass of
    its garbage collector (5 or 6 a run, every client standing still); ``hexfire bench net
    --db`` freezes what lives after each new game's client is connected (a bench run in a
    test's process, untold, leaves the collector alone)."""
    import asyncio

    from game.server import bench_shared

    frozen: list[int] = []
    monkeypatch.setattr(bench_shared.gc, "freeze", lambda: frozen.append(1))

    async def created(*_: object, **__: object) -> object:
        class Made:
            game, tokens = "g" * 16, {"russian": "t"}

        return Made()

    async def connect(self) -> None:
        return None

    monkeypatch.setattr(bench_shared, "create_game", created)
    monkeypatch.setattr(bench_shared.Client, "connect", connect)
    asyncio.run(bench_shared._seat("ws://127.0.0.1:1", ""))
    assert frozen == []
    asyncio.run(bench_shared._seat("ws://127.0.0.1:1", "", freeze=True))
    assert frozen == [1]
    told: list[dict] = []

    def bench(*args: object, **options: object) -> dict:
        told.append(options)
        return {"round_trip_p95_ms": 1.0}

    monkeypatch.setattr(bench_shared, "bench_shared", bench)
    from game.cli import main

    assert main(["bench", "net", "--db", "postgresql://h/d", "--servers", "2", "--json"]) == 0
    assert told == [{"freeze": True}]
