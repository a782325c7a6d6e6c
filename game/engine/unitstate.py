"""One unit's state: where it is, how it faces, what it has done this phase and turn, its
counters; its part of the state hash, kept until a field changes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from game.board.hexes import Hex, label
from game.rules.acquisition import Acquisition

from .catalogue import UnitType
from .statehash import Flat, encode_fields
from .vocabulary import Shock, Status


def _acquisition_key(acq: Acquisition | None) -> tuple | None:
    if acq is None:
        return None
    return (acq.letter, acq.level, acq.location.hex, acq.location.level, acq.target, acq.area)


ROLES = ("firer", "target")
"""The two parts a unit may play in a shot."""


def odds(*roles: str, encode: Callable[[Any], Any] | None = None) -> dict:
    """Field metadata: a shot's odds read this field of its firer and / or its target only in
    ``roles`` (none: in neither; where it stands and faces is read by the maps' own keys, its
    id only by an Acquisition or a Defensive First Fire tracking, which no kept shot has). A
    field without it is read in both: a new field enters :func:`odds_key` unless it says
    otherwise."""
    meta: dict[str, Any] = {"odds": roles}
    if encode is not None:
        meta["encode"] = encode
    return meta


NEITHER = odds()


@dataclass
class UnitState:
    """One unit's state. Only :class:`game.engine.game.Game` changes it. Each field says in
    which of its ``odds`` roles a shot reads it (:func:`odds`, for :func:`odds_key`)."""

    id: str = field(metadata=NEITHER)
    type: UnitType = field(metadata={"encode": lambda t: t.key})
    side: str = field(metadata=NEITHER)
    hex: Hex = field(metadata=odds(encode=lambda h: Flat((h.q, h.r))))
    facing: int = field(default=0, metadata=NEITHER)
    turret: int = field(default=0, metadata=NEITHER)
    status: Status = field(default="active", metadata=NEITHER)
    ce: bool = field(default=False, metadata=odds("target"))
    immobilized: bool = field(default=False, metadata=odds("target"))
    shock: Shock = field(default="none", metadata=NEITHER)
    """"none", "shock" or "uk" (C7.42)."""
    concealed: bool = field(default=False, metadata=odds("target"))
    mp_spent: float = field(default=0.0, metadata=NEITHER)
    entered_new_hex: bool = field(default=False, metadata=odds("target"))
    """It entered a new hex this player turn (Case J, C6.1)."""
    motion: bool = False
    was_motion: bool = field(default=False, metadata=odds("target"))
    """It was in Motion at the start of this player turn or since (Case J, C6.1)."""
    moving: bool = False
    """It is in the middle of its move (non-stopped, Case L)."""
    moved: bool = field(default=False, metadata=NEITHER)
    """It has moved (or ended its move) this Movement Phase."""
    fired: bool = field(default=False, metadata=NEITHER)
    """It has fired this phase and kept no ROF."""
    shots_this_phase: int = field(default=0, metadata=NEITHER)
    fired_prep: bool = field(default=False, metadata=NEITHER)
    """It fired in the Prep Fire Phase: it may not move (RD-12)."""
    first_fired: bool = field(default=False, metadata=NEITHER)
    """It Defensive First Fired this player turn (no Defensive Fire Phase shot then, HX-8)."""
    acquisition: Acquisition | None = field(
        default=None, metadata=odds("firer", encode=_acquisition_key)
    )
    bore_sight: str | None = field(default=None, metadata=odds("firer"))
    """The Bore Sighted Location (C6.42), while the weapon keeps it (C6.43)."""
    fired_at_acquired: bool = field(default=False, metadata=NEITHER)
    """It fired at its acquired target this phase (a CA change then keeps the counter, C6.5)."""
    ammo_out: tuple[str, ...] = field(default=(), metadata=odds("firer"))
    """The special ammunition it has run out of for the rest of the game (RD-17)."""

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def label(self) -> str:
        return label(self.hex)

    @property
    def name(self) -> str:
        return self.type.name

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__  # a plain class: its fields live in its __dict__
        if name not in d or d[name] != value:  # writing the same value keeps the state key
            d["_key_text"] = None
            d[name] = value

    def key_text(self) -> str:
        """``repr(self.key())``, kept until a field changes (the state hash reads it for every
        unit after every action; most units do not change)."""
        text = self.__dict__.get("_key_text")
        if text is None:
            text = repr(self.key())
            object.__setattr__(self, "_key_text", text)
        return text

    def key(self) -> tuple:
        """The unit's state as a tuple of plain values, one or more per hashed field in field
        order (:func:`encode_fields`), for the state hash."""
        return encode_fields(self)

    def to_json(self) -> dict:
        acq = self.acquisition
        return {
            "id": self.id,
            "type": self.type.key,
            "side": self.side,
            "hex": label(self.hex),
            "facing": self.facing,
            "turret": self.turret,
            "status": self.status,
            "ce": self.ce,
            "immobilized": self.immobilized,
            "shock": self.shock,
            "concealed": self.concealed,
            "mp_spent": self.mp_spent,
            "entered_new_hex": self.entered_new_hex,
            "motion": self.motion,
            "was_motion": self.was_motion,
            "moving": self.moving,
            "moved": self.moved,
            "fired": self.fired,
            "shots_this_phase": self.shots_this_phase,
            "fired_prep": self.fired_prep,
            "first_fired": self.first_fired,
            "acquisition": None
            if acq is None
            else [acq.letter, acq.level, str(acq.location), acq.target, acq.area],
            "bore_sight": self.bore_sight,
            "fired_at_acquired": self.fired_at_acquired,
            "ammo_out": list(self.ammo_out),
        }


def odds_key(unit: UnitState, role: str) -> tuple:
    """What a shot's odds read of ``unit`` as its ``role`` ("firer" or "target") beyond where
    it stands and how it faces: each field whose metadata says a shot reads it in that role
    (every field unless it says otherwise, :func:`odds`), through its encoder. The threat and
    attack maps key the shots they keep by it (play/threat.py)."""
    reads = _ODDS_FIELDS.get(role)
    if reads is None:
        reads = _ODDS_FIELDS[role] = tuple(
            (f.name, f.metadata.get("encode"))
            for f in fields(UnitState)
            if role in f.metadata.get("odds", ROLES)
        )
    return tuple(
        getattr(unit, name) if encode is None else encode(getattr(unit, name))
        for name, encode in reads
    )


_ODDS_FIELDS: dict[str, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}
