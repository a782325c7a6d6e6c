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

from dataclasses import MISSING, asdict, dataclass, fields
from typing import ClassVar, TypeVar


class ActionError(ValueError):
    """An action whose JSON form is malformed."""


ACTION_TYPES: dict[str, type[Action]] = {}
"""The one registry of action types: the parser reads it, and the engine checks at import that
its handlers and the phase table name exactly these types (so an action cannot be legal in play
and unknown to a save)."""


A = TypeVar("A", bound="type[Action]")


def register(cls: A) -> A:
    """Class decorator: add an action type to :data:`ACTION_TYPES`."""
    if not cls.type or cls.type in ACTION_TYPES:
        raise ValueError(f"action type {cls.type!r} is empty or registered twice")
    ACTION_TYPES[cls.type] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Action:
    type: ClassVar[str] = ""

    def to_json(self) -> dict:
        d = {"type": self.type}
        d.update({k: v for k, v in asdict(self).items() if v is not None})
        return d


@register
@dataclass(frozen=True, slots=True)
class Place(Action):
    type: ClassVar[str] = "place"
    unit: str
    hex: str
    facing: int


@register
@dataclass(frozen=True, slots=True)
class BoreSight(Action):
    type: ClassVar[str] = "bore_sight"
    unit: str
    hex: str


@register
@dataclass(frozen=True, slots=True)
class Conceal(Action):
    type: ClassVar[str] = "conceal"
    unit: str


@register
@dataclass(frozen=True, slots=True)
class Move(Action):
    type: ClassVar[str] = "move"
    unit: str
    to: str


@register
@dataclass(frozen=True, slots=True)
class Turn(Action):
    type: ClassVar[str] = "turn"
    unit: str
    facing: int


@register
@dataclass(frozen=True, slots=True)
class EndMove(Action):
    type: ClassVar[str] = "end_move"
    unit: str
    motion: bool = False


@register
@dataclass(frozen=True, slots=True)
class ButtonUp(Action):
    type: ClassVar[str] = "button_up"
    unit: str


@register
@dataclass(frozen=True, slots=True)
class CrewExposed(Action):
    type: ClassVar[str] = "crew_exposed"
    unit: str


@register
@dataclass(frozen=True, slots=True)
class Fire(Action):
    type: ClassVar[str] = "fire"
    unit: str
    target: str
    ammo: str | None = None
    mp: float | None = None


@register
@dataclass(frozen=True, slots=True)
class Pass(Action):
    type: ClassVar[str] = "pass"


@register
@dataclass(frozen=True, slots=True)
class EndPhase(Action):
    type: ClassVar[str] = "end_phase"


def action_from_json(d: object) -> Action:
    """Parse an action's JSON form; ActionError says what is wrong."""
    if not isinstance(d, dict):
        raise ActionError(f"an action is a JSON object, not {type(d).__name__}")
    kind = d.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError(f"unknown action type {kind!r} (known: {', '.join(ACTION_TYPES)})")
    names = {f.name: f for f in fields(cls)}
    extra = set(d) - set(names) - {"type"}
    if extra:
        raise ActionError(f"{kind}: unknown field(s) {', '.join(sorted(extra))}")
    kwargs = {}
    for name, f in names.items():
        if name not in d:
            if f.default is MISSING and f.default_factory is MISSING:
                raise ActionError(f"{kind}: missing field {name!r}")
            continue
        v = d[name]
        want = f.type
        ok = (
            (want == "str" and isinstance(v, str))
            or (want == "int" and isinstance(v, int) and not isinstance(v, bool))
            or (want == "bool" and isinstance(v, bool))
            or (want == "str | None" and (v is None or isinstance(v, str)))
            or (
                want == "float | None"
                and (v is None or (isinstance(v, int | float) and not isinstance(v, bool)))
            )
        )
        if not ok:
            raise ActionError(f"{kind}.{name}: expected {want}, got {v!r}")
        kwargs[name] = v
    return cls(**kwargs)
