"""The scenario file's schema (pydantic, strict): every table, key and type of the format
(docs/scenario-format.md), and the checks of one field against the map and the catalogue,
which the validation reads from its context. Checks that join several units or tables (one
vehicle a hex, a victory naming a unit) are the set-up's, in :mod:`.scenario`."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    model_validator,
)

from game.board import Board
from game.board.hexes import column_index
from game.engine.actions import ACTION_TYPES
from game.engine.catalogue import UnitType
from game.engine.phases import PHASES
from game.engine.schema import shown
from game.engine.setup import EDGES, EXIT_ONLY, VICTORY_KINDS, SetupArea

from .lesson import MAX_STEP_CHARS, MAX_STEPS, OVERLAYS, POINTS

MAX_UNITS = 200
"""The most units a scenario has (the largest shipped has 32): legal actions check every firer
against every target, some 0.1 s an action with 200 units on a 200 x 200 map."""

DATE = re.compile(r"^(19[3-4]\d)-(0[1-9]|1[0-2])$")


@dataclass(frozen=True)
class Context:
    """What a field is checked against: the map (None when it is itself wrong), the catalogue,
    the scenario's date (None when wrong) and its side names."""

    board: Board | None
    types: dict[str, UnitType]
    date: str | None
    sides: tuple[str, ...]


def unprintable(value: str, allow: str = "") -> str | None:
    """Why ``value`` may not be a name, an id or a title (None: it may): it holds a control or
    format character (a NUL, an escape, a bidirectional override) or a lone surrogate, other
    than those in ``allow`` (a briefing's newlines and tabs)."""
    for ch in value:
        if ch in allow:
            continue
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            shown = ch.encode("unicode_escape", "backslashreplace").decode("ascii")
            return f"a control character ({shown}) is not allowed here"
    return None


def _name(value: str) -> str:
    if not value.strip():
        raise ValueError(f"expected a non-empty string, got {shown(value)}")
    bad = unprintable(value)
    if bad:
        raise ValueError(bad)
    return value


def _text(value: str) -> str:
    if not value.strip():
        raise ValueError(f"expected a non-empty string, got {shown(value)}")
    bad = unprintable(value, allow="\n\t")
    if bad:
        raise ValueError(bad)
    return value


def _ctx(info: ValidationInfo) -> Context:
    assert isinstance(info.context, Context), "validate with a Context"
    return info.context


def _catalogue_type(value: str, info: ValidationInfo) -> str:
    """A unit type the catalogue holds, available at the scenario's date."""
    ctx = _ctx(info)
    t = ctx.types.get(value)
    if t is None:
        raise ValueError(f"unknown catalogue type {shown(value)}")
    if ctx.date and (t.available or "") > ctx.date:
        raise ValueError(
            f"{t.name} is not available before {t.available} (the scenario is dated {ctx.date})"
        )
    return value


def _side(value: str, info: ValidationInfo) -> str:
    sides = _ctx(info).sides
    if value not in sides:
        raise ValueError(f"expected one of {', '.join(sides)}, got {shown(value)}")
    return value


def _hex(value: str, info: ValidationInfo) -> str:
    """A hex on the map, in the file's one spelling (upper case kept as written)."""
    board = _ctx(info).board
    if board is not None:
        board.parse(value)  # its ValueError says why ("Z9 is off the map")
    return value


def setup_area(value: dict[str, str]) -> SetupArea:
    """A set-up area table ``{columns = "A-E", rows = "1-10"}`` (either may be left out)."""
    if not value:
        raise ValueError('expected a table like {columns = "A-E", rows = "1-10"}')
    try:
        columns = rows = None
        if "columns" in value:
            lo, _, hi = value["columns"].partition("-")
            columns = (column_index(lo), column_index(hi or lo))
        if "rows" in value:
            lo, _, hi = value["rows"].partition("-")
            rows = (int(lo) - 1, int(hi or lo) - 1)
    except ValueError as e:
        raise ValueError(f"bad set-up area: {e}") from None
    return SetupArea(columns, rows)


def _one_of(values: tuple[str, ...]) -> AfterValidator:
    """A string that is one of ``values`` (the engine's own tuple: one source for the names)."""

    def check(value: str) -> str:
        if value not in values:
            raise ValueError(f"expected one of {', '.join(values)}, got {shown(value)}")
        return value

    return AfterValidator(check)


def _at_most_units(value: object) -> object:
    if isinstance(value, list) and len(value) > MAX_UNITS:
        raise ValueError(
            f"{len(value):,} units: a scenario has at most {MAX_UNITS} (every action checks "
            "each firer against each target; docs/scenario-format.md)"
        )
    if isinstance(value, list) and not value:
        raise ValueError("expected [[units]] tables")
    return value


def _two_sides(value: object) -> object:
    if not isinstance(value, dict) or len(value) != 2:
        raise ValueError("expected two [sides.NAME] tables")
    for name in value:
        if len(name) > MAX_ID_CHARS:
            raise ValueError(f"a side's name has at most {MAX_ID_CHARS} characters")
    return value


def _some(what: str):  # a list that may not be empty
    def check(value: object) -> object:
        if isinstance(value, list) and not value:
            raise ValueError(f"expected {what}")
        return value

    return check


_TABLE = ConfigDict(strict=True, extra="forbid")
MAX_ID_CHARS = 64
"""The longest id (of the scenario, of a unit) and side name."""
MAX_TITLE_CHARS = 200
MAX_BRIEFING_CHARS = 20_000

Id = Annotated[
    str,
    Field(description=f"a name of at most {MAX_ID_CHARS} characters", max_length=MAX_ID_CHARS),
    AfterValidator(_name),
]
Title = Annotated[
    str,
    Field(
        description=f"a title of at most {MAX_TITLE_CHARS} characters", max_length=MAX_TITLE_CHARS
    ),
    AfterValidator(_name),
]
HexLabel = Annotated[
    str, Field(description='a hex label like "W6"', max_length=16), AfterValidator(_hex)
]
SideName = Annotated[
    str, Field(description="a side's name", max_length=MAX_ID_CHARS), AfterValidator(_side)
]
Direction = Annotated[int, Field(ge=0, le=5, description="0-5")]
Flag = Annotated[bool, Field(description="true or false")]


class Rules(BaseModel):
    model_config = _TABLE
    to_kill: Annotated[Literal["asl", "chart"], Field(description='"asl" or "chart"')] = "asl"


class Side(BaseModel):
    model_config = _TABLE
    nationality: Annotated[str, Field(description="a string")]
    defender: Flag = False
    moves_first: Flag = False


class Area(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    columns: Annotated[str, Field(description='columns like "A-E"', max_length=40)] | None = None
    rows: Annotated[str, Field(description='rows like "1-10"', max_length=40)] | None = None

    @model_validator(mode="after")
    def _readable(self) -> Area:
        self.area()  # its ValueError says what is wrong ("bad set-up area: ...")
        return self

    def area(self) -> SetupArea:
        """The area as the engine reads it."""
        return setup_area(self.model_dump(exclude_none=True))


class Unit(BaseModel):
    model_config = _TABLE
    id: Id
    type: Annotated[
        str, Field(description="a catalogue type", max_length=64), AfterValidator(_catalogue_type)
    ]
    side: SideName
    hex: HexLabel
    facing: Direction = 0
    turret: Direction | None = None
    concealed: Flag = False
    ce: Flag = False
    bore_sight: HexLabel | None = None
    setup_area: Annotated[
        Area | None, Field(description='a table like {columns = "A-E", rows = "1-10"}')
    ] = None

    def area(self) -> SetupArea | None:
        """The set-up area as the engine reads it."""
        return None if self.setup_area is None else self.setup_area.area()


class VictoryCondition(BaseModel):
    model_config = _TABLE
    side: SideName
    kind: Annotated[str, _one_of(VICTORY_KINDS), Field(description="a kind of victory")]
    count: Annotated[int, Field(ge=0, description="a whole number")] = 0
    hexes: Annotated[list[HexLabel], Field(description="a list of hex labels")] = []
    units: Annotated[list[str], Field(description="a list of unit ids")] = []
    edge: Annotated[str, _one_of(EDGES), Field(description="a map edge")] | None = None
    only: Annotated[str, _one_of(tuple(EXIT_ONLY)), Field(description="what counts")] | None = None


def _point(value: str, info: ValidationInfo) -> str:
    """A hex on the map, or a part of the screen by name (:data:`.lesson.POINTS`)."""
    if value in POINTS:
        return value
    try:
        return _hex(value, info)
    except ValueError as e:
        raise ValueError(f"expected a hex or one of {', '.join(POINTS)}: {e}") from None


def _action_fields(value: dict[str, str | int | bool]) -> dict[str, str | int | bool]:
    """An action's JSON form, in part: its ``type`` and any of that type's fields."""
    kind = value.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"expected type = one of {', '.join(ACTION_TYPES)}, got {shown(kind)}")
    known = set(cls.__dataclass_fields__)
    for key in value:
        if key != "type" and key not in known:
            raise ValueError(
                f"a {kind} action has no field {shown(key)} (it has: {', '.join(sorted(known))})"
            )
    return value


StepText = Annotated[
    str,
    Field(description=f"a text of at most {MAX_STEP_CHARS} characters", max_length=MAX_STEP_CHARS),
    AfterValidator(_text),
]


class LessonStep(BaseModel):
    """One step of a lesson (docs/scenario-format.md, ``[[lesson.steps]]``)."""

    model_config = _TABLE
    say: StepText
    why: StepText | None = None
    point: (
        Annotated[
            str, Field(description="a hex or a screen part", max_length=16), AfterValidator(_point)
        ]
        | None
    ) = None
    do: (
        Annotated[
            dict[str, str | int | bool],
            Field(description='a table like {type = "move", unit = "rus-t34-1"}'),
            AfterValidator(_action_fields),
        ]
        | None
    ) = None
    select: Annotated[str, Field(description="a unit id", max_length=MAX_ID_CHARS)] | None = None
    look: (
        Annotated[list[HexLabel], Field(description="two hex labels", min_length=2, max_length=2)]
        | None
    ) = None

    phase: Annotated[str, _one_of(tuple(PHASES)), Field(description="a phase name")] | None = None
    side: SideName | None = None
    show: Annotated[str, _one_of(OVERLAYS), Field(description="an overlay")] | None = None

    @model_validator(mode="after")
    def _one_wait(self) -> LessonStep:
        if self.side is not None and self.phase is None:
            raise ValueError("side names whose phase the step waits for: give phase too")
        waits = [k for k in ("do", "select", "look", "phase") if getattr(self, k) is not None]
        if self.show is not None:  # an overlay, of the unit ``select`` names
            waits = [k for k in waits if k != "select"] + ["show"]
        if len(waits) > 1:
            raise ValueError(f"a step waits for one thing: {' and '.join(waits)} given")
        return self


class LessonTable(BaseModel):
    """A scenario's lesson: its place in the series and its steps."""

    model_config = _TABLE
    number: Annotated[int, Field(ge=1, le=99, description="an integer 1-99")]
    steps: Annotated[
        list[LessonStep],
        Field(description=f"1-{MAX_STEPS} [[lesson.steps]] tables", min_length=1),
        BeforeValidator(_some("[[lesson.steps]] tables")),
    ]

    @model_validator(mode="after")
    def _not_too_many(self) -> LessonTable:
        if len(self.steps) > MAX_STEPS:
            raise ValueError(f"{len(self.steps)} steps: a lesson has at most {MAX_STEPS}")
        return self


class ScenarioFile(BaseModel):
    """A scenario file, table by table (the ``[map]`` table is the board's: it is checked by
    :meth:`game.board.Board.from_map_table`, with its own located errors)."""

    model_config = _TABLE
    id: Id
    title: Title
    briefing: Annotated[
        str,
        Field(
            description=f"a text of at most {MAX_BRIEFING_CHARS:,} characters",
            max_length=MAX_BRIEFING_CHARS,
        ),
        AfterValidator(_text),
    ]
    date: Annotated[
        str, Field(pattern=DATE.pattern, description="YYYY-MM (1930-1949)", max_length=16)
    ]
    turns: Annotated[int, Field(ge=1, le=99, description="an integer 1-99")]
    rules: Annotated[Rules, Field(description="a table")] = Rules()
    map: Annotated[dict[str, Any], Field(description="a [map] table")]
    sides: Annotated[
        dict[str, Side],
        BeforeValidator(_two_sides),
        Field(description="two [sides.NAME] tables"),
    ]
    units: Annotated[
        list[Unit], BeforeValidator(_at_most_units), Field(description="[[units]] tables")
    ]
    victory: Annotated[
        list[VictoryCondition],
        BeforeValidator(_some("[[victory]] tables (RD-13)")),
        Field(description="[[victory]] tables (RD-13)"),
    ]
    lesson: Annotated[LessonTable | None, Field(description="a [lesson] table")] = None

    def sides_names(self) -> tuple[str, ...]:
        """The two sides' names, in the file's order."""
        return tuple(self.sides)
