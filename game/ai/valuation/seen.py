"""Level 3's model of the enemy it has met (issue 41, eleventh session): the hexes the enemy's
vehicles have been seen to drive through this game, read from the searching side's table alone
(the move events its log shows, of the enemy vehicles it knows: never the game), and an
objective for the enemy's playout player that weighs the hexes near them (a route prior): the
enemy in the search's playouts drives where this enemy has driven, not only where level 2's
scorer would (docs/ai.md "The enemy it has met"; measured in docs/ai-experiments.md "Level 3
against the enemy it has met")."""

from __future__ import annotations

from game.engine.errors import IllegalAction
from game.engine.table import Table

from ..tuning import tuning
from .objective import Objective, Objectives


def seen_routes(table: Table, side: str, earlier: bool = False) -> frozenset[str]:
    """The hexes the enemy vehicles of ``side`` were seen to move into this game (their move
    events in ``side``'s log); ``earlier``: in the phases before this one alone. The vehicles:
    those its table shows in play (a "?" left out: what it is stays secret, RD-11), and those
    it saw leave the map (:func:`gone_vehicles`): the route of the first Sherman off the
    hedgerow's west edge is the way the next will take (issue 41, twelfth session)."""
    enemy = {
        u["id"]
        for u in table.units()
        if u["side"] != side and u.get("is_vehicle") and not u.unknown
    }
    enemy |= gone_vehicles(table, side)
    events = table.events()
    if earlier:
        starts = [i for i, e in enumerate(events) if e.kind == "phase"]
        events = events[: starts[-1]] if starts else []
    seen: set[str] = set()
    for e in events:
        if e.kind == "move" and e.data.get("unit") in enemy:
            to = e.data.get("to")
            if isinstance(to, str):  # an exit is an "exit" event, not a move
                seen.add(to)
    return frozenset(seen)


def gone_vehicles(table: Table, side: str) -> set[str]:
    """The enemy vehicles of ``side`` it saw leave the map (RD-13: an exit is seen by both
    sides; :meth:`~game.engine.tableview.TableView.gone_enemies`, ``went_off``). One that left
    concealed is left out (what it was stays its side's secret, RD-11), and so is one knocked
    out: its route led into this side's fire, not the way the next will take (measured, issue
    41, twelfth session: with those routes too the hedgerow's German lost a game of main's)."""
    out = set()
    for uid in table.gone_enemies():
        try:
            kind = table.unit_type(uid)
        except IllegalAction:  # it left as a "?"
            continue
        if kind.is_vehicle and table.went_off(uid) is not None:
            out.add(uid)
    return out


class SeenObjectives(Objectives):
    """The enemy playout player's objectives (``side``: the enemy's): a vehicle's objective
    plus ``[search] seen_weight`` in a hex the enemy was seen to drive through, less for each
    hex farther from the nearest of them, nothing from ``[search] seen_reach`` hexes on."""

    def __init__(self, side: str, seen: frozenset[str]):
        super().__init__(side)
        self.seen = seen
        self._near: dict[str, float] = {}
        self._board: object | None = None

    def near(self, table: Table, hx: str) -> float:
        """How near ``hx`` lies to the seen hexes: 1 in one, 0 from ``seen_reach`` on."""
        if table.board is not self._board:
            self._board, self._near = table.board, {}
        got = self._near.get(hx)
        if got is None:
            reach = tuning().search.seen_reach
            board = table.board
            here = board.parse(hx)
            d = min((here.distance(board.parse(s)) for s in self.seen), default=reach)
            got = self._near[hx] = max(0.0, 1.0 - d / reach)
        return got

    def of(self, table: Table, unit_id: str) -> Objective:
        base = super().of(table, unit_id)
        unit = table.unit(unit_id)
        weight = tuning().search.seen_weight
        if not self.seen or weight <= 0.0 or unit is None or not unit.get("is_vehicle"):
            return base
        return lambda hx: base(hx) + weight * self.near(table, hx)
