"""What a side may know: the engine's one door for hidden information (docs/architecture.md "What a
side may know"; docs/rules.md RD-11, C6.42, RD-18).

:class:`Knowledge` answers, for one side, everything the screen (and a computer player) may
show or read: the units as that side sees them (an enemy "?" has no type, facing or state), the
events as it may read them (the other side's set-up, a missed shot at a "?", a "?"'s moves), the
odds of a shot as it may be shown them (a "?" gives its To Hit, Case K included and Case P left
out, and no To Kill), the fire map and the threat map (no enemy "?", no enemy Bore Sighted
Location). ``side=None`` is everything: the replay viewer's view of both sides.

The test of it (``tests/engine/test_knowledge.py``): two games that differ only in what a side
may not know look identical to it through every method here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.board.hexes import label
from game.rules.attack import Attack
from game.rules.odds import Odds, odds, odds_to_dict

from .errors import IllegalAction
from .events import Event
from .play import paths, threat
from .play.shot import (
    as_unknown,
    blend_leaves,
    build_attack,
    dff_budget_for,
    fire_problem,
    shot_leaves,
)
from .play.threat import HexThreat
from .state import GameState, UnitState
from .vocabulary import REMOVED

SETUP_PHASES = ("setup", "setup_attacker")

UNKNOWN_TO_KILL = "unknown until it is revealed"


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """The odds of one shot as a side may be shown them (RD-11, RD-16).

    ``report``: the odds as ``hexfire odds --json`` prints them (To Hit, To Kill, the branches
    of the dice before the To Hit DR, every outcome); at a concealed unit, the To Hit only, its
    outcomes "hit" and "miss". ``odds``: the full odds, None at a concealed unit."""

    report: dict
    odds: Odds | None

    @property
    def p_hit(self) -> float:
        return float(self.report["to_hit"]["p_hit"])

    @property
    def p_kill(self) -> float | None:
        """P(burn or eliminated); None when the target is a "?" (unknown until revealed)."""
        if self.odds is None:
            return None
        return self.odds.p["burn"] + self.odds.p["eliminated"]


@dataclass(frozen=True, slots=True)
class Tracking:
    """The moving vehicle's MP in each enemy firer's continuous LOS (C6.15), as a side may
    know it. ``moved``: False when it has only pivoted (no Case J, C6.1); ``rows``: (the
    firer's name, MP of this move in its LOS, exempt: it began its move there, Case J; the MP
    in its LOS a Defensive First Fire shot now would count, the odds panel's, or None when no
    shot is left in this Location, C6.17; that shot's Case J DRM)."""

    hex: str
    moved: bool
    rows: tuple[tuple[str, float, bool, float | None, str], ...]


class Knowledge:
    """What ``side`` may know of the game now (``None``: everything)."""

    def __init__(self, state: GameState, side: str | None):
        self.state = state
        self.side = side

    # --- the units ---------------------------------------------------------------------------

    def hidden(self, unit: UnitState) -> bool:
        """The unit is a "?" to this side: an enemy unit, concealed (RD-11)."""
        return self.side is not None and unit.side != self.side and unit.concealed

    def unseen(self, unit: UnitState) -> bool:
        """The unit is not shown to this side at all: an enemy unit with a set-up area while
        its side sets up (HX-12: where it chose to stand and what it is are revealed when its
        set-up phase ends; a unit the scenario places is where its file says)."""
        state = self.state
        return (
            self.side is not None
            and unit.side != self.side
            and state.phase in SETUP_PHASES
            and not state.over
            and unit.side == state.to_act
            and unit.id in state.areas
        )

    def sets_up_later(self, unit: UnitState) -> bool:
        """An enemy unit with a set-up area while this side sets up before it (HX-12: the
        scenario defender first): it stands on its file's hex for now, which is not where it
        will be; the screen draws it as such (its counter read as its real place)."""
        state = self.state
        return (
            self.side is not None
            and unit.side != self.side
            and state.phase == "setup"
            and not state.over
            and unit.side != state.to_act
            and unit.id in state.areas
        )

    def units(self) -> list[dict]:
        """The units in play as this side may see them: an enemy concealed unit is a "?" in its
        hex (RD-11), with no type, facing or state shown; an enemy's Bore Sighted Location is
        never shown (C6.42: recorded in secret)."""
        out = []
        # the "?" come last, in the order of their hexes: where one is drawn in a stack, or
        # listed, must not tell by its id which unit it is (RD-11)
        units = self.state.units
        hidden = {k for k, u in units.items() if u.active and self.hidden(u)}
        unseen = {k for k, u in units.items() if u.active and self.unseen(u)}
        order = sorted(units, key=lambda k: (k in hidden, units[k].label if k in hidden else "", k))
        for k in order:
            unit = units[k]
            if not unit.active or k in unseen:
                continue
            if k in hidden:
                out.append(
                    {
                        "id": unit.id,
                        "side": unit.side,
                        "hex": unit.label,
                        "concealed": True,
                        "type": "?",
                        "awaiting_setup": self.sets_up_later(unit),
                    }
                )
                continue
            d = unit.to_json()
            if self.side is not None and unit.side != self.side:
                d["bore_sight"] = None  # recorded in secret at set-up (C6.42)
            d["name"] = unit.name
            d["category"] = unit.type.category
            d["turreted"] = unit.type.turret
            d["has_gun"] = bool(unit.type.gun)
            d["mp_left"] = (unit.type.mp if unit.type.is_vehicle else unit.type.mf) - unit.mp_spent
            d["is_vehicle"] = unit.type.is_vehicle
            d["ammo"] = list(unit.type.ammo)
            d["depletion"] = {  # RD-17: the published depletion numbers of its special rounds
                a: n for a in unit.type.ammo if (n := self.state.depletion(unit, a)) is not None
            }
            d["awaiting_setup"] = self.sets_up_later(unit)
            out.append(d)
        return out

    def where(self, unit_id: str) -> str:
        """The hex a unit is (or was last) in: every side knows where each counter is, a "?"
        included (RD-11 hides what it is, not where)."""
        return self.state.unit(unit_id).label

    def losses(self) -> dict[str, list[str]]:
        """Each side's units out of play and how ("Pz IV (burning)"), for the end of the
        game: a removal is seen by both sides (a hit reveals a "?", HX-13)."""
        out: dict[str, list[str]] = {s: [] for s in self.state.setup.sides}
        for u in self.state.units.values():
            if u.status in REMOVED and u.status != "exited":
                out.setdefault(u.side, []).append(f"{u.name} ({u.status})")
        return out

    def tracking(self) -> Tracking | None:
        """While a vehicle moves, as this side may know it (C6.15-.16): the MP of its move in
        each known enemy firer's LOS; None when no vehicle this side can see is moving. Of a
        "?" mover its Motion is not known, so a pivot is not told apart (C6.1, RD-11)."""
        state = self.state
        mover = state.moving_target()
        if mover is None or state.phase != "movement":
            return None
        unknown = self.hidden(mover)
        moved = unknown or mover.entered_new_hex or mover.motion or mover.was_motion
        rows = []
        for (moving, fid), track in sorted(state.track.items()):
            firer = state.units.get(fid)
            if moving != mover.id or firer is None or not firer.active or track.los_mp <= 0:
                continue
            if self.hidden(firer):
                continue
            # the shot the odds panel shows; none when the firer may not fire at the mover now
            # (it fired already, has no LOS here, ...: the DFF prompt would not offer it, C6.17)
            best = (
                dff_budget_for(state, firer, mover).best
                if fire_problem(state, firer, mover, None, dff=True) is None
                else None
            )
            shot = (best.mp_in_los, str(best.drm)) if best is not None else (None, "")
            rows.append((firer.name, track.los_mp, track.exempt, *shot))
        return Tracking(mover.label, moved, tuple(rows))

    def known_enemies(self) -> set[str]:
        """The ids of the enemy units in play this side knows (not a "?")."""
        return {
            u.id
            for u in self.state.units.values()
            if u.active and u.side != self.side and not self.hidden(u) and not self.unseen(u)
        }

    def name(self, unit_id: str) -> str:
        """The unit's name as this side may read it ("a concealed unit in E3" for a "?")."""
        unit = self.state.unit(unit_id)
        return f"a concealed unit in {unit.label}" if self.hidden(unit) else unit.name

    # --- the events --------------------------------------------------------------------------

    def events(self, events: list[Event] | None = None) -> list[Event]:
        """``events`` (the game's history by default) as this side may read them (each event
        carries what was secret when it was made: :meth:`Event.seen_by`)."""
        source = self.state.history if events is None else events
        return [seen for e in source if (seen := e.seen_by(self.side)) is not None]

    # --- the odds ----------------------------------------------------------------------------

    def odds(self, firer_id: str, target_id: str, ammo: str | None = None) -> ShotOdds:
        """The odds of ``firer`` shooting at ``target`` now, as this side may be shown them;
        IllegalAction with the reason when the shot is not allowed. At a "?": the To Hit with
        Case K, without Case P (its size is unknown), and no To Kill (RD-11)."""
        state = self.state
        firer, target = state.unit(firer_id), state.unit(target_id)
        dff = (
            bool(state.dff_pending)
            and firer_id in state.dff_pending
            and state.moving_unit == target_id
        )
        am = ammo if ammo is not None else (firer.type.ammo[0] if firer.type.gun else None)
        problem = fire_problem(
            state, firer, target, am, dff=dff, explain=True, target_name=self.name(target_id)
        )
        if problem:
            raise IllegalAction("cannot_fire", problem)
        known_bore_sight = self.side is None or firer.side == self.side
        if self.hidden(target):
            # the To Hit alone: the aspect (RD-8's die on the chart's 90-degree line) is moot
            attack = build_attack(state, firer, target, am, dff, 1, None, known_bore_sight)
            return to_hit_only(attack)
        leaves = shot_leaves(state, firer, target, am, dff, known_bore_sight=known_bore_sight)
        full = blend_leaves(leaves, odds)
        return ShotOdds(odds_to_dict(full), full)

    def fire_map(self, firer_id: str, ammo: str | None = None) -> dict[str, tuple[float, str]]:
        """For ``firer`` with ``ammo``: each enemy this side knows -> (P(burn or eliminated),
        its hex), the odds panel's own numbers; the enemies it cannot shoot are left out."""
        out = {}
        for uid in sorted(self.known_enemies()):
            try:
                shot = self.odds(firer_id, uid, ammo)
            except IllegalAction:
                continue
            if shot.p_kill is not None:
                out[uid] = (shot.p_kill, self.state.units[uid].label)
        return out

    def threat_map(self, unit_id: str, within: Iterable[str] | None = None) -> dict[str, HexThreat]:
        """For this side's vehicle ``unit_id``: hex -> how likely it would be removed there
        (RD-18), from the enemies this side knows and never their Bore Sighted Locations;
        over the hexes ``within`` alone if given (the same figure for each)."""
        board = self.state.board
        known = self.known_enemies() if self.side is not None else None
        blocked = self._blocked(unit_id, known)
        maps = threat.threat_map(self.state, unit_id, known, blocked, self._indexes(within))
        return {label(board.hex_at(j)): t for j, t in maps.items()}

    def _indexes(self, within: Iterable[str] | None) -> set[int] | None:
        """The board indexes of the hexes named ``within`` (None: every hex)."""
        if within is None:
            return None
        board = self.state.board
        return {board.index(board.parse(h)) for h in within}

    def threat_here(self, unit_id: str) -> HexThreat:
        """For this side's vehicle ``unit_id``: how likely it would be removed where it
        stands, as it stands (the threat map's figure for its own hex, RD-18), from the
        enemies this side knows."""
        known = self.known_enemies() if self.side is not None else None
        return threat.threat_here(self.state, unit_id, known)

    def attack_map(
        self, unit_id: str, within: Iterable[str] | None = None
    ) -> dict[str, tuple[tuple[str, float], ...]]:
        """For this side's vehicle ``unit_id``: hex -> (enemy id, P(removed from play)) of
        each enemy this side knows (never a "?") that it could shoot from there, the threat
        map turned round (RD-18); the hexes it may not enter (as :meth:`threat_map`) are
        left out, and those not ``within`` if given."""
        board = self.state.board
        known = self.known_enemies() if self.side is not None else None
        blocked = self._blocked(unit_id, known)
        maps = threat.attack_map(self.state, unit_id, known, blocked, self._indexes(within))
        return {label(board.hex_at(j)): shots for j, shots in maps.items()}

    def threat_ahead(self, unit_id: str, within: Iterable[str]) -> dict[str, dict[int, HexThreat]]:
        """For this side's vehicle ``unit_id``: hex -> facing -> how likely it would be removed
        there (RD-18) after the enemies this side knows have made their next move, each to
        the hex it could reach (its whole MP, RD-10) whence its shot there is deadliest
        (:func:`threat.threat_ahead`), over the hexes ``within``."""
        board = self.state.board
        known = self.known_enemies() if self.side is not None else None
        me = self.state.unit(unit_id)
        reach = {
            e.id: [board.index(h) for h in paths.next_reach(self.state, e.id)]
            for e in self.state.units.values()
            if e.active and e.side != me.side and (known is None or e.id in known)
        }
        blocked = self._blocked(unit_id, known)
        wanted = sorted(
            j
            for j in self._indexes(within) or ()
            if board.hex_at(j) not in blocked
            and board.terrain_at(board.hex_at(j)).enterable_by_vehicle
            or board.hex_at(j) == me.hex
        )
        maps = threat.threat_ahead(self.state, unit_id, known, wanted, reach)
        return {label(board.hex_at(j)): t for j, t in maps.items()}

    def _blocked(self, unit_id: str, known: set[str] | None) -> set:
        """The hexes ``unit_id`` may not enter that this side knows of: a known enemy's, or
        one holding its own side's vehicle or Gun (HX-4)."""
        mover = self.state.unit(unit_id)
        return {
            u.hex
            for u in self.state.units.values()
            if u.active
            and u.id != unit_id
            and (
                (u.side != mover.side and (known is None or u.id in known))
                or (u.side == mover.side and u.type.category != "infantry")
            )
        }


def to_hit_only(attack: Attack) -> ShotOdds:
    """A shot at a "?": its To Hit, Case P left out (the size is unknown) and Case J from
    Motion left out (its Motion counter lies under the "?"), as a Gun-like target with no To
    Kill (RD-11)."""
    o = odds(as_unknown(attack))
    report = odds_to_dict(o)
    report["to_hit"]["notes"].append(
        {"rule": "RD-11", "text": "a concealed unit: its size (Case P) and Motion not known"}
    )
    report["to_kill"] = {"rule": "RD-11", "gun": UNKNOWN_TO_KILL}
    report["p"] = {"miss": 1.0 - o.p_hit, "hit": o.p_hit}
    return ShotOdds(report, None)
