"""The hexfire server (``hexfire serve``; docs/online.md): an asyncio websocket server that holds
the authoritative game of every game it hosts, one :class:`Session` each, and sends each seat
its side's view and nothing else.

A connection first says ``hello`` (a game and a seat's token: the token is compared in
constant time with every seat's, and a missing game gets the same answer as a wrong token) or
``create`` (a new game: the host is handed a token per seat). A seat then sends actions with
the view version it chose them from; the server checks them against what that side may do
(stale, out of turn, illegal: refused with the reason, nothing changed), applies them through
the session, stores them durably (:class:`~.store.GameStore`) and only then answers with the
seat's new view, and pushes the other seat's view when it changed. The computer plays its seat
here; a seat away has its standing Defensive First Fire order applied for it; the phases in
which the side to act can do nothing pass by themselves (HX-15). When the game ends both seats
are sent the result, the seed and salt (checked against the commitment published at creation)
and the luck report, and the whole save becomes downloadable.

Nothing a client sends reaches the game but a checked action: malformed, unknown, oversized
messages get an error and change nothing; a client that floods is slowed, then dropped; an
exception in one connection's handling closes that connection only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from game.ai import ComputerPlayer
from game.board.hexes import label
from game.engine import Game, IllegalAction
from game.engine.actions import ActionError, EndPhase, Pass, action_from_json
from game.files.honest import SCHEME, chain_head, commitment
from game.files.luck import LuckCounter
from game.files.replay import apply_checked
from game.files.savegame import SavedGame
from game.files.scenario import ScenarioError, parse_scenario
from game.files.session import Autosave
from game.net.wire import (
    MAX_FRAME,
    WIRE,
    Act,
    Answer,
    Ask,
    Commitment,
    Create,
    Created,
    DffOrder,
    End,
    ErrorMessage,
    Hello,
    Order,
    OrderSet,
    Ready,
    RecordMessage,
    RecordRequest,
    Refused,
    UndoRequest,
    ViewMessage,
    Welcome,
    WireError,
    dumps,
    read_client,
)
from game.session import Session

from .answers import BadQuestion, answer
from .orders import standing_fire
from .store import GameMeta, GameStore, SeatMeta, StoredAction, StoredGame, StoreError

log = logging.getLogger("hexfire.server")


@dataclass(frozen=True)
class Limits:
    """What a client may do. ``rate`` messages a second with bursts of ``burst``: past that it
    is slowed (its messages wait their turn), and after ``drop_after`` messages over its budget
    it is dropped. ``hello_seconds``: a connection that says nothing is closed."""

    hello_seconds: float = 10.0
    rate: float = 20.0
    burst: int = 40
    drop_after: int = 200
    max_games: int = 100_000
    creates_per_connection: int = 20
    outbox: int = 256
    """Messages waiting for a client that does not read: past this it is dropped."""


QUICK_LEVEL = 1
"""The computer's levels that decide within a millisecond or so: decided in the event loop's
own thread (a higher level thinks in a worker thread, and the other games go on meanwhile)."""


WRITES = frozenset(("create", "append", "truncate", "set_state"))
"""The store's writes (the group committer makes them; its reads are made one by one)."""


class GroupWriter:
    """Group commit: a thread that takes every write waiting, makes them in one transaction
    of the store (:meth:`SqliteStore.together`: one sync of the disk), then tells each waiter;
    a write is acknowledged only once its commit returned."""

    def __init__(self, store: Any):
        import queue
        import threading

        self.store = store
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, daemon=True, name="hexfire-commit")
        self._thread.start()

    def submit(self, fn: Callable, *args: Any) -> Future:
        future: Future = Future()
        self._queue.put((fn, args, future))
        return future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(10)

    def _run(self) -> None:
        import queue

        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            try:
                with self.store.together():
                    for fn, args, _ in batch:
                        fn(*args)
            except Exception as e:
                for _, _, future in batch:
                    future.set_exception(e if isinstance(e, StoreError) else StoreError(str(e)))
                continue
            for _, _, future in batch:
                future.set_result(None)


class Randomness(Protocol):
    """Where a server's secrets come from (the tests give a seeded one)."""

    def token(self) -> str: ...

    def game_id(self) -> str: ...

    def seed(self) -> int: ...

    def salt(self) -> str: ...


class SystemRandomness:
    """The operating system's randomness (:mod:`secrets`): 256-bit tokens, 64-bit game ids,
    63-bit seeds, 128-bit salts."""

    def token(self) -> str:
        return secrets.token_urlsafe(32)

    def game_id(self) -> str:
        return secrets.token_hex(8)

    def seed(self) -> int:
        return secrets.randbits(63)

    def salt(self) -> str:
        return secrets.token_hex(16)


Player = Callable[[GameMeta, str, int], Any]
"""Makes the computer's player for a side of a game at a level (the tests give their own)."""


def computer_player(meta: GameMeta, side: str, level: int) -> ComputerPlayer:
    """The computer, seeded from the game's own computer seed (never the dice seed: its choices
    would tell something of the dice to come)."""
    return ComputerPlayer(side, level, seed=meta.ai_seed)


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


_NO_SEAT = ErrorMessage(code="no_seat", reason="no such game, or not a token of it")
"""The one answer to a wrong token and to a missing game (the token guards the game)."""
_DUMMY = hashlib.sha256(b"hexfire: no game").hexdigest()


class Flood(Exception):
    """A client that kept flooding after it was slowed."""


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once. :meth:`take` says how
    long to wait before the message is handled (slowing); past ``drop_after`` messages over
    the budget (counted until the bucket is full again) it raises Flood."""

    def __init__(self, rate: float, burst: int, drop_after: int):
        self.rate, self.burst, self.drop_after = rate, burst, drop_after
        self.tokens = float(burst)
        self.at = time.monotonic()
        self.over = 0

    def take(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= self.burst:
            self.over = 0
        self.tokens -= 1
        if self.tokens >= 0:
            return 0.0
        self.over += 1
        if self.over > self.drop_after:
            raise Flood()
        return -self.tokens / self.rate


class Conn:
    """One client's connection: its outbox (written by its own task, so a client that does
    not read never holds up a game) and its flood bucket."""

    def __init__(self, ws: ServerConnection, limits: Limits):
        self.ws = ws
        self.limits = limits
        self.bucket = Bucket(limits.rate, limits.burst, limits.drop_after)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.side: str | None = None
        self.game: Hosted | None = None
        self.sent_version: int | None = None
        self.ready_sent = True
        self.closed = False
        self.tap: Callable[[str], None] | None = None
        self.writer = asyncio.ensure_future(self._write())

    def post(self, text: str) -> None:
        """Queue a message (dropping a client whose outbox is full: it is not reading)."""
        if self.closed:
            return
        if self.outbox.qsize() >= self.limits.outbox:
            self.close(1008, "not reading")
            return
        if self.tap is not None:
            self.tap(text)
        self.outbox.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
            self._close = (code, reason)

    async def _write(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    code, reason = getattr(self, "_close", (1000, ""))
                    await self.ws.close(code, reason)
                    return
                await self.ws.send(text)
        except ConnectionClosed:
            self.closed = True
        except Exception as e:  # one client's socket: never the server
            log.warning("writing to a client: %s: %s", type(e).__name__, e)
            self.closed = True

    async def drain(self) -> None:
        """Wait until what is queued is written (the connection is closing)."""
        self.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 5)


@dataclass
class Hosted:
    """A game the server holds: its fixed facts, its session, the stored actions' sides and
    forms, each seat's connection and standing order."""

    meta: GameMeta
    session: Session
    actions: list[StoredAction]
    orders: dict[str, DffOrder]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[str, Conn] = field(default_factory=dict)
    ended: End | None = None
    due: tuple[tuple, bool] | None = None

    @property
    def game(self) -> Game:
        return self.session.game

    def state(self) -> dict:
        """The small state stored with each action: each side's view version, the computer's
        plan, the standing orders."""
        return {
            "versions": {
                s: self.session.view(s).version
                for s in self.session.sides
                if self.meta.seats[s].kind != "computer"  # no one sees the computer's view
            },
            "computer": self.session.saved.computer,
            "orders": {s: o.model_dump() for s, o in self.orders.items()},
        }

    def commitment(self) -> Commitment:
        return Commitment(sha256=self.meta.commitment, scenario_sha256=self.meta.scenario_sha256)


def markers(game: Game) -> dict[str, Any]:
    """The map's wrecks and smoke by hex (both sides see them)."""
    board = game.board
    wrecks, smoke = board.markers()
    return {
        "wrecks": {label(board.hex_at(i)): n for i, n in wrecks},
        "smoke": [label(board.hex_at(i)) for i in smoke],
    }


def build_session(
    meta: GameMeta, stored: list[StoredAction], state: dict, player: Player
) -> Session:
    """A game's session rebuilt from its store: the scenario, the seed and every action
    replayed with its checks; each side's view version where it stood (a client that reconnects
    compares its own)."""
    scenario = parse_scenario(meta.scenario_text, meta.scenario_name)
    game = Game(scenario.setup, meta.seed)
    saved = SavedGame(meta.scenario_name, meta.scenario_text, meta.seed)
    computer = None
    for side, seat in meta.seats.items():
        if seat.kind == "computer":
            saved.computer = dict(state.get("computer") or {"side": side, "level": seat.level})
            computer = player(meta, side, seat.level)
            plan = saved.computer.get("plan")
            if isinstance(plan, dict) and hasattr(computer, "resume_plan"):
                computer.resume_plan(plan)
    for i, a in enumerate(stored):
        apply_checked(game, i, a.entry, f"game {meta.id}")
        saved.actions.append(dict(a.entry))
    session = Session(Autosave(game, saved, None), computer, remote=True)
    for side, version in (state.get("versions") or {}).items():
        session.resume_version(side, int(version))
    return session


class Server:
    """The server's games and its connections' handling (:meth:`handler`, for
    ``websockets.serve``; :func:`run` serves it)."""

    def __init__(
        self,
        store: GameStore,
        limits: Limits | None = None,
        randomness: Randomness | None = None,
        player: Player = computer_player,
    ):
        self.store = store
        self.limits = limits or Limits()
        self.random = randomness or SystemRandomness()
        self.player = player
        self.games: dict[str, Hosted] = {}
        self._opening: dict[str, asyncio.Future] = {}
        self._db_pool = ThreadPoolExecutor(1, thread_name_prefix="hexfire-store")
        self._writer = GroupWriter(store) if hasattr(store, "together") else None
        self._work_pool = ThreadPoolExecutor(1, thread_name_prefix="hexfire-work")
        self._tasks: set[asyncio.Task] = set()
        self.taps: dict[tuple[str, str], Callable[[str], None]] = {}
        """(game, side) -> a function told every message sent to that seat (the tests')."""

    # --- threads ---------------------------------------------------------------------------

    async def _db(self, fn: Callable, *args: Any) -> Any:
        """A store call in the store's thread; a write by the group committer when the store
        has one (:class:`GroupWriter`: the writes of every game that came while the last
        commit synced the disk, in one commit)."""
        if self._writer is not None and getattr(fn, "__name__", "") in WRITES:
            return await asyncio.wrap_future(self._writer.submit(fn, *args))
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, fn, *args)

    async def _work(self, fn: Callable, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._work_pool, fn, *args)

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for hosted in self.games.values():
            for conn in hosted.conns.values():
                conn.close(1001, "server stopping")
        if self._writer is not None:
            self._writer.close()
        self._db_pool.shutdown(wait=True)
        self._work_pool.shutdown(wait=False, cancel_futures=True)

    # --- the games ---------------------------------------------------------------------------

    async def _open(self, game_id: str) -> Hosted | None:
        """The game ``game_id``, loaded from the store on first use (None: no such game)."""
        hosted = self.games.get(game_id)
        if hosted is not None:
            return hosted
        pending = self._opening.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._opening[game_id] = future
        try:
            stored: StoredGame | None = await self._db(self.store.load, game_id)
            hosted = None
            if stored is not None:
                session = await self._work(
                    build_session, stored.meta, stored.actions, stored.state, self.player
                )
                orders = {
                    s: DffOrder.model_validate(o)
                    for s, o in (stored.state.get("orders") or {}).items()
                }
                hosted = Hosted(stored.meta, session, list(stored.actions), orders)
                self.games[game_id] = hosted
                self._spawn(self._settle_locked(hosted))
            future.set_result(hosted)
            return hosted
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: a waiter re-raises it
            raise
        finally:
            del self._opening[game_id]

    async def _reload(self, hosted: Hosted) -> None:
        """After a store failure: the game as the store has it (the action that could not be
        stored is gone from memory too)."""
        stored = await self._db(self.store.load, hosted.meta.id)
        if stored is None:
            raise StoreError(f"game {hosted.meta.id} vanished from the store")
        hosted.session = await self._work(
            build_session, stored.meta, stored.actions, stored.state, self.player
        )
        hosted.actions = list(stored.actions)
        hosted.due = None

    async def _create(self, conn: Conn, msg: Create) -> None:
        if msg.wire != WIRE:
            conn.post(dumps(_wire_error(msg.wire)))
            return
        if len(self.games) >= self.limits.max_games:
            conn.post(
                dumps(Refused(seq=None, code="full", reason="this server hosts no more games"))
            )
            return
        try:
            scenario = await self._work(parse_scenario, msg.scenario_text, msg.scenario_name)
        except ScenarioError as e:
            first = str(e).splitlines()[0] if str(e) else "not a scenario"
            conn.post(dumps(Refused(seq=None, code="scenario", reason=first[:300])))
            return
        sides = tuple(scenario.setup.sides)
        if msg.computer is not None and msg.computer not in sides:
            reason = f"computer: expected one of {', '.join(sides)}"
            conn.post(dumps(Refused(seq=None, code="computer", reason=reason)))
            return
        rnd = self.random
        game_id = rnd.game_id()
        seed, salt, ai_seed = rnd.seed(), rnd.salt(), rnd.seed()
        tokens = {s: rnd.token() for s in sides if s != msg.computer}
        seats = {
            s: SeatMeta("computer", level=msg.level)
            if s == msg.computer
            else SeatMeta("remote", token_sha256(tokens[s]))
            for s in sides
        }
        meta = GameMeta(
            game_id,
            msg.scenario_name,
            msg.scenario_text,
            hashlib.sha256(msg.scenario_text.encode("utf-8")).hexdigest(),
            seed,
            salt,
            commitment(seed, salt),
            ai_seed,
            seats,
            time.time(),
        )
        session = await self._work(build_session, meta, [], {}, self.player)
        hosted = Hosted(meta, session, [], {})
        try:
            await self._db(self.store.create, meta, hosted.state())
        except StoreError as e:
            log.error("creating a game: %s", e)
            conn.post(
                dumps(Refused(seq=None, code="store", reason="the server could not store it"))
            )
            return
        self.games[game_id] = hosted
        log.info("game %s: %s created", game_id, msg.scenario_name[:60])
        conn.post(dumps(Created(game=game_id, tokens=tokens, commitment=hosted.commitment())))
        self._spawn(self._settle_locked(hosted))

    # --- a connection ------------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        """One client's connection, to its end: nothing it sends can raise out of here."""
        conn = Conn(ws, self.limits)
        try:
            await self._converse(conn)
        except Flood:
            conn.post(dumps(ErrorMessage(code="flood", reason="too many messages: dropped")))
            conn.close(1008, "flood")
        except ConnectionClosed:
            pass
        except Exception as e:  # a bug: this connection ends, the server and its games go on
            log.exception("a connection failed: %s: %s", type(e).__name__, e)
            conn.post(dumps(ErrorMessage(code="server", reason="the server failed to answer")))
            conn.close(1011, "server error")
        finally:
            hosted, side = conn.game, conn.side
            if hosted is not None and side is not None and hosted.conns.get(side) is conn:
                del hosted.conns[side]
                self._spawn(self._settle_locked(hosted))  # it is away now: its orders apply
            await conn.drain()

    async def _converse(self, conn: Conn) -> None:
        creates = 0
        try:
            first = await asyncio.wait_for(conn.ws.recv(), self.limits.hello_seconds)
        except TimeoutError:
            conn.post(dumps(ErrorMessage(code="timeout", reason="say hello first")))
            conn.close(1008, "no hello")
            return
        raw: str | bytes | None = first
        while raw is not None:
            await self._slow(conn)
            try:
                msg = read_client(raw)
            except WireError as e:
                conn.post(dumps(ErrorMessage(code=e.code, reason=e.reason)))
                raw = await self._next(conn)
                continue
            if isinstance(msg, Hello):
                if not await self._hello(conn, msg):
                    conn.close(1008, "no seat")
                    return
                break
            if isinstance(msg, Create):
                creates += 1
                if creates > self.limits.creates_per_connection:
                    raise Flood()
                await self._create(conn, msg)
            else:
                conn.post(dumps(ErrorMessage(code="hello", reason="say hello first")))
            raw = await self._next(conn)
        else:
            return
        async for raw in conn.ws:
            if conn.closed:
                return
            await self._slow(conn)
            try:
                msg = read_client(raw)
            except WireError as e:
                conn.post(dumps(ErrorMessage(code=e.code, reason=e.reason)))
                continue
            if isinstance(msg, (Hello, Create)):
                conn.post(dumps(ErrorMessage(code="seated", reason="this connection has a seat")))
                continue
            await self._seat_message(conn, msg)

    async def _next(self, conn: Conn) -> str | bytes | None:
        try:
            return await conn.ws.recv()
        except ConnectionClosed:
            return None

    async def _slow(self, conn: Conn) -> None:
        delay = conn.bucket.take()
        if delay:
            await asyncio.sleep(delay)

    async def _hello(self, conn: Conn, msg: Hello) -> bool:
        if msg.wire != WIRE:
            conn.post(dumps(_wire_error(msg.wire)))
            return False
        meta: GameMeta | None
        hosted = self.games.get(msg.game)
        if hosted is not None:
            meta = hosted.meta
        else:
            stored_meta = await self._db(self.store.load_meta, msg.game)
            meta = stored_meta
        given = token_sha256(msg.token)
        seats = meta.seats if meta is not None else {"a": SeatMeta("remote", _DUMMY)}
        side = None
        for name, seat in seats.items():  # every seat compared, in constant time
            same = hmac.compare_digest(given, seat.token_sha256 or _DUMMY)
            if same and seat.kind == "remote" and meta is not None:
                side = name
        if side is None:
            conn.post(dumps(_NO_SEAT))
            return False
        hosted = await self._open(msg.game)
        if hosted is None:
            conn.post(dumps(_NO_SEAT))
            return False
        async with hosted.lock:
            await self._settle(hosted)  # what is due first: the welcome is the seat's latest
            old = hosted.conns.get(side)
            if old is not None and old is not conn:
                old.post(
                    dumps(
                        ErrorMessage(
                            code="taken_over", reason="this seat was opened in another window"
                        )
                    )
                )
                old.close(4000, "taken over")
            hosted.conns[side] = conn
            conn.game, conn.side = hosted, side
            conn.tap = self.taps.get((hosted.meta.id, side))
            view = hosted.session.view(side)
            board = hosted.game.board
            conn.post(
                dumps(
                    Welcome(
                        game=hosted.meta.id,
                        side=side,
                        seats={s: m.kind for s, m in hosted.meta.seats.items()},
                        title=hosted.game.setup.title,
                        map=board.to_map_table(),
                        month=board.month,
                        commitment=hosted.commitment(),
                        order=hosted.orders.get(side, DffOrder()),
                        view=view,
                        markers=markers(hosted.game),
                    )
                )
            )
            conn.sent_version = view.version
            conn.ready_sent = True
            if hosted.ended is not None:
                conn.post(dumps(hosted.ended))
        return True

    async def _seat_message(self, conn: Conn, msg: Any) -> None:
        hosted, side = conn.game, conn.side
        assert hosted is not None and side is not None
        async with hosted.lock:
            if hosted.conns.get(side) is not conn:
                return  # taken over meanwhile
            if isinstance(msg, Act):
                await self._act(hosted, conn, side, msg)
            elif isinstance(msg, UndoRequest):
                await self._undo(hosted, conn, side, msg)
            elif isinstance(msg, Ask):
                self._ask(hosted, conn, side, msg)
            elif isinstance(msg, Order):
                hosted.orders[side] = msg.dff
                await self._db(self.store.set_state, hosted.meta.id, hosted.state())
                conn.post(dumps(OrderSet(seq=msg.seq, dff=msg.dff)))
            elif isinstance(msg, RecordRequest):
                self._record(hosted, conn, side, msg)
            if isinstance(msg, (Act, UndoRequest)):
                await asyncio.sleep(0)  # the answer goes out before the server plays on
                await self._settle(hosted)

    # --- a seat's requests -------------------------------------------------------------------

    async def _act(self, hosted: Hosted, conn: Conn, side: str, msg: Act) -> None:
        session = hosted.session
        view = session.view(side)

        def refuse(code: str, reason: str) -> None:
            conn.post(dumps(Refused(seq=msg.seq, code=code, reason=reason, version=view.version)))

        if msg.version != view.version:
            return refuse(
                "stale", f"chosen from view {msg.version}; your view is at version {view.version}"
            )
        acting = session.acting
        if acting is None:
            return refuse("game_over", "the game is over")
        if acting != side:
            return refuse("not_your_turn", f"{acting.title()} acts now, not {side.title()}")
        try:
            action = action_from_json(msg.action)
        except ActionError as e:
            return refuse("malformed", str(e))
        table = session.table(side)
        try:  # checked as it is applied (the same reason Table.check would give)
            table.submit(action)
        except IllegalAction as e:
            return refuse("illegal", e.reason)
        if not await self._stored(hosted, side, action.to_json()):
            return refuse("store", "the server could not store your action: it was not taken")
        self._push(hosted, answer_to=(conn, msg.seq), ready=not self._due(hosted))

    async def _stored(self, hosted: Hosted, side: str, shown: dict, by: str = "seat") -> bool:
        """Store the action just applied (durable before anyone is told of it); on failure
        the game goes back to what the store holds."""
        entry = dict(hosted.session.saved_actions[-1])
        stored = StoredAction(entry, side, shown, by)
        index = len(hosted.session.saved_actions) - 1
        try:
            await self._db(self.store.append, hosted.meta.id, index, stored, hosted.state())
        except StoreError as e:
            log.error("game %s: %s", hosted.meta.id, e)
            await self._reload(hosted)
            return False
        hosted.actions.append(stored)
        return True

    async def _undo(self, hosted: Hosted, conn: Conn, side: str, msg: UndoRequest) -> None:
        session = hosted.session
        view = session.view(side)
        if msg.version != view.version:
            conn.post(
                dumps(
                    Refused(
                        seq=msg.seq,
                        code="stale",
                        reason=f"chosen from view {msg.version}; yours is at {view.version}",
                        version=view.version,
                    )
                )
            )
            return
        why = (
            "the game is over"
            if session.acting is None
            else "only your own last action can be taken back"
            if not hosted.actions or hosted.actions[-1].side != side
            else session.undo(side)
        )
        if why:
            conn.post(dumps(Refused(seq=msg.seq, code="undo", reason=why, version=view.version)))
            return
        length = len(session.saved_actions)
        try:
            await self._db(self.store.truncate, hosted.meta.id, length, hosted.state())
        except StoreError as e:
            log.error("game %s: %s", hosted.meta.id, e)
            await self._reload(hosted)
            reason = "the server could not store the undo: nothing was taken back"
            conn.post(dumps(Refused(seq=msg.seq, code="store", reason=reason)))
            return
        del hosted.actions[length:]
        self._push(hosted, answer_to=(conn, msg.seq), ready=not self._due(hosted))

    def _ask(self, hosted: Hosted, conn: Conn, side: str, msg: Ask) -> None:
        table = hosted.session.table(side)
        try:
            value = answer(table, msg.question, list(msg.args))
        except BadQuestion as e:
            conn.post(dumps(Refused(seq=msg.seq, code="malformed", reason=str(e))))
            return
        except IllegalAction as e:
            conn.post(dumps(Refused(seq=msg.seq, code="illegal", reason=e.reason)))
            return
        except (KeyError, ValueError, IndexError):
            conn.post(dumps(Refused(seq=msg.seq, code="unknown", reason="no such unit or hex")))
            return
        conn.post(dumps(Answer(seq=msg.seq, value=value)))

    def _record(self, hosted: Hosted, conn: Conn, side: str, msg: RecordRequest) -> None:
        if hosted.ended is not None:
            conn.post(dumps(RecordMessage(seq=msg.seq, kind="full", record=full_save(hosted))))
            return
        view = hosted.session.view(side)
        record = {
            "format": "hexfire-side-record",
            "game": hosted.meta.id,
            "side": side,
            "title": hosted.game.setup.title,
            "commitment": hosted.commitment().model_dump(),
            "version": view.version,
            "actions": [{"action": a.shown, "by": a.by} for a in hosted.actions if a.side == side],
            "events": [e.model_dump(mode="json") for e in view.events],
        }
        conn.post(dumps(RecordMessage(seq=msg.seq, kind="side", record=record)))

    # --- after a change ----------------------------------------------------------------------

    def _push(
        self, hosted: Hosted, answer_to: tuple[Conn, int] | None = None, ready: bool = False
    ) -> None:
        """Each connected seat's view when it changed (the one answered always gets it);
        ``ready``: the server now waits for a seat (a seat whose view did not change but was
        last sent one that was not ready is told so)."""
        marks: dict | None = None
        for side, conn in list(hosted.conns.items()):
            view = hosted.session.view(side)
            seq = answer_to[1] if answer_to is not None and answer_to[0] is conn else None
            if seq is None and view.version == conn.sent_version:
                if ready and not conn.ready_sent:
                    conn.post(dumps(Ready(version=view.version)))
                    conn.ready_sent = True
                continue
            if marks is None:
                marks = markers(hosted.game)
            conn.post(dumps(ViewMessage(seq=seq, ready=ready, view=view, markers=marks)))
            conn.sent_version = view.version
            conn.ready_sent = ready

    def _due(self, hosted: Hosted) -> bool:
        """Whether the server has something to do by itself now (:meth:`_settle`); worked out
        once for each change of the game and of who is connected."""
        key = (hosted.session.version, tuple(sorted(hosted.conns)), hosted.ended is None)
        if hosted.due is not None and hosted.due[0] == key:
            return hosted.due[1]
        due = self._due_now(hosted)
        hosted.due = (key, due)
        return due

    def _due_now(self, hosted: Hosted) -> bool:
        session = hosted.session
        acting = session.acting
        if acting is None:
            return hosted.ended is None
        if session.computer_acts():
            return True
        table = session.table(acting)
        order = hosted.orders.get(acting, DffOrder())
        away = acting not in hosted.conns
        return table.nothing_to_do() or bool(table.dff_pending and away and order.policy != "ask")

    async def _settle_locked(self, hosted: Hosted) -> None:
        try:
            async with hosted.lock:
                await self._settle(hosted)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.exception("game %s: %s: %s", hosted.meta.id, type(e).__name__, e)

    async def _settle(self, hosted: Hosted) -> None:
        """Play what is due without a seat's word: the computer's actions, the phases the side
        to act cannot use (HX-15), a Defensive First Fire chance of a seat away under its
        standing order; then the end, once."""
        session = hosted.session
        if not self._due(hosted):
            return
        for _ in range(100_000):
            acting = session.acting
            if acting is None:
                break
            if session.computer_acts():
                quick = getattr(session.computer, "level", 2) <= QUICK_LEVEL
                move = (
                    session.computer_move(None)
                    if quick
                    else await self._work(session.computer_move, None)
                )
                ok = await self._stored(hosted, acting, move.action.to_json(), "computer")
            else:
                table = session.table(acting)
                order = hosted.orders.get(acting, DffOrder())
                away = acting not in hosted.conns
                if table.nothing_to_do():
                    action: Any = EndPhase()
                elif table.dff_pending and away and order.policy != "ask":
                    action = standing_fire(table, order) or Pass()
                else:
                    break
                try:
                    table.submit(action)
                except IllegalAction as e:
                    log.error("game %s: %s refused: %s", hosted.meta.id, action, e.reason)
                    break
                ok = await self._stored(hosted, acting, action.to_json(), "server")
            if not ok:
                break
            if self._due(hosted):
                self._push(hosted)
            await asyncio.sleep(0)  # each action goes out as it is taken; other games go on
        self._push(hosted, ready=True)
        if session.acting is None and hosted.ended is None:
            hosted.ended = await self._work(end_of, hosted)
            text = dumps(hosted.ended)
            for conn in hosted.conns.values():
                conn.post(text)
            log.info("game %s over: %s", hosted.meta.id, hosted.game.end_reason[:80])


def _wire_error(version: int) -> ErrorMessage:
    return ErrorMessage(
        code="wire", reason=f"this server speaks wire version {WIRE}, not {version}"
    )


def full_save(hosted: Hosted) -> dict:
    """The whole save of a finished game: seed, salt and hash chain included."""
    saved = hosted.session.saved
    meta = hosted.meta
    done = SavedGame(
        saved.scenario_name,
        saved.scenario_text,
        saved.seed,
        [dict(a) for a in saved.actions],
        computer=dict(saved.computer) if saved.computer else None,
        commitment={"scheme": SCHEME, "sha256": meta.commitment, "salt": meta.salt},
        chain=chain_head(meta.scenario_sha256, saved.actions),
    )
    return done.to_json()


def end_of(hosted: Hosted) -> End:
    """The end message: the result, the seed revealed, the chain's head, the luck report."""
    meta = hosted.meta
    saved = hosted.session.saved
    game = Game(parse_scenario(meta.scenario_text, meta.scenario_name).setup, meta.seed)
    counter = LuckCounter()
    for i, entry in enumerate(saved.actions):
        action = action_from_json(entry["action"])
        counter.before(game, action)
        counter.after(action, apply_checked(game, i, entry, f"game {meta.id}"))
    luck = {s.side: s.to_json() for s in counter.report(tuple(game.setup.sides))}
    return End(
        winner=game.winner,
        reason=game.end_reason,
        seed=meta.seed,
        salt=meta.salt,
        commitment=hosted.commitment(),
        chain=chain_head(meta.scenario_sha256, saved.actions),
        luck=luck,
    )


def listen(server: Server, host: str, port: int, ssl_context: Any = None):
    """The websocket server of ``server`` on ``host:port`` (an async context manager): frames
    above :data:`MAX_FRAME` close their connection (1009), no compression (a client's frame is
    never inflated past the limit)."""
    return serve(
        server.handler,
        host,
        port,
        ssl=ssl_context,
        max_size=MAX_FRAME,
        max_queue=16,
        compression=None,
        close_timeout=2,
    )


async def run(
    store: GameStore,
    host: str,
    port: int,
    ssl_context: Any = None,
    ready: Callable[[int], None] | None = None,
    stop: asyncio.Future | None = None,
    **options: Any,
) -> None:
    """Serve until ``stop`` is done (forever without one); ``ready`` is told the port."""
    server = Server(store, **options)
    async with listen(server, host, port, ssl_context) as ws_server:
        bound = next(iter(ws_server.sockets)).getsockname()[1]
        if ready is not None:
            ready(bound)
        try:
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
        finally:
            await server.close()
