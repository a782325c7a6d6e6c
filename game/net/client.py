"""A seat's client of a hexfire server (docs/online.md): invitation links, creating a game, and
:class:`Client`, one seat's connection that reconnects by itself with back-off and resumes
where it stood (the welcome's view version says what it missed).

A link is ``ws://HOST:PORT/game/GAME#TOKEN`` (``wss://`` with a certificate; a path before
``/game/`` when the server sits behind a reverse proxy). The token is in the fragment: a
browser or a proxy never sends it in a request line; the client sends it in its first message.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from game.engine.view import View

from .delta import extend
from .wire import (
    MAX_SERVER_FRAME,
    WIRE,
    Answer,
    Created,
    DffOrder,
    End,
    ErrorMessage,
    OrderSet,
    Ready,
    RecordMessage,
    Refused,
    ViewMessage,
    Welcome,
    WireError,
    read_server,
)

_GAME = re.compile(r"^[0-9a-f]{16}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,64}$")


class LinkError(ValueError):
    """A link that is not a hexfire invitation (one line)."""


class NetError(Exception):
    """The server could not be reached, or refused the seat (one line)."""


class Refusal(Exception):
    """A request the server refused: its ``code`` and ``reason``; nothing changed."""

    def __init__(self, code: str, reason: str, version: int | None = None):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.version = version


class Disconnected(NetError):
    """The connection dropped with a request in flight: whether the server took it, the next
    view says (its version)."""


@dataclass(frozen=True)
class Link:
    """A seat's invitation: the server's URL for this game, the game and the seat's token."""

    url: str
    game: str
    token: str

    @classmethod
    def parse(cls, text: str) -> Link:
        text = text.strip()
        try:
            parts = urlsplit(text)
        except ValueError:
            raise LinkError("not a link") from None
        if parts.scheme not in ("ws", "wss") or not parts.netloc:
            raise LinkError("a hexfire link starts ws:// or wss://")
        segments = parts.path.rstrip("/").split("/")
        if len(segments) < 3 or segments[-2] != "game" or not _GAME.match(segments[-1]):
            raise LinkError("a hexfire link ends /game/GAME#TOKEN (GAME: 16 hex digits)")
        if not _TOKEN.match(parts.fragment):
            raise LinkError("the link's token (after #) is missing or malformed")
        url = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
        return cls(url, segments[-1], parts.fragment)

    def text(self) -> str:
        return f"{self.url}#{self.token}"


def server_url(text: str) -> str:
    """A server's URL as given to ``hexfire host --server`` (ws:// or wss://, any path)."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        raise LinkError("--server: not a URL") from None
    if parts.scheme not in ("ws", "wss") or not parts.netloc:
        raise LinkError("--server: expected ws://HOST:PORT or wss://HOST[:PORT][/PATH]")
    if parts.fragment or parts.query:
        raise LinkError("--server: a server's URL has no ? or #")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def invitation(server: str, game: str, token: str) -> Link:
    """The link of a seat of ``game`` on ``server``."""
    return Link(f"{server_url(server)}/game/{game}", game, token)


def invitations(server: str, created: Created) -> dict[str, Link]:
    """The link of each player seat of a game just created on ``server``."""
    return {side: invitation(server, created.game, t) for side, t in created.tokens.items()}


async def _open(url: str, timeout: float) -> ClientConnection:
    try:
        return await asyncio.wait_for(
            connect(
                url,
                max_size=MAX_SERVER_FRAME,
                compression=None,
                open_timeout=timeout,
                ping_interval=20,
                ping_timeout=20,
            ),
            timeout,
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as e:
        raise NetError(f"{url}: cannot connect: {e or type(e).__name__}") from None


async def create_game(
    server: str,
    scenario_name: str,
    scenario_text: str,
    computer: str | None = None,
    level: int = 2,
    timeout: float = 60.0,
) -> Created:
    """Create a game on ``server``; its id and each player seat's token (Refusal, NetError)."""
    ws = await _open(server_url(server), timeout)
    try:
        await ws.send(
            _json(
                {
                    "t": "create",
                    "wire": WIRE,
                    "scenario_name": scenario_name,
                    "scenario_text": scenario_text,
                    "computer": computer,
                    "level": level,
                }
            )
        )
        reply = read_server(await asyncio.wait_for(ws.recv(), timeout))
    except (ConnectionClosed, TimeoutError) as e:
        raise NetError(f"{server}: no answer ({type(e).__name__})") from None
    except WireError as e:
        raise NetError(f"{server}: {e}") from None
    finally:
        await ws.close()
    if isinstance(reply, Created):
        return reply
    if isinstance(reply, (Refused, ErrorMessage)):
        raise Refusal(reply.code, reply.reason)
    raise NetError(f"{server}: an unexpected answer ({reply.t})")


def _json(d: dict) -> str:
    import json

    return json.dumps(d, separators=(",", ":"))


async def peek(link: Link, timeout: float = 10.0) -> Welcome:
    """A look at a seat's welcome (whose move it is) without taking the seat: a window open
    on it goes on (NetError when the server cannot be reached or refuses the link)."""
    client = Client(link, timeout=timeout)
    client.peek = True
    try:
        return await client._join()
    finally:
        await client.close()


@dataclass(frozen=True)
class Backoff:
    """Reconnection delays: ``first`` seconds, doubling to ``most``, with +-``jitter``."""

    first: float = 0.25
    most: float = 10.0
    jitter: float = 0.2

    def delays(self):
        d = self.first
        while True:
            yield d * (1 + random.uniform(-self.jitter, self.jitter))
            d = min(self.most, d * 2)


def dropped(ws: ClientConnection) -> str:
    """Why ``ws`` (closed) ended: the close code and reason the server sent, else those this end
    sent (websockets' "1011 keepalive ping timeout"), else "1006 lost" (no close frame)."""
    protocol = ws.protocol
    if protocol.close_rcvd is not None:
        return f"{int(protocol.close_rcvd.code)} {protocol.close_rcvd.reason}".rstrip()
    if protocol.close_sent is not None:
        return f"{int(protocol.close_sent.code)} {protocol.close_sent.reason} (sent)".rstrip()
    return "1006 lost"


Status = str
""""connecting", "connected", "reconnecting", "taken over", "closed"."""


class Client:
    """One seat's connection, kept: it reconnects by itself with back-off when the connection
    drops (``status`` "reconnecting"), and stops when another window took the seat ("taken
    over") or :meth:`close` is called. ``on_message`` is told every server message (in this
    client's event loop); :attr:`view` is the seat's latest view."""

    def __init__(
        self,
        link: Link,
        on_message: Callable[[Any], None] | None = None,
        backoff: Backoff | None = None,
        timeout: float = 30.0,
    ):
        self.link = link
        self.on_message = on_message
        self.backoff = backoff or Backoff()
        self.timeout = timeout
        self.status: Status = "connecting"
        self.welcome: Welcome | None = None
        self.view: View | None = None
        self.markers: dict = {"wrecks": {}, "smoke": []}
        self.order: DffOrder = DffOrder()
        self.end: End | None = None
        self.error: str | None = None
        self.ready = False
        """The server waits for a seat (it has done what it does by itself)."""
        self.reconnects = 0
        """How many times the connection was made again after it dropped."""
        self.drops: Counter[str] = Counter()
        """Why the connection dropped, each time (not closed here): :func:`dropped`'s words."""
        self._news = asyncio.Event()
        self._ws: ClientConnection | None = None
        self._seq = 0
        self._waiting: dict[int, asyncio.Future] = {}
        self._runner: asyncio.Task | None = None
        self._closing = False
        self.peek = False
        """Only look (:func:`peek`): the seat is not taken."""

    # --- the connection ----------------------------------------------------------------------

    async def connect(self) -> Welcome:
        """Connect and take the seat (NetError when the server cannot be reached or refuses
        the seat); from then on the connection is kept."""
        welcome = await self._join()
        self._runner = asyncio.ensure_future(self._run())
        return welcome

    async def _join(self) -> Welcome:
        ws = await _open(self.link.url, self.timeout)
        try:
            hello = {"t": "hello", "wire": WIRE, "game": self.link.game, "token": self.link.token}
            if self.peek:
                hello["peek"] = True
            await ws.send(_json(hello))
            first = read_server(await asyncio.wait_for(ws.recv(), self.timeout))
        except (ConnectionClosed, TimeoutError) as e:
            await ws.close()
            raise NetError(f"{self.link.url}: no welcome ({type(e).__name__})") from None
        except WireError as e:
            await ws.close()
            raise NetError(f"{self.link.url}: {e}") from None
        if isinstance(first, ErrorMessage):
            await ws.close()
            raise NetError(f"{self.link.url}: {first.reason}")
        if not isinstance(first, Welcome):
            await ws.close()
            raise NetError(f"{self.link.url}: an unexpected answer ({first.t})")
        self._ws = ws
        self.welcome = first
        self.view = first.view
        self.markers = first.markers
        self.order = first.order
        self.ready = True
        self.status = "connected"
        self._tell(first)
        return first

    async def _run(self) -> None:
        """Read until the connection drops; then reconnect with back-off (unless closed or
        taken over)."""
        while not self._closing:
            ws = self._ws
            assert ws is not None
            try:
                async for raw in ws:
                    self._dispatch(raw)
            except ConnectionClosed:
                pass
            self._fail_waiting()
            if self._closing or self.status in ("taken over", "closed"):
                break
            self.drops[dropped(ws)] += 1
            self.status = "reconnecting"
            self._tell(None)
            for delay in self.backoff.delays():
                await asyncio.sleep(delay)
                if self._closing:
                    break
                try:
                    await self._join()
                    self.reconnects += 1
                    break
                except NetError as e:
                    self.error = str(e)
                    if "no such game" in str(e):
                        self.status = "closed"
                        self._tell(None)
                        return

    def _tell(self, message: Any) -> None:
        self._news.set()
        if self.on_message is not None:
            self.on_message(message)

    async def until(self, condition: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until ``condition()`` holds (checked after each message); TimeoutError."""
        async with asyncio.timeout(timeout if timeout is not None else self.timeout):
            while not condition():
                self._news.clear()
                await self._news.wait()

    def _fail_waiting(self) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(Disconnected("the connection dropped"))
        self._waiting.clear()

    def _dispatch(self, raw: str | bytes) -> None:
        try:
            msg = read_server(raw)
        except WireError as e:
            self.error = str(e)
            return
        if isinstance(msg, ViewMessage):
            view = extend(self.view, msg)  # its new events after those this client holds
            if view is None:  # a message missed: the whole view comes with the welcome again
                self.error = f"a view after version {msg.after} missed: connecting again"
                if self._ws is not None:
                    asyncio.ensure_future(self._ws.close(4001, "view missed"))
                return
            msg = msg.model_copy(update={"view": view, "after": None, "kept": 0})
            self.view = view
            self.markers = msg.markers
            self.ready = msg.ready
        elif isinstance(msg, Ready):
            self.ready = True
        elif isinstance(msg, Welcome):
            self.view = msg.view
        elif isinstance(msg, End):
            self.end = msg
        elif isinstance(msg, OrderSet):
            self.order = msg.dff
        elif isinstance(msg, ErrorMessage):
            self.error = msg.reason
            if msg.code == "taken_over":
                self.status = "taken over"
        seq = getattr(msg, "seq", None)
        if seq is not None and seq in self._waiting:
            future = self._waiting.pop(seq)
            if not future.done():
                future.set_result(msg)
        self._tell(msg)

    async def close(self) -> None:
        self._closing = True
        self.status = "closed"
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
        self._fail_waiting()

    # --- requests ----------------------------------------------------------------------------

    async def request(self, message: dict) -> Any:
        """Send ``message`` (its ``seq`` added) and wait for the answer to it; Refusal when
        refused, Disconnected when the connection dropped meanwhile."""
        if self._ws is None or self.status != "connected":
            raise Disconnected(f"not connected ({self.status})")
        self._seq += 1
        seq = self._seq
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting[seq] = future
        try:
            await self._ws.send(_json({**message, "seq": seq}))
        except ConnectionClosed:
            self._waiting.pop(seq, None)
            raise Disconnected("the connection dropped") from None
        try:  # (not wait_for: its own waiter put a second turn of the loop in every answer)
            async with asyncio.timeout(self.timeout):
                reply = await future
        except TimeoutError:
            self._waiting.pop(seq, None)
            raise Disconnected("no answer in time") from None
        if isinstance(reply, Refused):
            raise Refusal(reply.code, reply.reason, reply.version)
        return reply

    async def act(self, action: dict, version: int | None = None) -> View:
        """Take ``action`` (its JSON form), chosen from view ``version`` (the latest by
        default): the seat's new view."""
        if version is None:
            version = self.view.version if self.view is not None else 0
        reply = await self.request({"t": "act", "version": version, "action": action})
        return reply.view

    async def undo(self) -> View:
        version = self.view.version if self.view is not None else 0
        reply = await self.request({"t": "undo", "version": version})
        return reply.view

    async def ask(self, question: str, *args: Any) -> Any:
        reply = await self.request({"t": "ask", "question": question, "args": list(args)})
        assert isinstance(reply, Answer)
        return reply.value

    async def set_order(self, order: DffOrder) -> DffOrder:
        reply = await self.request({"t": "order", "dff": order.model_dump()})
        return reply.dff

    async def record(self) -> RecordMessage:
        return await self.request({"t": "record"})
