"""The wire between a hexfire server and its clients (docs/online.md): versioned JSON messages,
one a websocket text frame, each a pydantic model with a JSON schema (:func:`wire_schema`).

A client sends :data:`ClientMessage` values: ``hello`` (its seat's game and token: the first
message of a connection), ``create`` (a new game, by the host), ``act`` (an action in the
engine's JSON form with the view version it saw), ``undo``, ``ask`` (a question of its table),
``order`` (its standing Defensive First Fire order), ``record`` (its side's record, or the
whole save once the game is over). The server answers with :data:`ServerMessage` values:
``welcome``, ``view`` (the seat's new view: the answer to its action, or pushed when the other
side's action changed it), ``ready`` (what the server does by itself is done), ``refused``
(an action or request refused with its reason; nothing changed), ``error`` (a message that is
not one: malformed, unknown, oversized, a flood, a wrong token; nothing changed), ``created``,
``answer``, ``record`` and ``end`` (the result, the seed and salt revealed, the luck report).

Limits: a message is at most :data:`MAX_MESSAGE` bytes (``create`` :data:`MAX_CREATE`, it
carries a scenario); a frame larger than :data:`MAX_FRAME` closes the connection (1009).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game.engine.schema import problems
from game.engine.view import View

WIRE = 2
"""The wire's version: a hello or create of another version is refused with this one named.
2: a ``view`` message holds the view's new events only (:class:`ViewMessage`)."""

MAX_MESSAGE = 16 * 1024
"""The largest message a client may send but ``create`` (16 KiB; an action is under 200 bytes)."""
MAX_CREATE = 512 * 1024
"""The largest ``create`` message (512 KiB: the scenario it carries; the 200 x 200 map's is
100 KiB)."""
MAX_FRAME = MAX_CREATE + 4096
"""The socket's own limit: a larger frame closes the connection (websocket close code 1009)."""
MAX_SERVER_FRAME = 64 * 1024 * 1024
"""The largest frame a client reads (a whole save of a long game on the largest map)."""

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)

GameId = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$", description="16 hex digits")]
Token = Annotated[
    str,
    Field(pattern=r"^[A-Za-z0-9_-]{22,64}$", description="a seat's token (>= 128 bits, base64url)"),
]
Seq = Annotated[int, Field(ge=0, lt=2**53, description="the client's message number")]
Version = Annotated[int, Field(ge=0, lt=2**53, description="a view version")]
SideName = Annotated[str, Field(min_length=1, max_length=64, description="a side's name")]


# --- client -> server -------------------------------------------------------------------------


class Hello(BaseModel):
    """The first message of a seat's connection: its game and token (the link's). ``peek``:
    only a look at the seat's welcome (whose move it is, for a list of games); the seat is
    not taken (a window open on it goes on) and the connection is closed after."""

    model_config = _STRICT
    t: Literal["hello"]
    wire: int
    game: GameId
    token: Token
    peek: bool = False


class Create(BaseModel):
    """A new game of ``scenario_text`` (the host's); ``computer``: the side the server's
    computer plays and its ``level`` (0-3)."""

    model_config = _STRICT
    t: Literal["create"]
    wire: int
    scenario_name: Annotated[str, Field(min_length=1, max_length=200)]
    scenario_text: Annotated[str, Field(max_length=MAX_CREATE)]
    computer: SideName | None = None
    level: Annotated[int, Field(ge=0, le=3)] = 2


class Act(BaseModel):
    """An action in the engine's JSON form (``{"type": "move", ...}``; a "?" by its alias) and
    the version of the view it was chosen from: an action chosen from an older view is stale."""

    model_config = _STRICT
    t: Literal["act"]
    seq: Seq
    version: Version
    action: dict[str, Any]


class UndoRequest(BaseModel):
    """Take back this side's last action (RD-19), chosen from view ``version``."""

    model_config = _STRICT
    t: Literal["undo"]
    seq: Seq
    version: Version


QUESTIONS = (
    "odds",
    "fire_map",
    "threat_map",
    "threat_here",
    "threat_facings",
    "attack_map",
    "move_costs",
    "route",
    "reachable",
    "setup_area",
    "setup_hexes",
    "viewshed",
    "exit_edge",
    "check",
    "can_act",
    "nothing_to_do",
    "setup_choices",
    "name",
    "where",
    "unit_type",
    "known_enemies",
    "out_of_play",
    "exited",
    "gone",
    "home_hexes",
    "digest",
)
"""The questions a seat may ask of its table (:class:`~game.engine.table.Table`), by name."""
Question = Literal[QUESTIONS]  # type: ignore[valid-type]


class Ask(BaseModel):
    """A question of this seat's table, with its arguments (unit ids as this side knows them)."""

    model_config = _STRICT
    t: Literal["ask"]
    seq: Seq
    question: Question
    args: Annotated[list[Any], Field(max_length=4)] = []


DffPolicy = Literal["ask", "pass", "kill", "case_j1"]


class DffOrder(BaseModel):
    """A seat's standing order for its Defensive First Fire chances while it is away (C6.17):
    ``ask`` (wait for me), ``pass``, ``kill`` (fire when the best shot's kill chance is at least
    ``percent``%), ``case_j1`` (fire when the best shot has Case J1 or better, C6.11)."""

    model_config = _STRICT
    policy: DffPolicy = "ask"
    percent: Annotated[int, Field(ge=1, le=100)] = 50


class Order(BaseModel):
    """Set this seat's standing Defensive First Fire order (its own side only sees it)."""

    model_config = _STRICT
    t: Literal["order"]
    seq: Seq
    dff: DffOrder


class RecordRequest(BaseModel):
    """This side's record during the game; the whole save (with the seed) once it is over."""

    model_config = _STRICT
    t: Literal["record"]
    seq: Seq


ClientMessage = Annotated[
    Hello | Create | Act | UndoRequest | Ask | Order | RecordRequest, Field(discriminator="t")
]
CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# --- server -> client -------------------------------------------------------------------------


class Commitment(BaseModel):
    """The seed's commitment, published at creation: SHA-256 of ``hexfire-seed-v1:SEED:SALT``
    (:mod:`game.files.honest`); ``scenario_sha256``: the SHA-256 of the scenario's text, where
    the game's hash chain starts."""

    model_config = _STRICT
    scheme: Literal["hexfire-seed-v1"] = "hexfire-seed-v1"
    sha256: str
    scenario_sha256: str


class Welcome(BaseModel):
    """A seat's connection accepted: its side, who sits where, the public scenario (its title
    and map: never its units, which name the other side's set-up and its "?"), the commitment,
    its view, its standing order."""

    model_config = _STRICT
    t: Literal["welcome"] = "welcome"
    wire: int = WIRE
    game: GameId
    side: str
    seats: dict[str, str]
    title: str
    map: dict[str, Any]
    month: int | None
    commitment: Commitment
    order: DffOrder
    view: View
    markers: dict[str, Any]


class ViewMessage(BaseModel):
    """The seat's view now: the answer to its message ``seq``, or pushed (``seq`` None) when the
    other side's action changed what it sees. ``markers``: the map's wrecks and smoke.
    ``ready``: the server has done all it does by itself (the computer's actions, the phases
    passed by themselves, a standing order) and waits for a seat; else more follows, and a
    view or a ``ready`` message with ``ready`` true ends it.

    Wire 2: ``after`` is the version of the view this connection last received (its welcome's
    or its last ``view``'s) and ``view.events`` holds only the events after the first ``kept``
    of that view's (:mod:`game.net.delta`): the whole view is that view's first ``kept`` events
    and these. ``kept`` is below that view's count when an undo took events back. ``after``
    None: the view is whole. A client whose view is not of version ``after`` missed a message and
    connects again (its welcome holds the whole view)."""

    model_config = _STRICT
    t: Literal["view"] = "view"
    seq: int | None = None
    ready: bool = True
    after: Version | None = None
    kept: Annotated[int, Field(ge=0, lt=2**53)] = 0
    view: View
    markers: dict[str, Any]


class Ready(BaseModel):
    """What the server did by itself is done (the view of ``version`` is the seat's latest)."""

    model_config = _STRICT
    t: Literal["ready"] = "ready"
    version: int


class Refused(BaseModel):
    """A request refused with its reason; nothing changed. ``version``: the seat's view version
    now (a stale client catches up)."""

    model_config = _STRICT
    t: Literal["refused"] = "refused"
    seq: int | None
    code: str
    reason: str
    version: int | None = None


class ErrorMessage(BaseModel):
    """A message that is not one (malformed, unknown, oversized), a flood, a wrong token or a
    missing game (the same answer), a seat taken over by another window."""

    model_config = _STRICT
    t: Literal["error"] = "error"
    code: str
    reason: str


class Created(BaseModel):
    """A new game: its id, the token of each seat a player takes (the computer's has none),
    its commitment."""

    model_config = _STRICT
    t: Literal["created"] = "created"
    game: GameId
    tokens: dict[str, str]
    commitment: Commitment


class Answer(BaseModel):
    """The answer to the question ``seq`` (JSON values: tuples as lists)."""

    model_config = _STRICT
    t: Literal["answer"] = "answer"
    seq: int
    value: Any


class OrderSet(BaseModel):
    """The seat's standing order, as set."""

    model_config = _STRICT
    t: Literal["order"] = "order"
    seq: int | None
    dff: DffOrder


class RecordMessage(BaseModel):
    """``kind`` "side": this side's record (its own actions as it took them, the events as it
    may read them); "full": the whole save, seed and salt included (after the end)."""

    model_config = _STRICT
    t: Literal["record"] = "record"
    seq: int
    kind: Literal["side", "full"]
    record: dict[str, Any]


class End(BaseModel):
    """The game is over: the result, the seed and salt revealed (check them against the
    commitment), the head of the hash chain, and the luck report of each side."""

    model_config = _STRICT
    t: Literal["end"] = "end"
    winner: str | None
    reason: str
    seed: int
    salt: str
    commitment: Commitment
    chain: str
    luck: dict[str, Any]


ServerMessage = Annotated[
    Welcome
    | ViewMessage
    | Ready
    | Refused
    | ErrorMessage
    | Created
    | Answer
    | OrderSet
    | RecordMessage
    | End,
    Field(discriminator="t"),
]
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


class WireError(ValueError):
    """A message that is not one; ``code``: "malformed", "unknown" or "oversized"."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def read_client(
    data: str | bytes,
) -> Hello | Create | Act | UndoRequest | Ask | Order | RecordRequest:
    """A client's message checked against the schema; WireError with a one-line reason."""
    if isinstance(data, bytes):
        raise WireError("malformed", "a message is a text frame (JSON), not binary")
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_CREATE:
        raise WireError("oversized", f"a message is at most {MAX_CREATE // 1024} KiB")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        raise WireError("malformed", "not JSON") from None
    if not isinstance(raw, dict):
        raise WireError("malformed", "a message is a JSON object")
    kind = raw.get("t")
    if kind not in _KINDS:
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
        raise WireError("unknown", f"unknown message type {shown!r} (known: {', '.join(_KINDS)})")
    if kind != "create" and size > MAX_MESSAGE:
        raise WireError("oversized", f"a {kind} message is at most {MAX_MESSAGE // 1024} KiB")
    try:
        return CLIENT.validate_python(raw)
    except ValidationError as e:
        model = _KINDS[kind]
        first = problems(model, e)[0]
        where = first.path.removeprefix(f"{kind}.") if first.path else kind
        raise WireError("malformed", f"{kind}: {where}: {first.reason}") from None


_KINDS: dict[str, type[BaseModel]] = {
    "hello": Hello,
    "create": Create,
    "act": Act,
    "undo": UndoRequest,
    "ask": Ask,
    "order": Order,
    "record": RecordRequest,
}


def read_server(data: str | bytes):
    """A server's message checked against the schema (the client's side); WireError."""
    try:
        return SERVER.validate_json(data)
    except ValidationError as e:
        reason = f"a server message that is not one: {e.errors()[0]['msg']}"
        raise WireError("malformed", reason) from None


def wire_schema() -> dict:
    """The JSON schema of both directions (docs/online.md)."""
    return {
        "version": WIRE,
        "limits": {"message": MAX_MESSAGE, "create": MAX_CREATE, "frame": MAX_FRAME},
        "client": CLIENT.json_schema(),
        "server": SERVER.json_schema(),
    }


def dumps(message: BaseModel) -> str:
    """A server message's JSON text (its view by :meth:`View.to_json`, made once per view)."""
    view = getattr(message, "view", None)
    if isinstance(view, View):
        head = message.model_dump_json(exclude={"view"})
        return f'{head[:-1]},"view":{view.to_json()}}}'
    return message.model_dump_json()
