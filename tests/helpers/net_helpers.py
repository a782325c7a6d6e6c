"""Shared helpers of the server's tests: a server on the loopback in this process, scripted
seats that play from their views, and raw sockets for hostile frames."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from game.files.shipped import scenarios_dir
from game.net.client import Client, Refusal, create_game, invitation
from game.net.wire import Created
from game.server.server import Limits, Server, listen
from game.server.store import SqliteStore

LOOPBACK = "127.0.0.1"
BOUND = 120.0
"""No test waits on the network longer than this (seconds)."""


@contextlib.asynccontextmanager
async def serving(
    folder: Path, store: Any = None, **options: Any
) -> AsyncIterator[tuple[Server, str]]:
    """A server on the loopback with its store in ``folder`` (or ``store``, left open): (the
    server, its URL)."""
    own = store is None
    if store is None:
        store = SqliteStore(folder / "games.sqlite")
    server = Server(store, **options)
    try:
        async with listen(server, LOOPBACK, 0) as ws:
            port = next(iter(ws.sockets)).getsockname()[1]
            try:
                yield server, f"ws://{LOOPBACK}:{port}"
            finally:
                await server.close()
    finally:
        if own:
            store.close()


def scenario_text(name: str) -> str:
    return (scenarios_dir() / f"{name}.toml").read_text("utf-8")


async def new_game(url: str, name: str, computer: str | None = None, level: int = 1) -> Created:
    return await create_game(url, f"{name}.toml", scenario_text(name), computer, level)


async def seat(url: str, created: Created, side: str, **options: Any) -> Client:
    """A connected client of ``side``'s seat."""
    client = Client(invitation(url, created.game, created.tokens[side]), **options)
    await client.connect()
    return client


def pick(rng: random.Random, legal: list[dict]) -> dict:
    """A random action of ``legal`` (JSON forms), the phase's end less often (games reach
    fire and moves), as tests/test_seats.py's twins pick."""
    others = [a for a in legal if a.get("type") != "end_phase"]
    if others and rng.random() < 0.8:
        return rng.choice(others)
    ends = [a for a in legal if a.get("type") == "end_phase"]
    return rng.choice(ends or legal)


def my_turn(client: Client) -> bool:
    view = client.view
    return client.end is not None or (
        client.ready and view is not None and view.acting == view.side and not view.over
    )


async def play(client: Client, seed: int, probe: bool = False, limit: int = 5000) -> int:
    """Play ``client``'s side to the end from its view alone (seeded: the same bytes received,
    the same actions sent); ``probe``: before each action also send one it may not take (a
    shot at an enemy it may not fire at, a stale version) and now and then asks for its
    side's record: the refusals and the records are part of what it receives. Returns the
    actions it took."""
    rng = random.Random(seed)
    taken = 0
    while taken < limit:
        await client.until(lambda: my_turn(client), BOUND)
        if client.end is not None:
            return taken
        view = client.view
        assert view is not None
        if probe:
            await _probe(client, rng)
            if taken % 8 == 0:  # its own record, mid-game: part of what it receives
                record = await client.record()
                assert record.kind == "side" and "seed" not in record.record
        action = pick(rng, list(view.legal) or [{"type": "end_phase"}])
        try:
            await client.act(action, view.version)
        except Refusal as e:  # an action of its legal list is never refused
            raise AssertionError(f"{action} refused: {e.code}: {e.reason}") from None
        taken += 1
    raise AssertionError(f"no end after {limit} actions")


async def _probe(client: Client, rng: random.Random) -> None:
    view = client.view
    assert view is not None
    own = [u for u in view.units if u.side == view.side and u.has_gun]
    enemies = [u.id for u in view.units if u.side != view.side]
    if own and enemies:
        firer = rng.choice(own)
        target = rng.choice(enemies)
        legal = {(a.get("unit"), a.get("target")) for a in view.legal if a["type"] == "fire"}
        if (firer.id, target) not in legal:  # a shot it may not take: refused, and why
            try:
                await client.act({"type": "fire", "unit": firer.id, "target": target}, view.version)
            except Refusal:
                pass
            else:
                raise AssertionError(f"{firer.id} at {target}: not listed, yet taken")
    with contextlib.suppress(Refusal):
        await client.act({"type": "end_phase"}, view.version + 1000)


async def raw(url: str, *frames: str | bytes, replies: int = 1, timeout: float = 10) -> list:
    """Send ``frames`` on a connection of its own and read up to ``replies`` messages (a
    close ends the list early: its code and reason are the last item)."""
    out: list = []
    async with connect(url, max_size=None, compression=None) as ws:
        for f in frames:
            await ws.send(f)
        try:
            async with asyncio.timeout(timeout):
                while len(out) < replies:
                    out.append(json.loads(await ws.recv()))
        except Exception as e:  # closed: keep why
            rcvd = getattr(e, "rcvd", None)
            out.append(("closed", rcvd.code if rcvd else None))
    return out


class Seeded:
    """The server's randomness from a seed: the same game each run."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def token(self) -> str:
        return "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(40))

    def game_id(self) -> str:
        return f"{self.rng.getrandbits(64):016x}"

    def seed(self) -> int:
        return self.rng.getrandbits(63)

    def salt(self) -> str:
        return f"{self.rng.getrandbits(128):032x}"


FAST = Limits(hello_seconds=2.0, rate=200.0, burst=400, drop_after=2000)
"""Limits that let the tests' scripted clients run at full speed."""


class ServerThread:
    """A server on the loopback in a thread of its own (its own event loop), for a test whose
    own thread is the window's: ``url``, ``server``; :meth:`create` makes a game there."""

    def __init__(self, folder: Path, **options: Any):
        import threading

        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future | None = None
        self.server: Server | None = None
        self.url = ""
        self._thread = threading.Thread(target=self._run, args=(folder, options), daemon=True)
        self._thread.start()
        assert self._ready.wait(30), "the server did not start"

    def _run(self, folder: Path, options: dict) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._stop = self._loop.create_future()
            async with serving(folder, **options) as (server, url):
                self.server, self.url = server, url
                self._ready.set()
                await self._stop

        self._loop.run_until_complete(main())

    def call(self, coro, timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def create(self, name: str, computer: str | None = None, level: int = 1) -> Created:
        return self.call(new_game(self.url, name, computer, level))

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set_result, None)
        self._thread.join(30)
