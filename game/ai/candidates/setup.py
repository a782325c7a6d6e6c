"""The set-up candidates (HX-12): place each unit with a set-up area where its side's own
reasoning puts it (scored by :mod:`game.ai.valuation.setup`, one of the best drawn by the
player's seed) and turn it there; then conceal what may be concealed (Case K, RD-11); then, at
level 2, Bore Sight a hex the enemy must come through (C6.42). The pass candidate then ends
the set-up."""

from __future__ import annotations

from game.board.hexes import label
from game.engine.actions import Action, BoreSight, Conceal, Place
from game.engine.table import Table
from game.engine.view import UnitView
from game.rules.facing import facing_offset

from ..decision import Decision, Option, text
from ..situation import Situation
from ..tuning import tuning
from ..valuation.approach import enemy_way
from ..valuation.exits import sight, ways_out
from ..valuation.setup import ARC, SpotScore, facing, options


def placed_counts(table: Table) -> dict[str, int]:
    """How many times its side's log shows each unit placed (a unit placed twice, moved and
    turned, is done: a game resumed in the middle of the set-up goes on the same)."""
    placed: dict[str, int] = {}
    for e in table.events():
        if e.kind == "place":
            placed[e.data.get("unit", "")] = placed.get(e.data.get("unit", ""), 0) + 1
    return placed


def settled(table: Table, unit_id: str) -> set[str]:
    """The units of its side whose set-up hex is decided, but ``unit_id``: those its log shows
    placed, and those with no set-up area (they stay on the scenario file's hex, HX-12)."""
    placed = placed_counts(table)
    free = set(table.placeable())
    return {
        u["id"]
        for u in table.units()
        if u["id"] != unit_id and (placed.get(u["id"], 0) or u["id"] not in free)
    }


def spot(s: Situation, unit: UnitView, seen: list, way: list, eyes: list) -> tuple[str, str] | None:
    """Where in its set-up area ``unit`` sets up and the words why: one of the hexes within
    ``[set_up] spread`` of the best (:class:`~game.ai.valuation.setup.SpotScore`) drawn by a
    random source seeded by the player's seed, the phase and the unit alone (the same seed,
    the same set-up; another seed, most likely another): never the scenario file's hex for
    its own sake, so the file tells no one where a "?" stands. None: no hex free."""
    table = s.table
    choices = options(table, s.side, unit, seen)
    if not choices:
        return None
    score = SpotScore(s, unit, seen, way, eyes, choices)
    scores = {h: score(h) for h in choices}
    top = max(scores.values())
    pool = sorted(h for h, v in scores.items() if v >= top - tuning().set_up.spread)
    rng = s.seeded(text(table.phase), text(unit["id"]))
    hx = rng.choice(pool)
    why = f"sets up in {hx}"
    if score.may_hide and score.hides(hx):
        why += ", out of the enemy's sight (RD-11)"
    return hx, why


class PlaceCandidate:
    """The next unit of its side to place (HX-12), from the Place actions among the legal ones:
    first to the hex :func:`spot` draws for it (its facing kept: a placement elsewhere is
    listed so), then turned there (:func:`~game.ai.valuation.setup.facing`)."""

    name = "place"
    score = 300.0

    def evaluate(self, s: Situation) -> Option | None:
        table = s.table
        seen = table.units()
        mine = {u["id"]: u for u in seen if u["side"] == s.side}
        placed = placed_counts(table)
        way = enemy_way(table, s.side, seen)
        eyes = [table.viewshed(u["hex"])[0] for u in seen if u["side"] != s.side]
        for uid in table.placeable():
            unit = mine.get(uid)
            if unit is None or placed.get(uid, 0) >= 2:
                continue
            decision = self._place(s, unit, placed.get(uid, 0), seen, way, eyes)
            if decision is not None:
                return Option(self.score, decision)
        return None

    @staticmethod
    def _place(
        s: Situation, unit: UnitView, times: int, seen: list, way: list, eyes: list
    ) -> Decision | None:
        """``unit``'s next placement (to its spot, then turned), if it is legal; None: it
        stands where and as it is to stand (or it has no free hex)."""
        uid, here, kept = unit["id"], unit["hex"], int(unit.get("facing", 0))
        if times == 0:
            found = spot(s, unit, seen, way, eyes)
            if found is None:
                return None
            hx, why = found
            if hx != here and Place(uid, hx, kept) in s.legal:
                return Decision(Place(uid, hx, kept), why)
        turned, words = facing(s.table, s.side, unit, seen, way, settled(s.table, uid))
        if turned != kept and Place(uid, here, turned) in s.legal:
            return Decision(Place(uid, here, turned), words)
        return None


class ConcealCandidate:
    """Set up concealed (Case K: +2 to hit it, RD-11) what may be."""

    name = "conceal"
    score = 200.0

    def evaluate(self, s: Situation) -> Option | None:
        conceal = [a for a in s.legal if isinstance(a, Conceal)]
        if not conceal:
            return None
        return Option(self.score, Decision(conceal[0], "sets up concealed (RD-11)"))


def bore_value(table: Table, unit: UnitView, a: BoreSight, holds: set, way: set) -> float | None:
    """What Bore Sighting ``a.hex`` is worth (C6.42): a hex the enemy must hold, else one of
    the way it must come, less its range (``[set_up] bore_*``); None outside a non-turreted
    weapon's Covered Arc (HX-2)."""
    t = tuning().set_up
    board = table.board
    here, there = board.parse(unit["hex"]), board.parse(a.hex)
    if not unit.get("turreted") and facing_offset(here, int(unit["facing"]), there) > ARC:
        return None
    d = here.distance(there)
    return (t.bore_hold if a.hex in holds else t.bore_way if a.hex in way else 0.0) - (
        t.bore_range * d
    )


class BoreSightCandidate:
    """Level 2: each weapon Bore Sights (C6.42) the nearest hex, inside its Covered Arc, of the
    way the enemy must come (a hex it must hold first, else the straight line from its
    vehicles to what its victory needs: RD-13); when no weapon has one there, against an
    enemy exit victory, the nearest hex of the enemy's ways out (:mod:`~game.ai.valuation.
    exits`) it watches (in its LOS and Covered Arc, HX-2), its own excepted (issue 41: the
    hedgerow's PaK, facing the Jeep's lane north of B2, Bore Sighted nothing)."""

    name = "bore_sight"
    score = 100.0

    def evaluate(self, s: Situation) -> Option | None:
        if s.level < 2:
            return None
        table = s.table
        seen = table.units()
        mine = {u["id"]: u for u in seen if u["side"] == s.side}
        holds = {h for v in table.victory if v.side != s.side for h in v.hexes}
        way = {label(h) for h in enemy_way(table, s.side, seen)}
        best: tuple[float, str, Action] | None = None
        sights = [a for a in s.legal if isinstance(a, BoreSight) and a.unit in mine]
        for a in sights:
            value = bore_value(table, mine[a.unit], a, holds, way)
            if value is not None and value > 0 and (best is None or (value, a.hex) > best[:2]):
                best = (value, a.hex, a)
        if best is None:  # none of the way in inside an arc: a hex of the way out it watches
            out = ways_out(table, s.side, seen)
            cells = {i for w in out for i in w.cells}
            for a in sights:
                watch = sight(table, mine[a.unit])
                i = table.board.index(table.board.parse(a.hex))
                if i not in cells or not watch[i] or a.hex == mine[a.unit]["hex"]:
                    continue
                value = bore_value(table, mine[a.unit], a, holds, {a.hex})
                if value is not None and value > 0 and (best is None or (value, a.hex) > best[:2]):
                    best = (value, a.hex, a)
        if best is None:
            return None
        where = "in" if best[1] in way or best[1] in holds else "out"
        why = f"bore sights {best[1]}, on the enemy's way {where} (C6.42)"
        return Option(self.score, Decision(best[2], why))
