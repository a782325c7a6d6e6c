"""Several server processes on one store (PostgreSQL, :class:`~.pgstore.PgStore`; issue 43).

Any process serves a seat that reaches it: it loads the game from the store and writes that
seat's actions itself. The store keeps each action once: its key is (game, index), so when two
processes write the same index the second write fails, is refused, and that process reloads the
game as stored. Every write tells the other processes (NOTIFY, :meth:`PgStore.listen`); a
process holding the game reloads it and sends its seats their new views.

The server's own part of a game (the computer's moves, the phases passed by themselves, the
standing orders of a seat away) is played by one process at a time: the one holding the game's
advisory lock (:meth:`PgStore.claim`). A process that dies loses its connection, so PostgreSQL
frees its locks at once; every process tries, each :data:`CLAIM_SECONDS`, to claim the games it
holds and does not own, so another takes them over within that. Its clients reconnect (to the
same address: the processes share the port, ``SO_REUSEPORT``) and reach a live process. A game
whose every seat is connected on another process is handed over to it (:meth:`Follow.hand_over`):
one process plays it, not two.

On a store of one process (SQLite) all of this is idle: the process owns every game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from game.files.replay import ReplayError
from game.net.wire import DffOrder

from .hosted import catch_up
from .relay import AGAIN

log = logging.getLogger("hexfire.server")

BUSY = "this server process is busier than another: try again"
CLAIM_SECONDS = 0.5
"""How often a process tries to take over the games it holds and no live process owns."""
SPARE = 8
"""How many seats more than its share a process keeps before it sends some away
(:meth:`Follow.balance`), and the fewest it sends at once."""
SETTLE_SECONDS = 2.0
"""After seats were sent away: how long before the next are (the counts follow the seats
reconnecting), and how long a seat sent away that comes back is sent away again at once, before
its game is loaded, while this process still holds more than its share."""


class Follow:
    """The coordination of one server process with the others on its store."""

    def __init__(self, server: Any):
        self.server = server
        self.store = server.store
        self.shared = bool(getattr(self.store, "shared", False))
        self.owned: set[str] = set()
        self._behind: set[str] = set()
        """The games told changed whose catch-up has not begun yet."""
        self._arrived: dict[tuple[str, str], tuple[Any, float]] = {}
        """(game, side) -> the connection of that seat here and the store's time it came."""
        self._sent: dict[str, float] = {}
        """The games whose seats were sent away (:meth:`balance`), by when."""
        self._over = False
        """Whether this process held more than its share of the seats at the last count."""
        self._stop_listening: Callable[[], None] | None = None
        self._task: asyncio.Task | None = None

    def owns(self, game_id: str) -> bool:
        """Whether this process plays the server's part of ``game_id`` now."""
        return not self.shared or game_id in self.owned

    async def start(self) -> None:
        if not self.shared or self._task is not None:
            return
        loop = asyncio.get_running_loop()

        games = self.server.games

        def told(game: str | None, said: str) -> None:  # (the listening thread's)
            if game is None or game in games:  # another's game: nothing to do, no wake-up
                loop.call_soon_threadsafe(self._told, game, said)

        self._stop_listening = self.store.listen(told)
        await self.server.relay.start()
        self._task = asyncio.ensure_future(self._claiming())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._stop_listening is not None:
            await asyncio.to_thread(self._stop_listening)
        await self.server.relay.stop()

    async def claim(self, game_id: str) -> bool:
        """Own ``game_id`` if no live process does (True: this one owns it now)."""
        if not self.shared:
            return True
        try:
            got = await self.server._db(self.store.claim, game_id)
        except Exception as e:  # the store is away: try again later
            log.warning("game %s: claiming it: %s", game_id, e)
            got = False
        if got and game_id not in self.owned:
            self.owned.add(game_id)
            log.info("game %s: owned here", game_id)
        elif not got:
            self.owned.discard(game_id)
        return got

    async def opened(self, hosted: Any) -> None:
        """A game just loaded here: own it if no one does; else catch up with what its owner
        wrote while it loaded (a NOTIFY that came before it was open here was not for it)."""
        if self.shared:  # its seats connected elsewhere now
            seats = [
                (hosted.meta.id, s) for s, m in hosted.meta.seats.items() if m.kind == "remote"
            ]
            try:
                present = await self.server._db(self.store.present_elsewhere, seats)
            except Exception as e:
                log.warning("game %s: seats' presence: %s", hosted.meta.id, e)
                present = set()
            hosted.elsewhere.update(s for _, s in present)
        if not await self.claim(hosted.meta.id):
            self.server._spawn(self._follow(hosted))

    async def _claiming(self) -> None:
        while True:
            await asyncio.sleep(CLAIM_SECONDS)
            await self.claim_held()
            await self._presence()
            await self.hand_over()
            await self.server.relay.recheck()
            await self.balance()

    async def claim_held(self) -> None:
        """Own every game held here that no live process owns (a process died: all its games
        held here are claimed in one statement) and play what is due in each, each game's
        moves a task of its own."""
        games = self.server.games
        asked = list(games)
        try:
            got = await self.server._db(self.store.claim_many, asked)
        except Exception as e:  # the store is away: try again later
            log.warning("claiming games: %s", e)
            return
        taken = got - self.owned
        self.owned = (self.owned - set(asked)) | got
        if taken:
            log.info("%d games taken over here", len(taken))
        for game_id in taken:  # taken over: their due moves are played here
            hosted = games.get(game_id)
            if hosted is not None:
                self.server._spawn(self.server._settle_locked(hosted))

    async def hand_over(self) -> None:
        """Give up each game owned here whose every seat is connected on another process and
        none here: its lock freed, the game dropped here (nothing left to follow), the other
        processes told ("free"), and the one its seats are on claims it (:meth:`_told`). Such
        a game was played across two processes (issue 43: each action read, checked, applied
        and its views made on both, a third of the servers' CPU at 500 games)."""
        games = self.server.games
        for game_id in [g for g in self.owned if self._elsewhere_only(games.get(g))]:
            hosted = games[game_id]
            async with hosted.lock:  # what it was doing is done and stored
                if not self._elsewhere_only(hosted) or self.server._due(hosted):
                    continue
                try:
                    await self.server._db(self.store.release, game_id)
                except Exception as e:  # the store is away: kept, tried again later
                    log.warning("game %s: handing it over: %s", game_id, e)
                    continue
                self.owned.discard(game_id)
                self._behind.discard(game_id)
                if games.get(game_id) is hosted:
                    del games[game_id]
                log.info("game %s: handed over to its seats' process", game_id)

    async def balance(self) -> None:
        """Send seats away while this process holds more than its share of the store's seats
        (their count on every live process, :meth:`PgStore.seat_counts`; the share: an even
        one, and :data:`SPARE` more): a game whose every seat is here is given up (its lock
        freed, dropped here) and its seats' connections closed with "try again"; each client
        reconnects to the port the processes share, and the kernel spreads them. At most half
        the excess goes at once, then none for :data:`SETTLE_SECONDS` (the counts follow the
        seats reconnecting); one that lands here again meanwhile is sent on before its game
        is loaded (:meth:`bounced`). After a kill, the survivor took every game and the
        process started again none (issue 43: one process played 500 games for the rest of
        the run, its round trip p95 tripled)."""
        if not self.shared or self.server.relay.address is None:
            return
        now = time.monotonic()
        self._sent = {g: t for g, t in self._sent.items() if now - t < SETTLE_SECONDS}
        try:
            mine, counts = await self.server._db(self.store.seat_counts)
        except Exception as e:  # the store is away: tried again later
            log.warning("seats' count: %s", e)
            return
        excess = mine - sum(counts) / len(counts) if len(counts) >= 2 else 0.0
        self._over = excess > 0
        if excess <= SPARE or self._sent:
            return
        games, server = self.server.games, self.server
        away = [  # (a game busy now is left for the next time: nothing waits here)
            h
            for g, h in games.items()
            if g in self.owned
            and h.conns
            and not h.elsewhere
            and h.ended is None
            and not h.lock.locked()
            and not server._due(h)
        ][: max(SPARE, int(excess) // 2)]
        for hosted in away:  # each idle: its lock taken at once, held until it is dropped
            await hosted.lock.acquire()
        try:
            await server._db(self.store.release_many, [h.meta.id for h in away])
        except Exception as e:  # the store is away: kept
            log.warning("sending games away: %s", e)
            for hosted in away:
                hosted.lock.release()
            return
        seats = []
        for hosted in away:  # (a message that waited for its lock is not read: the seat left)
            hosted.lock.release()
            game_id = hosted.meta.id
            self.owned.discard(game_id)
            self._behind.discard(game_id)
            if games.get(game_id) is hosted:
                del games[game_id]
            for side, conn in list(hosted.conns.items()):
                if self._arrived.get((game_id, side), (None, 0.0))[0] is conn:
                    del self._arrived[game_id, side]
                    seats.append((game_id, side))
        try:  # its presence here ends before the seat arrives elsewhere (else it looks there
            await server._db(self._leave_all, seats)  # as if connected here still)
        except Exception as e:  # the store away: the locks go with the connection
            log.warning("sending games away: leaving: %s", e)
        sent = 0
        for hosted in away:
            self._sent[hosted.meta.id] = now
            for conn in list(hosted.conns.values()):
                conn.close(AGAIN, BUSY)
                sent += 1
        if sent:
            log.info("%d seats sent away (%d here, %s in all)", sent, mine, counts)

    def bounced(self, game_id: str) -> bool:
        """Whether a seat of ``game_id`` that says hello here is sent away again before its
        game is loaded: it was sent away a moment ago (:meth:`balance`) and this process still
        holds more than its share (the kernel spreads the reconnections at random: without
        this, half came back and each was loaded, then sent again)."""
        return self._over and game_id in self._sent

    def _leave_all(self, seats: list[tuple[str, str]]) -> None:
        for game_id, side in seats:
            self.store.leave(game_id, side)

    def _elsewhere_only(self, hosted: Any) -> bool:
        """Whether every seat of ``hosted`` is a player's connected on another process."""
        if hosted is None or hosted.conns or hosted.ended is not None:
            return False
        remote = [s for s, m in hosted.meta.seats.items() if m.kind == "remote"]
        return bool(remote) and all(s in hosted.elsewhere for s in remote)

    async def _take(self, hosted: Any) -> None:
        """Another process gave up a game a seat here plays (:meth:`hand_over`): own it and
        play what is due."""
        if await self.claim(hosted.meta.id):
            await self.server._settle_locked(hosted)

    # --- a seat's presence across processes -------------------------------------------------

    def away(self, hosted: Any, side: str) -> bool:
        """Whether ``side``'s seat is connected nowhere (its standing orders apply): neither
        here nor on another process."""
        return side not in hosted.conns and side not in hosted.elsewhere

    async def arrived(self, hosted: Any, side: str, conn: Any) -> None:
        """A seat's connection here: the other processes are told (a window of that seat open
        on one of them is taken over; its owner no longer takes the seat's standing orders)."""
        hosted.elsewhere.discard(side)
        if not self.shared:
            return
        key = (hosted.meta.id, side)
        try:
            if self._arrived.pop(key, None) is not None:  # a window here before: one lock
                await self.server._db(self.store.leave, *key)
            at = await self.server._db(self.store.arrive, *key)
        except Exception as e:  # the store is away: the seat is served here all the same
            log.warning("game %s: %s arriving: %s", hosted.meta.id, side, e)
            return
        self._arrived[key] = (conn, at)

    def left(self, hosted: Any, side: str, conn: Any) -> None:
        """A seat's connection here ended: its presence here too."""
        key = (hosted.meta.id, side)
        if self.shared and self._arrived.get(key, (None, 0.0))[0] is conn:
            del self._arrived[key]
            self.server._spawn(self._leave(key))

    async def _leave(self, key: tuple[str, str]) -> None:
        try:
            await self.server._db(self.store.leave, *key)
        except Exception as e:  # stopping, or the store away: the lock goes with the process
            log.debug("game %s: %s leaving: %s", key[0], key[1], e)

    def _seat_arrived(self, hosted: Any, said: str) -> None:
        """A seat connected on another process at the store's time ``at``: a window of it here
        opened before is taken over; the seat is not away."""
        try:
            _, side, at = said.split(" ")
            when = float(at)
        except ValueError:
            return
        if side not in hosted.meta.seats:
            return
        hosted.elsewhere.add(side)
        hosted.due = None
        conn, since = self._arrived.get((hosted.meta.id, side), (None, 0.0))
        if conn is not None and hosted.conns.get(side) is conn and since < when:
            conn.take_over()

    async def _presence(self) -> None:
        """The seats thought connected elsewhere that are no longer (their process left or
        died): away now, their standing orders due."""
        games = self.server.games
        pairs = [(g, s) for g, h in list(games.items()) for s in h.elsewhere]
        if not pairs:
            return
        try:
            present = await self.server._db(self.store.present_elsewhere, pairs)
        except Exception as e:
            log.warning("seats' presence: %s", e)
            return
        for game_id, side in set(pairs) - present:
            hosted = games.get(game_id)
            if hosted is not None:
                hosted.elsewhere.discard(side)
                hosted.due = None
                if game_id in self.owned:
                    self.server._spawn(self.server._settle_locked(hosted))

    def _told(self, game: str | None, said: str = "") -> None:
        games = self.server.games
        if game is not None and said == "free":  # its owner gave it up: claimed here
            hosted = games.get(game)
            if hosted is not None and hosted.conns and game not in self.owned:
                self.server._spawn(self._take(hosted))
            return
        if game is not None and said.startswith("seat "):
            hosted = games.get(game)
            if hosted is not None:
                self._seat_arrived(hosted, said)
            return
        for game_id in list(games) if game is None else [game]:
            hosted = games.get(game_id)
            if hosted is not None and game_id not in self._behind:
                self._behind.add(game_id)  # the writes told meanwhile: one catch-up for all
                self.server._spawn(self._follow(hosted))

    async def _follow(self, hosted: Any) -> None:
        """Another process changed the game: apply what it stored after the actions held here
        (the whole game reloaded only when the store no longer has the last of them: an
        undo), send each seat here its view."""
        async with hosted.lock:
            game_id = hosted.meta.id
            self._behind.discard(game_id)
            held = len(hosted.actions)
            got = await self.server._db(self.store.since, game_id, max(0, held - 1))
            if got is None:
                return
            state, rows = got
            last = hosted.actions[-1].entry.get("hash") if held else None
            whole = held > 0 and (not rows or rows[0].entry.get("hash") != last)
            more = rows[1:] if held else rows
            if not whole and not more and state == hosted.state():
                return
            old = hosted.session
            shown = {side: old.view(side).version for side in hosted.conns}  # before it goes on
            if whole:
                await self.server._reload(hosted)
            else:
                try:
                    hosted.session = await self.server._work(
                        catch_up, hosted, more, state, self.server.player
                    )
                    hosted.actions.extend(more)
                    hosted.due = None
                except ReplayError as e:  # not what was held after all: the game as stored
                    log.warning("game %s: catching up: %s", game_id, e)
                    await self.server._reload(hosted)
            versions = state.get("versions") or {}
            for side, version in shown.items():  # the seats here: their versions go on rising
                if side in hosted.conns and int(versions.get(side, 0)) <= version:
                    hosted.session.carry_view(old, side)
            orders = state.get("orders") or {}
            hosted.orders.update({s: DffOrder.model_validate(o) for s, o in orders.items()})
            self.server._push(hosted, ready=not self.server._due(hosted))
            await self.server._settle(hosted)
