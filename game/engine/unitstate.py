"""One unit's state: where it is, how it faces, what it has done this phase and turn, its
counters; its part of the state hash, kept until a field changes."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.board.hexes import Hex, label
from game.rules.acquisition import Acquisition

from .catalogue import UnitType
from .statehash import Flat, encode_fields
from .vocabulary import Shock, Status


def _acquisition_key(acq: Acquisition | None) -> tuple | None:
    if acq is None:
        return None
    return (acq.letter, acq.level, acq.location.hex, acq.location.level, acq.target, acq.area)


@dataclass
class UnitState:
    """One unit's state. Only :class:`game.engine.game.Game` changes it."""

    id: str
    type: UnitType = field(metadata={"encode": lambda t: t.key})
    side: str
    hex: Hex = field(metadata={"encode": lambda h: Flat((h.q, h.r))})
    facing: int = 0
    turret: int = 0
    status: Status = "active"
    ce: bool = False
    immobilized: bool = False
    shock: Shock = "none"
    """"none", "shock" or "uk" (C7.42)."""
    concealed: bool = False
    mp_spent: float = 0.0
    entered_new_hex: bool = False
    """It entered a new hex this player turn (Case J, C6.1)."""
    motion: bool = False
    was_motion: bool = False
    """It was in Motion at the start of this player turn or since (Case J, C6.1)."""
    moving: bool = False
    """It is in the middle of its move (non-stopped, Case L)."""
    moved: bool = False
    """It has moved (or ended its move) this Movement Phase."""
    fired: bool = False
    """It has fired this phase and kept no ROF."""
    shots_this_phase: int = 0
    fired_prep: bool = False
    """It fired in the Prep Fire Phase: it may not move (RD-12)."""
    first_fired: bool = False
    """It Defensive First Fired this player turn (no Defensive Fire Phase shot then, HX-8)."""
    acquisition: Acquisition | None = field(default=None, metadata={"encode": _acquisition_key})
    bore_sight: str | None = None
    """The Bore Sighted Location (C6.42), while the weapon keeps it (C6.43)."""
    fired_at_acquired: bool = False
    """It fired at its acquired target this phase (a CA change then keeps the counter, C6.5)."""
    ammo_out: tuple[str, ...] = ()
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
