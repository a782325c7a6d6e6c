"""The threat and attack maps (RD-18) a computer player keeps: each of its vehicles' map over
the hexes it weighs, kept while the enemies its side knows stand as they do, and the count of
hexes weighed (``work``: what level 3's search budget counts)."""

from __future__ import annotations

from collections.abc import Callable

from game.engine.table import Table
from game.engine.view import UnitRecord

KEEP = 256
"""Maps kept at most (then all are dropped: a new phase or a moved enemy makes new ones)."""


class KeptMaps:
    """The maps of ``side``'s vehicles, kept in ``store`` (level 3's playout players share one:
    the maps depend on the enemies, not on the plan), and the hexes weighed (``work``)."""

    def __init__(self, side: str, store: dict[tuple, tuple[set[str], dict]] | None = None):
        self.side = side
        self.store: dict[tuple, tuple[set[str], dict]] = {} if store is None else store
        self.work = 0
        """The hexes weighed (each hex a planner call scores, each hex of a threat or attack
        map made): what a search's budget counts, as it grows with the time spent."""

    def threats(self, table: Table, unit_id: str, within: frozenset[str]) -> dict:
        """The threat map of an own vehicle (RD-18) over the hexes ``within`` it weighs (a
        large map's others cost time and are never read), kept while the enemies stand
        still."""
        # what it is read for depends on the enemies alone: an own vehicle's hex (the only
        # other input, HX-4) is never scored (not reachable, not free to set up in), so a
        # resumed game, its cache empty, decides the same
        me: UnitRecord = next((u for u in table.units() if u["id"] == unit_id), {})
        own = (me.get("facing"), me.get("turret"), me.get("status"))  # its aspect to each shot
        what = ("threat", unit_id, own)
        return self._kept(table, what, table.threat_map, unit_id, within)

    def attacks(self, table: Table, unit_id: str, within: frozenset[str]) -> dict:
        """The attack map of an own vehicle (the threat map turned round) over the hexes
        ``within``, kept while the enemies stand still; the same key as :meth:`threats` (it
        reads no more)."""
        return self._kept(table, ("attack", unit_id), table.attack_map, unit_id, within)

    def routes(self, table: Table, unit_id: str) -> dict:
        """The hexes an own vehicle can reach this phase and the routes there
        (:meth:`Table.reachable`), kept while every unit stands as it does and the vehicle
        has the same MP left: level 3's playouts start from the same game, so most of their
        planner calls are asked again (the route planner was most of a playout's time)."""
        units = table.units()
        me = next((u for u in units if u["id"] == unit_id), None)
        if me is None:
            return table.reachable(unit_id)
        where = tuple((u["id"], u["hex"], u.get("status")) for u in units)
        how = tuple(me.get(k) for k in ("facing", "mp_spent", "moving", "motion", "immobilized"))
        key = ("routes", unit_id, how, where, table.turn, table.phasing, table.phase)
        kept = self.store.get(key)
        if kept is None:
            if len(self.store) > KEEP:
                self.store.clear()
            kept = self.store[key] = (set(), table.reachable(unit_id))
            self.work += len(kept[1])  # the planner's hexes: a search's budget counts them
        return kept[1]

    def ahead(self, table: Table, unit_id: str, within: frozenset[str]) -> dict:
        """The threat ahead of an own vehicle (:meth:`Table.threat_ahead`: hex -> facing ->
        the figure once the enemies have made their next move, RD-18) over the hexes
        ``within``, kept as :meth:`threats` (it reads the enemies and the terrain alone)."""
        return self._kept(table, ("ahead", unit_id), table.threat_ahead, unit_id, within)

    def _kept(
        self,
        table: Table,
        what: tuple,
        build: Callable[[str, frozenset[str]], dict],
        unit_id: str,
        within: frozenset[str],
    ) -> dict:
        """A map of ``unit_id`` over the hexes ``within`` (``build(unit_id, hexes)``), kept
        while the enemies it may see stand as they do, in this phase: a hex made once is not
        made again (its figure is the same whatever other hexes were asked for), unless its
        own side's unit stood in it (a hex it may not enter has no figure, HX-4); ``what``
        names the map and what else it depends on."""
        units = table.units()
        enemies = tuple(  # and what a shot of theirs reads that a shot may change (C6.5)
            (
                u["id"],
                u["hex"],
                u.get("status"),
                u.get("facing"),
                u.get("turret"),
                u.get("shock"),
                tuple(u.get("acquisition") or ()),
            )
            for u in units
            if u["side"] != self.side
        )
        key = (*what, enemies, table.turn, table.phasing, table.phase)
        kept = self.store.get(key)
        if kept is None:
            if len(self.store) > KEEP:
                self.store.clear()
            kept = self.store[key] = (set(), {})
        made, figures = kept
        missing = within - made
        if missing:
            part = build(unit_id, frozenset(missing))
            figures.update(part)
            made |= missing - {u["hex"] for u in units if u["side"] == self.side}
            self.work += len(part)
        return figures
