"""The state of a game: the units (where each is, how it faces, what it has done this phase and
turn), the phase, the movement tracking (C6.15), the Defensive First Fire window (C6.17), the
dice and the board's markers; and the state hash, built from the dataclass fields. One unit's
state is :class:`UnitState` (:mod:`.unitstate`)."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from game.board import Board
from game.board.hexes import Hex
from game.board.viewsheds import Sight, sight_for
from game.rules.dice import Dice

from .catalogue import depletion_number, unit_types
from .errors import IllegalAction
from .events import Event
from .phases import PHASES
from .setup import Setup, SetupArea
from .statehash import NOT_HASHED, Flat, encode_fields
from .unitstate import UnitState
from .vocabulary import PhaseName

# --- the game's state -------------------------------------------------------------------------


@dataclass
class Track:
    """C6.15: MP a moving vehicle has spent in one enemy unit's continuous LOS; ``exempt``: it
    began its move in that LOS and has not left it since (no J1 / J2)."""

    los_mp: float = 0.0
    exempt: bool = False


def _clone(obj: Any) -> Any:
    """A shallow copy of a plain object whose fields are values (a unit, a C6.15 track):
    ``copy.copy`` took 7 us a unit, a third of a search's copy of a game."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _hex_or_none(h: Hex | None) -> Flat:
    return Flat((h.q, h.r) if h else (None, None))


def _sorted_track(track: dict[tuple[str, str], Track]) -> tuple:
    if not track:
        return ()
    return tuple(sorted((k[0], k[1], t.los_mp, t.exempt) for k, t in track.items()))


def _sorted_marks(marks: dict[tuple[str, str, str, int], tuple[float, ...]]) -> tuple:
    if not marks:
        return ()
    return tuple(sorted((*k, v) for k, v in marks.items()))


def _none_or_value(v: Any) -> Flat:
    return Flat(() if v is None else (v,))


def _sorted_items(d: dict) -> tuple:
    return tuple(sorted(d.items())) if d else ()


def _markers(board: Board) -> Flat:
    return Flat(board.markers())


_UNBUILT: dict = {}
"""The units by hex of a state held still before anyone asked (:meth:`GameState.units_at`
makes them then: a fire phase's list never asks)."""


@dataclass
class GameState:
    """Everything a game is, apart from the door that changes it (:class:`game.engine.Game`).

    The fields before ``setup`` make the state key (hashed after every action, for replays), in
    order; the units are hashed each by its own key. The play modules (``play/``) read and
    change it; nothing else does."""

    turn: int
    player_turn: int
    """0: the side that moves first in every game turn is phasing; 1: the other."""
    phase: PhaseName
    over: bool
    winner: str | None
    moving_unit: str | None
    """The vehicle whose move is in progress (or whose last MP the other side may answer)."""
    dff_pending: tuple[str, ...]
    """The Defensive First Fire window: the units that may fire at the mover now (C6.17)."""
    loc_mp: dict[int, float] = field(metadata={"encode": _sorted_items})
    """Facing -> MP the moving vehicle has spent in its Location in that Target Facing (C6.17:
    a vehicle that turns back to a facing resumes that facing's count)."""
    move_start: Hex | None = field(metadata={"encode": _hex_or_none})
    """Where the moving unit began its move (C6.15)."""
    track: dict[tuple[str, str], Track] = field(metadata={"encode": _sorted_track})
    """(mover, firer) -> C6.15 tracking."""
    marks: dict[tuple[str, str, str, int], tuple[float, ...]] = field(
        metadata={"encode": _sorted_marks}
    )
    """(firer, target, Location, Target Facing) -> the MP marks of its shots there (C6.17)."""
    start_to: str | None = field(metadata={"encode": _none_or_value})
    """The hex a vehicle that started is to enter once the Defensive First Fire its start MP
    opened in its own hex is over (HX-5); None otherwise (and then not in the state key)."""
    exited: dict[str, int] = field(metadata={"encode": _sorted_items})
    """Units that left the map, by "side:edge" (RD-13 exit conditions)."""
    dice: Dice = field(metadata={"encode": lambda d: Flat((d.draws, d.trail))})
    """The dice: how many were drawn and the trail of the seed and every face (hashed, so a
    replay proves which dice were rolled)."""
    board: Board = field(metadata={"encode": _markers})
    """The map with its wrecks and smoke (a copy of the scenario's)."""
    setup: Setup = field(metadata=NOT_HASHED)
    seed: int = field(metadata=NOT_HASHED)
    visibility: Sight = field(metadata=NOT_HASHED)
    """The LOS (RD-9): all pairs, or on-demand viewsheds on a large map (:func:`sight_for`)."""
    units: dict[str, UnitState] = field(metadata=NOT_HASHED)
    """By id; hashed unit by unit (:meth:`UnitState.key_text`)."""
    letters: dict[str, str] = field(metadata=NOT_HASHED)
    """Each Gun's Acquired-counter ID letter (C6.58), per side in set-up order."""
    areas: dict[str, SetupArea] = field(metadata=NOT_HASHED)
    """Each placeable unit's set-up area (HX-12; constant, from the scenario)."""
    end_reason: str = field(default="", metadata=NOT_HASHED)
    history: list[Event] = field(default_factory=list, metadata=NOT_HASHED)
    shots: dict[tuple, Any] = field(default_factory=dict, metadata=NOT_HASHED)
    """A memo of the best shots the threat and attack maps weigh (play/threat.py), by all
    they depend on; shared by the copies of a game (the same scenario, the same odds)."""
    spots: dict[tuple, tuple[tuple[str, Hex], ...]] = field(
        default_factory=dict, metadata=NOT_HASHED
    )
    """A memo of the hexes of each set-up area where a unit may stand (play/setup.py), by the
    area and whether the unit must be able to drive there; shared by the copies of a game
    (the map's terrain never changes)."""
    occupancy: dict[Hex, list[UnitState]] | None = field(default=None, metadata=NOT_HASHED)
    """The units in play by hex while the state is held still (:meth:`held_still`), for
    :meth:`units_at`; None while it may change."""
    asked: dict[tuple, Any] | None = field(default=None, metadata=NOT_HASHED)
    """While the state is held still: the answers of checks asked once a unit by many
    candidates (:func:`play.movement.mover`); None while it may change."""

    @classmethod
    def start(cls, setup: Setup, seed: int, dice: Dice | None) -> GameState:
        """The state before the set-up choices: units where the scenario puts them."""
        board = setup.board.copy()
        types = unit_types()
        units: dict[str, UnitState] = {}
        letters: dict[str, str] = {}
        for us in setup.units:
            h = board.parse(us.hex)
            units[us.id] = UnitState(
                id=us.id,
                type=types[us.type],
                side=us.side,
                hex=h,
                facing=us.facing,
                turret=us.turret if us.turret is not None else us.facing,
                concealed=us.concealed,
                ce=us.ce,
                bore_sight=us.bore_sight,
            )
            if types[us.type].gun:
                n = sum(1 for k in letters if units[k].side == us.side)
                letters[us.id] = chr(ord("A") + n % 26)
        return cls(
            turn=1,
            player_turn=0,
            phase="setup",
            over=False,
            winner=None,
            moving_unit=None,
            dff_pending=(),
            loc_mp={},
            move_start=None,
            track={},
            marks={},
            start_to=None,
            exited={},
            dice=dice if dice is not None else Dice(seed),
            board=board,
            setup=setup,
            seed=seed,
            visibility=sight_for(board),
            units=units,
            letters=letters,
            areas={us.id: us.area for us in setup.units if us.area is not None},
        )

    def copy(self) -> GameState:
        """A copy to play on apart (a search, a snapshot): what play changes is copied (the
        units, the tracking, the dice, the board's markers, the history list), what it never
        changes is shared (the scenario, the terrain, the LOS arrays until a marker changes
        them); the same state hash, and the same play after it."""
        new = copy.copy(self)
        new.occupancy = new.asked = None  # its units are its own
        memo: dict = {}
        new.board = copy.deepcopy(self.board, memo)
        new.visibility = copy.deepcopy(self.visibility, memo)
        new.units = {k: _clone(u) for k, u in self.units.items()}
        new.loc_mp = dict(self.loc_mp)
        new.track = {k: _clone(t) for k, t in self.track.items()}
        new.marks = dict(self.marks)
        new.exited = dict(self.exited)
        new.dice = self.dice.copy()
        new.history = list(self.history)
        return new

    # --- who acts -------------------------------------------------------------------------

    @property
    def phasing(self) -> str:
        return self.setup.first if self.player_turn == 0 else self.setup.other(self.setup.first)

    @property
    def non_phasing(self) -> str:
        return self.setup.other(self.phasing)

    @property
    def to_act(self) -> str:
        """The side whose decision the game waits for."""
        if self.dff_pending:
            return self.non_phasing
        actor = PHASES[self.phase].actor
        if actor == "scenario_defender":
            return self.setup.defender
        if actor == "scenario_attacker":
            return self.setup.other(self.setup.defender)
        return self.phasing if actor == "phasing" else self.non_phasing

    # --- units and hexes ------------------------------------------------------------------

    def unit(self, unit_id: str) -> UnitState:
        unit = self.units.get(unit_id)
        if unit is None:
            raise IllegalAction("no_unit", f"there is no unit {unit_id!r}")
        return unit

    def own(self, unit_id: str, side: str) -> UnitState:
        """``unit_id``, in play and of ``side`` (else IllegalAction with the reason)."""
        unit = self.unit(unit_id)
        if not unit.active:
            raise IllegalAction("not_in_play", f"{unit.name} ({unit_id}) is no longer in play")
        if unit.side != side:
            raise IllegalAction(
                "not_your_unit", f"{unit.name} belongs to {unit.side}; {side} acts now"
            )
        return unit

    @staticmethod
    def target_facing(unit: UnitState) -> int:
        """The key C6.17 counts MP and shots by: an AFV's Target Facing ("in its current Target
        Facing, if an AFV"); any other vehicle, and a "?" (its facing unknown, RD-20), counts
        every MP in its Location together (-1)."""
        return unit.facing if unit.type.armored and not unit.concealed else -1

    def depletion(self, unit: UnitState, ammo: str | None) -> int | None:
        """RD-17: the depletion number of ``ammo`` for ``unit`` in this scenario's year (None:
        not special ammunition; 0: not yet issued)."""
        return depletion_number(unit.type, ammo, self.setup.year)

    def units_at(self, h: Hex) -> list[UnitState]:
        """The units in play in ``h``, in the order of :attr:`units`."""
        occupancy = self.occupancy
        if occupancy is not None:
            if occupancy is _UNBUILT:  # held still: made at the first question
                occupancy = self.occupancy = {}
                for u in self.units.values():
                    if u.status == "active":
                        occupancy.setdefault(u.hex, []).append(u)
            return occupancy.get(h, [])
        return [u for u in self.units.values() if u.hex == h and u.active]

    @contextmanager
    def held_still(self) -> Iterator[None]:
        """The state only asked, never changed, inside: :meth:`Game.legal_actions` tries its
        candidates' checks (never their commits), so :meth:`units_at` reads the units by hex
        made once instead of looking through every unit for each candidate."""
        if self.occupancy is not None:  # already held still
            yield
            return
        self.occupancy, self.asked = _UNBUILT, {}
        try:
            yield
        finally:
            self.occupancy = self.asked = None

    def moving_target(self) -> UnitState | None:
        return self.units.get(self.moving_unit) if self.moving_unit else None

    def potential_firers(self, target: UnitState) -> list[UnitState]:
        """The enemy units in play with an AT weapon (002)."""
        side = target.side
        return [
            e
            for e in self.units.values()
            if e.side != side and e.status == "active" and e.type.has_at_weapon
        ]

    def parse_hex(self, text: str) -> Hex:
        try:
            return self.board.parse(text)
        except ValueError as e:
            raise IllegalAction("bad_hex", str(e)) from None

    # --- LOS (RD-9) -------------------------------------------------------------------------

    def can_see(self, a: UnitState, b: UnitState) -> bool:
        """RD-9: the LOS from a's hex to b's hex is clear."""
        index = self.board.index  # hex_sees, inline: asked for every firer and target
        return self.visibility.sees(index(a.hex), index(b.hex))

    def hex_sees(self, a: Hex, b: Hex) -> bool:
        return self.visibility.sees(self.board.index(a), self.board.index(b))

    def viewshed(self, i: int) -> tuple[Any, Any]:
        """What board index ``i`` sees (RD-9): (clear, Case R hindrance) over every index: the
        map's all-pairs rows, or its on-demand viewshed on a large map (read-only)."""
        return self.visibility.seen_from(i)

    def hindrance(self, a: UnitState, b: UnitState) -> int:
        """Case R: the hindrance DRM along a clear LOS (C6.9, RD-9)."""
        return self.visibility.hindrance_between(self.board.index(a.hex), self.board.index(b.hex))

    # --- the hash ---------------------------------------------------------------------------

    def key(self) -> tuple:
        """The canonical encoding of the state apart from its units: the hashed fields in
        order (:func:`encode_fields`)."""
        return encode_fields(self)

    def hash(self) -> str:
        """SHA-256 of the canonical state encoding (``repr`` of :meth:`key` and of each unit's
        key; Python's repr of these plain values is exact and stable), for replays."""
        units = "|".join(self.units[k].key_text() for k in sorted(self.units))
        blob = repr(self.key()) + "#" + units
        return hashlib.sha256(blob.encode()).hexdigest()
