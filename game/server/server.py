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
and the luck report, and the whole save becomes downloadable. Nothing a client sends reaches
the game but a checked action: malformed, unknown, oversized messages get an error and change
nothing; a client that floods is slowed, then dropped; an exception in one connection's
handling closes that connection only.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from game.files.honest import commitment
from game.files.scenario import ScenarioError, parse_scenario
from game.net.wire import (
    WIRE,
    Act,
    Ask,
    Create,
    Created,
    DffOrder,
    ErrorMessage,
    Hello,
    Order,
    OrderSet,
    RecordRequest,
    Refused,
    UndoRequest,
    Welcome,
    WireError,
    dumps,
    read_client,
)

from .connection import (
    Conn,
    Flood,
    Limits,
    Randomness,
    SystemRandomness,
    listen,
    token_sha256,
    wire_error,
)
from .follow import BUSY, Follow
from .hosted import Hosted, Player, build_session, computer_player, markers
from .relay import AGAIN, Relay
from .seats import SeatRequests
from .store import WRITES, GameMeta, GameStore, GroupWriter, SeatMeta, StoredGame, StoreError

log = logging.getLogger("hexfire.server")

__all__ = ["Limits", "Server", "SystemRandomness", "listen", "run"]

_NO_SEAT = ErrorMessage(code="no_seat", reason="no such game, or not a token of it")
"""The one answer to a wrong token and to a missing game (the token guards the game)."""
_DUMMY = hashlib.sha256(b"hexfire: no game").hexdigest()


class Server(SeatRequests):
    """The server's games and its connections' handling (:meth:`handler`, for
    ``websockets.serve``; :func:`run` serves it)."""

    def __init__(
        self,
        store: GameStore,
        limits: Limits | None = None,
        randomness: Randomness | None = None,
        player: Player = computer_player,
        freeze: bool = False,
        relay_host: str = "127.0.0.1",
    ):
        self.store, self.freeze = store, freeze  # freeze: hexfire serve's (_settled)
        self.limits = limits or Limits()
        self.random = randomness or SystemRandomness()
        self.player = player
        self.games: dict[str, Hosted] = {}
        self._opening: dict[str, asyncio.Future] = {}
        readers = getattr(store, "readers", 1)  # in parallel: a connection for each thread
        self._db_pool = ThreadPoolExecutor(readers, thread_name_prefix="hexfire-store")
        self._writer = GroupWriter(store) if hasattr(store, "together") else None
        self._work_pool = ThreadPoolExecutor(1, thread_name_prefix="hexfire-work")
        self._tasks: set[asyncio.Task] = set()
        self.follow = Follow(self)  # the other server processes on the store (if shared)
        self.relay = Relay(self, relay_host)  # a seat whose game another process plays
        self.taps: dict[tuple[str, str], Callable[[str], None]] = {}
        """(game, side) -> a function told every message sent to that seat (the tests')."""

    async def _db(self, fn: Callable, *args: Any) -> Any:
        """A store call in the store's thread; a write by the group committer when the store
        has one (:class:`GroupWriter`: the writes of every game that came while the last
        commit synced the disk, in one commit)."""
        if self._writer is not None and getattr(fn, "__name__", "") in WRITES:
            return await self._writer.submit(fn, *args)
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
        await self.follow.stop()
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
                self._settled()
                await self.follow.opened(hosted)
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
            conn.post(wire_error(msg.wire))
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
        self._settled()
        await self.follow.claim(game_id)
        log.info("game %s: %s created", game_id, msg.scenario_name[:60])
        conn.post(dumps(Created(game=game_id, tokens=tokens, commitment=hosted.commitment())))
        self._spawn(self._settle_locked(hosted))

    # --- a connection ------------------------------------------------------------------------

    async def handler(self, ws: ServerConnection, hop: bool = False) -> None:
        """One client's connection, to its end: nothing it sends can raise out of here
        (``hop``: relayed here by another server process, never relayed on)."""
        conn = Conn(ws, self.limits)
        conn.hop = hop
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
                self.follow.left(hosted, side, conn)
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
                ok = await self._hello(conn, msg)
                if ok and conn.relay is not None:
                    if await self.relay.pipe(conn, conn.relay, raw):  # the hello passed on
                        return
                    conn.hop, conn.relay = True, None  # its process unreachable: served here
                    ok = await self._hello(conn, msg)
                if not ok or msg.peek:
                    conn.close(1000 if msg.peek else 1008, "looked" if msg.peek else "no seat")
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
            conn.post(wire_error(msg.wire))
            return False
        meta: GameMeta | None
        hosted = self.games.get(msg.game)
        if hosted is not None:
            meta = hosted.meta
        else:
            meta = await self._db(self.store.load_meta, msg.game)
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
        if hosted is None and self.follow.bounced(msg.game):  # sent away a moment ago
            conn.close(AGAIN, BUSY)
            return False
        if hosted is None and not conn.hop and meta is not None:  # owned elsewhere: relayed
            owned = await self.follow.claim(msg.game)  # (after a kill, no owner: no lookup)
            conn.relay = None if owned else await self.relay.target(meta)
            if conn.relay is not None:
                return True
        hosted = await self._open(msg.game)
        if hosted is None:
            conn.post(dumps(_NO_SEAT))
            return False
        async with hosted.lock:
            if self.games.get(msg.game) is not hosted:  # dropped meanwhile (handed over, sent
                conn.close(AGAIN, "the game moved: try again")  # away): claimed where it lands
                return False
            await self._settle(hosted)  # what is due first: the welcome is the seat's latest
            old = None if msg.peek else hosted.conns.get(side)  # a look takes no seat
            if old is not None and old is not conn:
                old.take_over()
            if not msg.peek:
                hosted.conns[side] = conn
                conn.game, conn.side = hosted, side
                conn.tap = self.taps.get((hosted.meta.id, side))
                await self.follow.arrived(hosted, side, conn)  # a window elsewhere: taken over
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
            conn.sent = view  # the whole view: later ones send their new events only
            conn.sent_version = view.version
            conn.ready_sent = True
            if hosted.ended is not None:
                conn.post(dumps(hosted.ended))
        return True

    async def _seat_message(self, conn: Conn, msg: Any) -> None:
        hosted, side = conn.game, conn.side
        assert hosted is not None and side is not None
        async with hosted.lock:
            if hosted.conns.get(side) is not conn or conn.closed:
                return  # taken over meanwhile, or sent away (game.server.follow's balance)
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
    await server.follow.start()
    async with listen(server, host, port, ssl_context) as ws_server:
        bound = next(iter(ws_server.sockets)).getsockname()[1]
        if ready is not None:
            ready(bound)
        try:
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
        finally:
            await server.close()
