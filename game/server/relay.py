"""A seat relayed to the server process that plays its game (several processes on one store,
issue 43): a game is played by one process, never applied by two.

Each process also listens on a port of its own on the relay host (the loopback by default) and
names it in the store (the ``application_name`` of the connection that holds its advisory
locks, :meth:`PgStore.advertise`: gone with the process). A seat that says hello to a process
that does not hold its game, while another process owns the game and holds a seat of it
connected there (the other seat's player), is relayed there: this process opens a connection
to the owner's relay port, sends it the seat's hello, and from then on passes every frame on,
each way, unread (the owner checks the token, takes the seat and sends the views; this process
holds nothing of the game). When the owner's connection ends, the seat's ends with its code
(taken over, say), or "try again" (1012) when the owner died: the client reconnects, and the
game is claimed where it lands.

A process that serves a seat of a game itself and finds later that the game's owner holds its
other seat (both arrived at once) closes its seat's connection with "try again" and drops the
game: the seat comes back relayed (:meth:`Relay.recheck`). Before, such a game was played on
both processes: each action read, checked and applied on both.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from game.net.wire import MAX_FRAME

log = logging.getLogger("hexfire.server")

AGAIN = 1012
"""The close code of a seat whose game's process went away: "try again" (it reconnects)."""


class Relay:
    """One server process's relays (its :class:`~.server.Server`'s ``relay``)."""

    def __init__(self, server: Any, host: str = "127.0.0.1"):
        self.server = server
        self.host = host
        self.address: str | None = None
        """``ws://HOST:PORT``, where the other processes reach this one (None: not shared)."""
        self.relayed = 0
        """How many seats this process relayed to another (the tests read it)."""
        self._ws: Any = None

    async def start(self) -> None:
        """Listen on the relay host and name the address in the store (a shared store only)."""
        store = self.server.store
        if not getattr(store, "shared", False) or self._ws is not None:
            return
        handler = functools.partial(self.server.handler, hop=True)
        self._ws = await serve(
            handler, self.host, 0, max_size=MAX_FRAME, max_queue=16, compression=None
        )
        port = next(iter(self._ws.sockets)).getsockname()[1]
        self.address = f"ws://{self.host}:{port}"
        await self.server._db(store.advertise, self.address)

    async def stop(self) -> None:
        if self._ws is not None:
            self._ws.close()
            await self._ws.wait_closed()

    async def target(self, meta: Any) -> str | None:
        """The relay address of the process that owns the game ``meta`` and holds a seat of it
        connected (None: no such other process; this one serves the seat)."""
        if self.address is None:
            return None
        sides = [s for s, m in meta.seats.items() if m.kind == "remote"]
        try:
            return await self.server._db(self.server.store.owner_with_seats, meta.id, sides)
        except Exception as e:  # the store away: served here (the catch-up keeps it right)
            log.warning("game %s: its owner: %s", meta.id, e)
            return None

    async def pipe(self, conn: Any, address: str, hello: str | bytes) -> bool:
        """Pass the seat's frames to the game's process at ``address`` and back, to the end of
        either connection. False: that process could not be reached (it just died: its locks
        are not freed yet), nothing sent; the seat is served here."""
        try:
            up = await connect(
                address, max_size=MAX_FRAME, compression=None, open_timeout=5, close_timeout=2
            )
        except (OSError, TimeoutError, InvalidHandshake) as e:
            log.info("relaying to %s: %s", address, e)
            return False
        try:
            async with up:
                self.relayed += 1
                await up.send(hello)
                down = asyncio.ensure_future(self._down(up, conn))
                try:
                    async for raw in conn.ws:
                        await self.server._slow(conn)
                        await up.send(raw)
                except ConnectionClosed:
                    pass
                finally:
                    down.cancel()
        except OSError as e:  # the owner's socket failed mid-way
            log.info("relaying to %s: %s", address, e)
        conn.close(AGAIN, "try again")  # (a no-op when closed already)
        return True

    async def _down(self, up: Any, conn: Any) -> None:
        try:
            async for raw in up:
                conn.post(raw)
        except ConnectionClosed:
            pass
        finally:
            got = up.protocol.close_rcvd  # the owner's close frame (None: it went away)
            if got is not None and got.code not in (1005, 1006):  # the owner closed: as it said
                conn.close(got.code, got.reason)
            else:  # the owner is gone: the seat reconnects (the game is claimed where it lands)
                conn.close(AGAIN, "the game's server went away: try again")

    async def recheck(self) -> None:
        """The games served here whose owner is another process holding a seat of them (both
        seats arrived at once): each seat here is sent back to come again, relayed, and the
        game is dropped here."""
        if self.address is None:
            return
        games, follow = self.server.games, self.server.follow
        held = {
            g: h for g, h in games.items() if not follow.owns(g) and h.conns and h.ended is None
        }
        if not held:
            return
        sides = sorted({s for h in held.values() for s in h.meta.seats})
        try:  # one statement for them all (after a kill, hundreds wait to be claimed)
            owned = await self.server._db(self.server.store.owners_with_seats, list(held), sides)
        except Exception as e:
            log.warning("the games' owners: %s", e)
            return
        for game_id in owned:
            hosted = held[game_id]
            if games.get(game_id) is not hosted or follow.owns(game_id):
                continue
            del games[game_id]
            for conn in list(hosted.conns.values()):
                conn.close(AGAIN, "this game is played on another server process: try again")
            log.info("game %s: its seats here relayed to its owner", game_id)
