"""The per-cell tables both LOS engines score a line's hexes against (RD-9): for a line whose
higher end stands at each level, whether a cell blocks and what it hinders, in the padded grid
of cells of :mod:`.lines` (the ring of off-map cells blocks every trace). Used by
:mod:`.visibility` (all pairs) and :mod:`.viewsheds` (on demand), so that both score a hex the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .board import Board
from .lines import BLOCKED_CELL, LineTables
from .los import HINDRANCE_BLOCKS
from .sightlines import SightLines

_NEUTRAL_G2 = -1000  # a padding cell: never blocks, never hinders


_FAR = 1_000_000


@dataclass
class CellTables:
    """Per-cell lookup tables of one board, indexed by (level of the higher end) * size + cell.

    ``tb``: scale * obstacle top (half levels) + 1 if it is an obstacle (a same-level obstacle
    blocks); ``hv`` / ``ht``: terrain hindrance DRM and scale * its top; ``sm``/``smt``,
    ``wr``/``wrt``: smoke and wrecks. The padded grid's off-map cells block every trace; the
    neutral cell never matters.
    """

    size: int
    g2: np.ndarray
    tb: np.ndarray
    hv: np.ndarray
    ht: np.ndarray
    ht_one: np.ndarray | None
    """When every terrain hindrance is +1: ``ht`` where the terrain hinders, -far elsewhere."""
    has_markers: bool
    sm: np.ndarray
    smt: np.ndarray
    wr: np.ndarray
    wrt: np.ndarray


def cell_tables(board: Board, lt: LineTables | SightLines) -> CellTables:
    scale = lt.scale
    cat = board.catalogue
    size = lt.ncells + 1
    c = lt.cell_of
    levels = cat.max_level + 1
    g2 = np.zeros(size, dtype=np.int32)
    g2[c] = 2 * board.ground.astype(np.int32)
    g2[-1] = _NEUTRAL_G2
    obs2 = np.zeros(size, dtype=np.int32)
    obs2[c] = 2 * board.obstacle.astype(np.int32)
    orchard = np.zeros(size, dtype=bool)
    orchard[c] = board.orchard
    hind = np.zeros(size, dtype=np.int32)
    hind[c] = board.hindrance
    htop2 = np.full(size, _NEUTRAL_G2, dtype=np.int32)
    htop2[c] = g2[c] + board.hindrance_top2
    offmap = np.ones(size, dtype=bool)
    offmap[c] = False
    offmap[-1] = False
    tb, hv = [], []
    for m in range(levels):
        orchard_obstacle = orchard & (2 * m > g2)
        has_obs = (obs2 > 0) & (~orchard | orchard_obstacle)
        top2 = g2 + np.where(has_obs, obs2, 0)
        t = scale * top2 + has_obs
        t[offmap] = _FAR
        t[-1] = -_FAR
        tb.append(t)
        hv.append(np.where(orchard_obstacle, 0, hind))
    sm = np.zeros(size, dtype=np.int32)
    sm[c] = board.smoke * cat.smoke.hindrance
    wr = np.zeros(size, dtype=np.int32)
    wr[c] = board.wrecks.astype(np.int32) * cat.wreck.hindrance

    def per_level(a: np.ndarray) -> np.ndarray:
        return np.tile(a, levels)

    hv_all = np.concatenate(hv)
    one = bool(((hv_all == 0) | (hv_all == 1)).all())

    return CellTables(
        size=size,
        g2=g2,
        tb=np.concatenate(tb),
        hv=np.concatenate(hv),
        ht=per_level(scale * htop2),
        ht_one=np.where(hv_all > 0, per_level(scale * htop2), -_FAR) if one else None,
        has_markers=bool(sm.any() or wr.any()),
        sm=per_level(sm),
        smt=per_level(scale * (g2 + round(2 * cat.smoke.hindrance_top))),
        wr=per_level(wr),
        wrt=per_level(scale * (g2 + round(2 * cat.wreck.hindrance_top))),
    )


def with_markers(
    cl: CellTables, board: Board, lt: LineTables | SightLines, changed: list[int]
) -> CellTables:
    """``cl`` with the smoke and wrecks of board indices ``changed`` as they are now (what
    :func:`cell_tables` would build, without rebuilding the terrain's tables)."""
    cat = board.catalogue
    idx = np.asarray(sorted(set(changed)), dtype=np.intp)
    levels = len(cl.sm) // cl.size
    at = (np.arange(levels)[:, None] * cl.size + lt.cell_of[idx][None, :]).reshape(-1)
    sm, wr = cl.sm.copy(), cl.wr.copy()
    sm[at] = np.tile(board.smoke[idx] * cat.smoke.hindrance, levels)
    wr[at] = np.tile(board.wrecks[idx].astype(np.int32) * cat.wreck.hindrance, levels)
    return replace(cl, sm=sm, wr=wr, has_markers=bool(sm.any() or wr.any()))


def score_cells(cl: CellTables, scale: int, idx: np.ndarray, lhs, n) -> np.ndarray:
    """Per hex of a line: BLOCKED_CELL if it blocks, plus its Case R DRM (RD-9). ``idx`` are
    cells offset by the level table, ``lhs`` the line's height x range at each, ``n`` the
    range (one for all, or per line)."""
    if np.ndim(n) == 0:  # one range for every pair: scale the small tables, not the lines
        tb, ht, n1 = cl.tb * n, cl.ht * n, 1
    else:
        tb, ht, n1 = cl.tb, cl.ht, n
    lim = lhs - (scale - 1)
    # bool * int instead of np.where(cond, x, 0): the same values, several times faster;
    # take(mode="wrap") on indices known to be in range: the same values, without numpy's
    # slower bounds handling
    if cl.ht_one is not None:  # every terrain hindrance is +1: one lookup says it all
        hto = cl.ht_one * n if np.ndim(n) == 0 else cl.ht_one
        score = (lim <= hto.take(idx, mode="wrap") * n1).astype(np.int32)
    else:
        score = cl.hv.take(idx, mode="wrap") * (lim <= ht.take(idx, mode="wrap") * n1)
    if cl.has_markers:
        score += cl.sm.take(idx, mode="wrap") * (lim <= cl.smt.take(idx, mode="wrap") * n)
        score += cl.wr.take(idx, mode="wrap") * (lim <= cl.wrt.take(idx, mode="wrap") * n)
    score += (tb.take(idx, mode="wrap") * n1 > lhs) * np.int32(BLOCKED_CELL)
    return score


def finish(total_p: np.ndarray, total_m: np.ndarray, *ends: np.ndarray) -> list:
    """(clear, hindrance) of lines from their two traces' interior totals and the Case R DRM
    of the target's hex, for each of ``ends`` (the hex at one end, then the other): the clear
    trace with the smaller hindrance (RD-9); 0 when blocked."""
    blk_p, s_p = total_p >= BLOCKED_CELL, total_p % BLOCKED_CELL
    blk_m, s_m = total_m >= BLOCKED_CELL, total_m % BLOCKED_CELL
    out = []
    for end in ends:
        tp, tm = s_p + end, s_m + end
        cp = ~blk_p & (tp < HINDRANCE_BLOCKS)
        cm = ~blk_m & (tm < HINDRANCE_BLOCKS)
        hind = np.where(cp & (~cm | (tp <= tm)), tp, np.where(cm, tm, 0))
        out.append((cp | cm, hind))
    return out
