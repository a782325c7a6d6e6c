"""The enemy's ways out and who watches them (RD-13 exit victories; issue 41: the hedgerow's
concealed Panzers waited where they set up while the careful Americans drove past corners no
German saw and off the west edge).

Each enemy unit that may still leave by the edge its side's exit victory names has its way
there (:class:`Way`): the hexes nearer that edge than it which it can reach heading for the
edge, at most ``[objective] watch_slack`` hexes out of the straight way; the sooner it could be
off the map, the more its way counts (``[objective] watch_pace`` hexes a Movement Phase). A
way is watched by this side's armed units other than the one weighing (what each sees within
``[objective] watch_range`` hexes, RD-9, and, for a Gun or a vehicle with no turret, inside its
Covered Arc, HX-2): the objective (:mod:`.objective`) counts a hex by the unwatched ways it
sees, so the side's vehicles share the watch out, and a concealed vehicle gives up waiting
hidden (``[move] hidden_stays``) as far as an enemy heading out goes unwatched
(:func:`must_move`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from game.board.hexes import Hex
from game.engine.play.concealment import CONCEALMENT_LOSS_RANGE
from game.engine.play.shot import COVERED_ARC_HALF
from game.engine.table import Table
from game.engine.view import UnitView
from game.rules.facing import facing_offset

from ..tuning import tuning
from .reach import to_edge


@dataclass(frozen=True)
class Way:
    """One enemy unit's way out: the board indexes of its hexes, and how soon it could leave
    (1 on the edge, falling with each Movement Phase it needs to get there)."""

    unit: str
    cells: tuple[int, ...]
    soon: float


def edge_distances(board, edge: str) -> np.ndarray:
    """Hexes from each board index to the map edge ``edge`` (:func:`~.reach.to_edge`), kept
    by the board's size (it depends on nothing else)."""
    key = (board.columns, board.rows, edge)
    found = _EDGES.get(key)
    if found is None:
        found = _EDGES[key] = np.array(
            [to_edge(board, board.hex_at(i), edge) for i in range(board.size)]
        )
    return found


_EDGES: dict[tuple[int, int, str], np.ndarray] = {}


def ways_out(table: Table, side: str, seen: list[UnitView]) -> list[Way]:
    """The ways out of each enemy unit that may still leave by the edge its side's exit victory
    names (RD-13; a "?" too: every side knows where a counter is, RD-11), as ``side`` sees
    the units (the module's text)."""
    t = tuning().objective
    board = table.board
    out: list[Way] = []
    for v in table.victory:
        if v.side == side or v.kind != "exit" or not v.edge:
            continue
        edge = edge_distances(board, v.edge)
        for u in seen:
            if u["side"] != v.side or u.get("status", "active") != "active" or not u.get("hex"):
                continue
            if u.get("immobilized") or not v.counts(u):
                continue
            i = board.index(board.parse(u["hex"]))
            far = int(edge[i])
            near = board.distances(i) <= far - edge + t.watch_slack
            cells = tuple(int(j) for j in np.flatnonzero((edge < far) & near))
            if cells:
                out.append(Way(u["id"], cells, 1.0 / (1.0 + far / t.watch_pace)))
    return out


def leaving(table: Table, side: str, unit_id: str) -> float:
    """How soon the enemy ``unit_id`` could leave by the edge its side's exit victory names
    (its :class:`Way`'s ``soon``: 1 on the edge), 0 if it has no way out."""
    board = table.board
    where = table.where(unit_id)
    if not where or where == "off":
        return 0.0
    exits = [v for v in table.victory if v.side != side and v.kind == "exit" and v.edge]
    if any(v.only for v in exits):  # a unit that would not count stays (RD-13)
        unit = next((u for u in table.units() if u["id"] == unit_id), None)
        exits = [v for v in exits if unit is None or v.counts(unit)]
    far = [to_edge(board, board.parse(where), v.edge) for v in exits if v.edge]
    if not far:
        return 0.0
    return 1.0 / (1.0 + min(far) / tuning().objective.watch_pace)


def hidden_shot(table: Table, side: str, target: str) -> float:
    """The least value a shot that gives a concealed vehicle away must have (RD-11):
    ``[fire] hidden_shot``, less as the target could sooner leave by its exit edge
    (:func:`leaving`): a shot at an enemy heading out may be the last (issue 41)."""
    return tuning().fire.hidden_shot * (1.0 - leaving(table, side, target))


def sight(table: Table, unit: UnitView) -> np.ndarray:
    """The board indexes ``unit`` of the side reading ``table`` watches (a boolean mask): in its
    LOS (RD-9) within ``[objective] watch_range`` hexes and, for a Gun or a vehicle with no
    turret, inside its Covered Arc as it faces (HX-2)."""
    board = table.board
    here = board.parse(unit["hex"])
    i = board.index(here)
    mask = np.asarray(table.viewshed(unit["hex"])[0], dtype=bool) & (
        board.distances(i) <= tuning().objective.watch_range
    )
    if unit.get("has_gun") and not unit.get("turreted"):
        facing = int(unit.get("facing", 0))
        for j in np.flatnonzero(mask):
            if facing_offset(here, facing, board.hex_at(int(j))) > COVERED_ARC_HALF:
                mask[j] = False
    return mask


def watchers(table: Table, side: str, unit_id: str, seen: list[UnitView]) -> np.ndarray:
    """What the armed units of ``side`` other than ``unit_id`` watch together (:func:`sight`)."""
    out = np.zeros(table.board.size, dtype=bool)
    for u in seen:
        if u["side"] != side or u["id"] == unit_id or u.get("status", "active") != "active":
            continue
        if u.get("has_gun") and u.get("hex"):
            out |= sight(table, u)
    return out


def unwatched(ways: list[Way], others: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """Each hex's share of the ways out the ``others`` leave unwatched (a way's ``soon`` x the
    share of it they do not see, spread over its hexes), and the ways' total ``soon``."""
    weight = np.zeros(size)
    total = 0.0
    for w in ways:
        cells = np.asarray(w.cells)
        need = w.soon * (1.0 - float(others[cells].mean()))
        weight[cells] += need / len(cells)
        total += w.soon
    return weight, total


def must_move(table: Table, side: str, unit: UnitView) -> float:
    """How much a concealed vehicle of ``side`` must give up waiting hidden (0-1): the largest,
    over the enemy units heading for their exit edge (RD-13), of how soon one could leave
    (:class:`Way`) times the share of its way that neither this side's other armed units nor
    the vehicle where it stands watch (:func:`sight`)."""
    seen = table.units()
    ways = ways_out(table, side, seen)
    if not ways:
        return 0.0
    watched = watchers(table, side, unit["id"], seen) | sight(table, unit)
    return max(w.soon * (1.0 - float(watched[np.asarray(w.cells)].mean())) for w in ways)


def in_enemy_sight(table: Table, side: str) -> np.ndarray:
    """The hexes where a unit of ``side`` that moves would be in the LOS of an enemy unit within
    16 hexes (a "?" too), as the terrain shows it: a concealed unit that spends MP there loses
    its concealment (RD-11)."""
    board = table.board
    out = np.zeros(board.size, dtype=bool)
    for u in table.units():
        if u["side"] == side or u.get("status", "active") != "active" or not u.get("hex"):
            continue
        i = board.index(board.parse(u["hex"]))
        out |= np.asarray(table.viewshed(u["hex"])[0], dtype=bool) & (
            board.distances(i) <= CONCEALMENT_LOSS_RANGE
        )
    return out


def reveals(table: Table, seen: np.ndarray, start: str, hexes: Sequence[str]) -> bool:
    """Whether a move from ``start`` through ``hexes`` would be made in the enemy's sight
    (:func:`in_enemy_sight`): any MP spent there, the start included, reveals a concealed
    unit (RD-11)."""
    board = table.board
    return any(seen[board.index(board.parse(h))] for h in (start, *hexes))


def arc_values(board, here: Hex, cells: np.ndarray, weight: np.ndarray) -> list[float]:
    """The ``weight`` of the board indexes ``cells`` inside the Covered Arc of a Gun or a
    vehicle with no turret in ``here`` (HX-2), in each of its six facings."""
    out = [0.0] * 6
    for j in cells:
        h = board.hex_at(int(j))
        w = float(weight[j])
        for f, inside in enumerate(_in_arc(h.q - here.q, h.r - here.r)):
            if inside:
                out[f] += w
    return out


@lru_cache(maxsize=1 << 14)
def _in_arc(dq: int, dr: int) -> tuple[bool, ...]:
    """Whether a hex ``(dq, dr)`` away lies inside the Covered Arc in each facing (HX-2)."""
    here = Hex(0, 0)
    return tuple(facing_offset(here, f, Hex(dq, dr)) <= COVERED_ARC_HALF for f in range(6))
