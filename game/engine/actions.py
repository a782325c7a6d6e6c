"""Actions: the only things a player (or a replay) can do, as frozen values with a JSON form.

The JSON form is the saved game's action list; keep it small and stable:

    {"type": "place", "unit": "ger-pak-1", "hex": "W6", "facing": 2}   set-up, in its area
    {"type": "bore_sight", "unit": "ger-pak-1", "hex": "W6"}     set-up (scenario defender)
    {"type": "conceal", "unit": "ger-pak-1"}                      set-up (scenario defender)
    {"type": "move", "unit": "ger-tank-1", "to": "W6"}            one hex ("off": leave the map)
    {"type": "turn", "unit": "ger-tank-1", "facing": 3}           one hexside (0-5)
    {"type": "end_move", "unit": "ger-tank-1", "motion": false}   stop (or stay in Motion)
    {"type": "button_up", "unit": "ger-tank-1"}                   BU
    {"type": "crew_exposed", "unit": "ger-tank-1"}                CE
    {"type": "fire", "unit": "rus-gun-1", "target": "ger-tank-1", "ammo": "AP"}
        optional "mp": in Defensive First Fire, the MP of the target's Location the shot claims
        (C6.17); without it, the fewest that give the smallest Case J DRM
    {"type": "pass"}                                              decline Defensive First Fire
    {"type": "end_phase"}
"""

from __future__ import annotations

import typing
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from .schema import problems, shown


class ActionError(ValueError):
    """An action whose JSON form is malformed."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Whether an action type can be taken back and what blocks it (RD-19), declared where the
    type is registered. ``never``: why it never can (None: it can, unless blocked). ``blocked``:
    what stops it: "dice" (a die was rolled for it), "other_side" (the other side acts now),
    "revealed" (the other side learned something from it: a unit lost its concealment, or it
    was offered Defensive First Fire)."""

    never: str | None = None
    blocked: tuple[str, ...] = ("dice", "other_side", "revealed")


UNDOABLE = Undo()
"""The usual declaration: it can be taken back unless a die, a turn of the other side or
something revealed blocks it (RD-19)."""


ACTION_TYPES: dict[str, type[Action]] = {}
"""The one registry of action types: the parser reads it, and the engine checks at import that
its handlers and the phase table name exactly these types (so an action cannot be legal in play
and unknown to a save)."""


A = TypeVar("A", bound="type[Action]")


def register(cls: A) -> A:
    """Class decorator: add an action type to :data:`ACTION_TYPES` (it declares its undo)."""
    if not cls.type or cls.type in ACTION_TYPES:
        raise ValueError(f"action type {cls.type!r} is empty or registered twice")
    if not isinstance(cls.__dict__.get("undo"), Undo):
        raise ValueError(f"action type {cls.type!r} declares no undo (RD-19)")
    ACTION_TYPES[cls.type] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Action:
    type: ClassVar[str] = ""
    undo: ClassVar[Undo] = UNDOABLE
    """Whether it can be taken back and what blocks it (RD-19): each type declares its own."""

    def to_json(self) -> dict:
        """The JSON form: the type, then each field that is not None, in field order (every
        field is a str, int, float or bool: no copy to make, unlike ``asdict``, which made a
        server's views' legal actions cost 4% of its time, issue 43)."""
        d: dict[str, Any] = {"type": self.type}
        for name in _names(type(self)):
            v = getattr(self, name)
            if v is not None:
                d[name] = v
        return d


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """An action type's field names, in order (worked out once per type)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


@register
@dataclass(frozen=True, slots=True)
class Place(Action):
    type: ClassVar[str] = "place"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str
    hex: str
    facing: int


@register
@dataclass(frozen=True, slots=True)
class BoreSight(Action):
    type: ClassVar[str] = "bore_sight"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str
    hex: str


@register
@dataclass(frozen=True, slots=True)
class Conceal(Action):
    type: ClassVar[str] = "conceal"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str


@register
@dataclass(frozen=True, slots=True)
class Move(Action):
    type: ClassVar[str] = "move"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str
    to: str


@register
@dataclass(frozen=True, slots=True)
class Turn(Action):
    type: ClassVar[str] = "turn"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str
    facing: int


@register
@dataclass(frozen=True, slots=True)
class EndMove(Action):
    type: ClassVar[str] = "end_move"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str
    motion: bool = False


@register
@dataclass(frozen=True, slots=True)
class ButtonUp(Action):
    type: ClassVar[str] = "button_up"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str


@register
@dataclass(frozen=True, slots=True)
class CrewExposed(Action):
    type: ClassVar[str] = "crew_exposed"
    undo: ClassVar[Undo] = UNDOABLE
    unit: str


@register
@dataclass(frozen=True, slots=True)
class Fire(Action):
    type: ClassVar[str] = "fire"
    undo: ClassVar[Undo] = Undo(never="a shot rolls the dice: no undo across a die roll (RD-19)")
    unit: str
    target: str
    ammo: str | None = None
    mp: float | None = None


@register
@dataclass(frozen=True, slots=True)
class Pass(Action):
    type: ClassVar[str] = "pass"
    undo: ClassVar[Undo] = Undo(
        never="a Defensive First Fire chance given up is gone: the mover moved on (C6.17, RD-19)"
    )


@register
@dataclass(frozen=True, slots=True)
class EndPhase(Action):
    type: ClassVar[str] = "end_phase"
    undo: ClassVar[Undo] = UNDOABLE


def _schema(cls: type[Action]) -> type[BaseModel]:
    """The strict pydantic schema of an action type, derived from its dataclass fields (the
    dataclass stays the value the engine builds by the thousand; only a file is validated)."""
    hints = typing.get_type_hints(cls)
    spec: dict[str, Any] = {
        f.name: (hints[f.name], ... if f.default is MISSING else f.default) for f in fields(cls)
    }
    return create_model(cls.__name__, __config__=_STRICT, **spec)


_STRICT = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)
_SCHEMAS: dict[str, type[BaseModel]] = {}


_PARSED: dict[tuple, Action] = {}
"""Actions already parsed, by their JSON form with each value's type (a save repeats the same
few actions: End Phase, Pass, a placement; reading a 200,000-action save parsed each twice)."""
MAX_PARSED = 8192


def action_from_json(d: object) -> Action:
    """Parse an action's JSON form by its type's schema (strict: no ``true`` for a number, no
    string for a facing, no NaN, no unknown field); ActionError says what is wrong."""
    if not isinstance(d, dict):
        raise ActionError(f"an action is a JSON object, not {type(d).__name__}")
    try:  # the type is part of the key: True == 1, and only one of them is a facing
        key = tuple((k, type(v), v) for k, v in d.items())
        hash(key)
    except TypeError:  # a list or an object in it: parsed (and refused) below
        key = ()
    if key and (done := _PARSED.get(key)) is not None:
        return done
    action = _parse(d)
    if key:
        if len(_PARSED) >= MAX_PARSED:
            _PARSED.clear()
        _PARSED[key] = action
    return action


def _parse(d: dict) -> Action:
    kind = d.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError(f"unknown action type {shown(kind)} (known: {', '.join(ACTION_TYPES)})")
    model = _SCHEMAS.get(cls.type)
    if model is None:
        model = _SCHEMAS[cls.type] = _schema(cls)
    try:
        values = model.model_validate({k: v for k, v in d.items() if k != "type"})
    except ValidationError as e:
        first = problems(model, e)[0]
        raise ActionError(f"{kind}.{first.path}: {first.reason}") from None
    return cls(**dict(values))
