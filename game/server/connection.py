"""A client's connection to the server (game.server.server): its outbox, written by a task of
its own (a client that does not read never holds up a game), its flood bucket, the limits a
client is held to, and where the server's secrets come from (tokens, game ids, seeds, salts)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from game.net.wire import MAX_FRAME, WIRE, ErrorMessage, dumps

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


def wire_error(version: int) -> str:
    """The error message to a client of another wire version."""
    reason = f"this server speaks wire version {WIRE}, not {version}"
    return dumps(ErrorMessage(code="wire", reason=reason))


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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
        self.game: Any = None
        """The game it holds a seat of (a :class:`~.hosted.Hosted`), once it said hello."""
        self.sent_version: int | None = None
        self.sent: Any = None
        """The last view this connection was sent (a :class:`~game.engine.view.View`): the next
        is sent as its new events only (:func:`game.net.delta.view_message`)."""
        self.ready_sent = True
        self.closed = False
        self.tap: Callable[[str], None] | None = None
        self.hop = False
        """Relayed here by another server process (game.server.relay): never relayed on."""
        self.relay: str | None = None
        """The address of the server process this connection's seat is relayed to."""
        self._idle = False
        """Its writer waits for a message (none queued, none being written)."""
        self.writer = asyncio.ensure_future(self._write())

    def post(self, text: str) -> None:
        """Send a message: written to the socket at once when nothing waits before it, else
        queued for the writer (dropping a client whose outbox is full: it is not reading)."""
        if self.closed:
            return
        if self.outbox.qsize() >= self.limits.outbox:
            self.close(1008, "not reading")
            return
        if self.tap is not None:
            self.tap(text)
        if not (self._idle and self.outbox.empty() and self._now(text)):
            self.outbox.put_nowait(text)

    def _now(self, text: str) -> bool:
        """Write ``text`` to the socket now, as the writer's ``send`` would, in order (issue
        43: a message handed to the writer's task waited for the event loop's next turn,
        behind every callback of this one: a median 1.3 to 2.1 ms of a round trip at 500
        games, 5 to 8 ms in its slow tail). False when it is left to the writer: the
        connection not open, or the socket's buffer not empty (a client reading slowly: the
        writer waits for it to drain)."""
        ws = self.ws
        try:
            if (
                ws.protocol.state is not State.OPEN
                or ws.transport.get_write_buffer_size()
                or getattr(ws, "paused", False)
            ):
                return False
            ws.protocol.send_text(text.encode("utf-8"))
        except Exception:  # (nothing sent: the writer's send then says why)
            return False
        try:
            ws.send_data()
        except Exception as e:  # one client's socket: never the server
            log.warning("writing to a client: %s: %s", type(e).__name__, e)
            self.close(1011, "write failed")
        return True

    def take_over(self) -> None:
        """Its seat's window opened again (here or on another process): this one is told."""
        reason = "this seat was opened in another window"
        self.post(dumps(ErrorMessage(code="taken_over", reason=reason)))
        self.close(4000, "taken over")

    def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
            self._close = (code, reason)

    async def _write(self) -> None:
        try:
            while True:
                self._idle = True
                text = await self.outbox.get()
                self._idle = False
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


def listen(server: Any, host: str, port: int, ssl_context: Any = None):
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
        reuse_port=server.follow.shared,  # several processes on one port: the kernel spreads
    )
