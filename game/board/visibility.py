"""LOS in bulk with numpy: the all-pairs visibility of a board and one hex's viewshed (RD-9).

It computes exactly what the scalar reference :func:`game.board.los.los` computes (a hypothesis
test holds it to every pair), faster, by three facts:

* a hex line depends only on the displacement ``b - a`` (the nudge is the same for every pair),
  so the two nudged traces of every displacement are drawn once per board size, as offsets in a
  padded axial grid of cells (:class:`LineTables`): the hexes of a pair's line are then
  ``cell(a) + offsets``;
* a line and its reverse pass through the same hexes at the same heights, so each unordered pair
  is traced once and only the end hexes' hindrance differs between the two directions (the firer's
  hex never hinders, the target's does);
* pairs are processed grouped by range, each group one set of whole-array numpy operations.

Smoke and wrecks appear in play: :meth:`Visibility.update` recomputes only the pairs whose line
touches the hexes that changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .board import Board
from .hexes import EPSILON, from_offset
from .los import HINDRANCE_BLOCKS

_NEUTRAL_G2 = -1000  # a padding cell: never blocks, never hinders


def _round_cube(fq: np.ndarray, fr: np.ndarray, fs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Red Blob's cube rounding, vectorised (same ties as :func:`game.board.hexes.hex_round`)."""
    q, r, s = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    q = np.where(fix_q, -r - s, q)
    r = np.where(fix_r, -q - s, r)
    return q.astype(np.int32), r.astype(np.int32)


@dataclass(frozen=True)
class LineTables:
    """The hex lines of every displacement on a board of one size; they never change in play."""

    columns: int
    rows: int
    rs: int
    """Cells per axial column of the padded grid."""
    ncells: int
    neutral: int
    """The padding cell index (one past the grid)."""
    cell_of: np.ndarray
    """Board index -> cell."""
    index_of: np.ndarray
    """Cell -> board index, -1 off the map."""
    disp: np.ndarray
    """(ND, 2) canonical displacements (dq > 0, or dq == 0 and dr > 0), sorted by range."""
    dist: np.ndarray
    """(ND,) range of each displacement."""
    dcell: np.ndarray
    """(ND,) cell offset of each displacement."""
    off_plus: np.ndarray
    """(ND, maxN + 1) cell offsets of the +nudged trace; padded with 0 past the range."""
    off_minus: np.ndarray
    axial_plus: tuple[np.ndarray, np.ndarray]
    """The +nudged trace's (dq, dr) offsets, each (ND, maxN + 1)."""
    axial_minus: tuple[np.ndarray, np.ndarray]
    off_plus_t: np.ndarray
    """(maxN + 1, ND) the same, transposed and as intp, for (step, pair) layouts."""
    off_minus_t: np.ndarray
    two_traces: np.ndarray
    """(ND,) whether the -nudged trace differs from the +nudged one."""
    disp_lookup: np.ndarray
    """(2*columns-1, rspan) -> displacement id, or -(id+1) for the negated canonical one."""
    dq0: int
    dr0: int
    pair_src: np.ndarray
    """All unordered pairs as (board index of the canonical first hex, displacement id)."""
    pair_did: np.ndarray
    group_bounds: np.ndarray
    """pair_src[group_bounds[k]:group_bounds[k+1]] have range group_range[k]."""
    group_range: np.ndarray

    @property
    def max_range(self) -> int:
        return int(self.dist.max()) if len(self.dist) else 0

    @property
    def scale(self) -> int:
        """Heights x range are compared as scale * (line height x range) + a tie term below
        the scale, exactly in integers: the scale exceeds every range."""
        return self.max_range + 2


def _on_board(q: np.ndarray, r: np.ndarray, columns: int, rows: int) -> np.ndarray:
    """Which axial (q, r) lie on a columns x rows odd-q board."""
    row = r + (q - (q & 1)) // 2
    return (q >= 0) & (q < columns) & (row >= 0) & (row < rows)


@cache
def line_tables(columns: int, rows: int) -> LineTables:
    """Precompute the lines of a board size (cached: boards of one size share them)."""
    n = columns * rows
    idx = np.arange(n)
    col, row = idx % columns, idx // columns
    q = col
    r = row - (col - (col & 1)) // 2
    qmin, rmin = -1, int(r.min()) - 1
    rs = int(r.max()) + 1 - rmin + 1
    ncells = (columns + 2) * rs
    cell_of = ((q - qmin) * rs + (r - rmin)).astype(np.int32)
    index_of = np.full(ncells + 1, -1, dtype=np.int32)
    index_of[cell_of] = idx

    # canonical displacements that some on-board pair realises
    dq_all = q[None, :] - q[:, None]
    dr_all = r[None, :] - r[:, None]
    canon = (dq_all > 0) | ((dq_all == 0) & (dr_all > 0))
    dr0 = int(r.min() - r.max())
    rspan = 2 * int(r.max() - r.min()) + 1
    codes = np.unique((dq_all[canon]) * rspan + (dr_all[canon] - dr0))
    dq = codes // rspan
    dr = codes % rspan + dr0
    dist = ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).astype(np.int32)
    order = np.argsort(dist, kind="stable")
    dq, dr, dist = dq[order], dr[order], dist[order]
    nd = len(dist)
    maxn = int(dist.max()) if nd else 0

    # both nudged traces of every displacement (Red Blob's lerp + round, as hexes.line)
    t = np.arange(maxn + 1)[None, :] / np.maximum(dist, 1)[:, None]
    valid = np.arange(maxn + 1)[None, :] <= dist[:, None]
    offs, axial = [], []
    for sign in (1, -1):
        e = EPSILON * sign
        oq, orr = _round_cube(
            e + dq[:, None] * t, 2 * e + dr[:, None] * t, -3 * e - (dq + dr)[:, None] * t
        )
        offs.append(np.where(valid, oq * rs + orr, 0).astype(np.int32))
        axial.append((np.where(valid, oq, 0), np.where(valid, orr, 0)))
    off_plus, off_minus = offs
    two = (off_plus != off_minus).any(axis=1)

    lookup = np.zeros((2 * columns - 1, rspan), dtype=np.int32)
    ids = np.arange(nd, dtype=np.int32)
    lookup[dq + columns - 1, dr - dr0] = ids
    lookup[-dq + columns - 1, -dr - dr0] = -(ids + 1)

    # every unordered on-board pair, grouped by range
    dcell = (dq * rs + dr).astype(np.int32)
    ok = _on_board(q[None, :] + dq[:, None], r[None, :] + dr[:, None], columns, rows)
    did, src = np.nonzero(ok)  # sorted by displacement id, hence by range
    pair_dist = dist[did]
    bounds = np.flatnonzero(np.diff(pair_dist)) + 1
    group_bounds = np.concatenate([[0], bounds, [len(did)]]).astype(np.int64)
    group_range = pair_dist[group_bounds[:-1]] if len(did) else np.zeros(0, dtype=np.int32)
    return LineTables(
        columns=columns,
        rows=rows,
        rs=rs,
        ncells=ncells,
        neutral=ncells,
        cell_of=cell_of,
        index_of=index_of,
        disp=np.stack([dq, dr], axis=1).astype(np.int32),
        dist=dist,
        dcell=dcell,
        off_plus=off_plus,
        off_minus=off_minus,
        axial_plus=axial[0],
        axial_minus=axial[1],
        off_plus_t=np.ascontiguousarray(off_plus.T).astype(np.intp),
        off_minus_t=np.ascontiguousarray(off_minus.T).astype(np.intp),
        two_traces=two,
        disp_lookup=lookup,
        dq0=columns - 1,
        dr0=dr0,
        pair_src=src.astype(np.int32),
        pair_did=did.astype(np.int32),
        group_bounds=group_bounds,
        group_range=group_range.astype(np.int32),
    )


_BLOCK = 4096
"""A blocking hex adds this to a trace's score; hindrances add their DRM (always far below it)."""
_FAR = 1_000_000
_CHUNK = 1 << 16
"""Line hexes scored per numpy pass (cache-sized)."""


@dataclass
class _Cells:
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
    has_markers: bool
    sm: np.ndarray
    smt: np.ndarray
    wr: np.ndarray
    wrt: np.ndarray


def _cells(board: Board, lt: LineTables) -> _Cells:
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

    return _Cells(
        size=size,
        g2=g2,
        tb=np.concatenate(tb),
        hv=np.concatenate(hv),
        ht=per_level(scale * htop2),
        has_markers=bool(sm.any() or wr.any()),
        sm=per_level(sm),
        smt=per_level(scale * (g2 + round(2 * cat.smoke.hindrance_top))),
        wr=per_level(wr),
        wrt=per_level(scale * (g2 + round(2 * cat.wreck.hindrance_top))),
    )


class Visibility:
    """All-pairs visibility and viewsheds of one board, equal to the scalar reference."""

    def __init__(self, board: Board):
        self.board = board
        self.tables = line_tables(board.columns, board.rows)
        self._cl = _cells(board, self.tables)
        self.clear: np.ndarray | None = None
        """(n, n) bool: clear[a, b] is the LOS from hex index a (firer) to b (target)."""
        self.hindrance: np.ndarray | None = None
        """(n, n) int8: the Case R total of a clear LOS (0 where blocked)."""

    # --- the kernel -----------------------------------------------------------------------

    def _score(self, idx: np.ndarray, lhs: np.ndarray, n) -> np.ndarray:
        """Per hex of a line: _BLOCK if it blocks, plus its Case R DRM (RD-9)."""
        cl = self._cl
        if np.ndim(n) == 0:  # one range for every pair: scale the small tables, not the lines
            tb, ht, n1 = cl.tb * n, cl.ht * n, 1
        else:
            tb, ht, n1 = cl.tb, cl.ht, n
        lim = lhs - (self.tables.scale - 1)
        # bool * int instead of np.where(cond, x, 0): the same values, several times faster
        score = cl.hv.take(idx) * (lim <= ht.take(idx) * n1)
        if cl.has_markers:
            score += cl.sm.take(idx) * (lim <= cl.smt.take(idx) * n)
            score += cl.wr.take(idx) * (lim <= cl.wrt.take(idx) * n)
        score += (tb.take(idx) * n1 > lhs) * np.int32(_BLOCK)
        return score

    def _totals(self, did, start, mbase, n, base, slope):
        """Score sums (_BLOCK per blocking hex + Case R DRM) of the interior of both traces."""
        lt, cl = self.tables, self._cl
        k = max(int(n.max()) - 1, 0)
        uniform = int(n.min()) == int(n.max())
        nn = int(n[0]) if uniform else n[None, :]
        steps = np.arange(1, k + 1, dtype=np.int32)[:, None]
        off_p = lt.off_plus_t[1 : k + 1][:, did]
        idx = off_p + start[None, :]
        if not uniform:
            idx = np.where(steps >= n[None, :], cl.size - 1 + mbase[None, :], idx)
        lhs = base[None, :] + slope[None, :] * steps
        score = self._score(idx, lhs, nn)
        total_p = score.sum(axis=0, dtype=np.int32)
        sel = np.flatnonzero(lt.two_traces[did])
        if not len(sel):
            return total_p, total_p
        off_m = lt.off_minus_t[1 : k + 1][:, did[sel]]
        st, pj = np.nonzero(off_m != off_p[:, sel])
        pair = sel[pj]
        sc_m = self._score(off_m[st, pj] + start[pair], lhs[st, pair], nn if uniform else n[pair])
        size = len(n)
        total_m = (
            total_p
            - np.bincount(pair, weights=score[st, pair], minlength=size).astype(np.int32)
            + np.bincount(pair, weights=sc_m, minlength=size).astype(np.int32)
        )
        return total_p, total_m

    def _pairs(self, src: np.ndarray, did: np.ndarray):
        """Both directions of the unordered pairs (src, src + displacement did):
        [(clear, hindrance) of src -> dst, (clear, hindrance) of dst -> src].

        The +nudged trace is scored at every interior step, laid out (step, pair) so the sum over
        steps runs row by row; the -nudged trace differs from it only at a few steps of a few
        displacements, and only those are scored again."""
        lt, cl = self.tables, self._cl
        scale = lt.scale
        did = did.astype(np.intp)
        n = lt.dist[did].astype(np.int32)
        a_cell = lt.cell_of[src].astype(np.intp)
        b_cell = a_cell + lt.dcell[did]
        ha2, hb2 = cl.g2[a_cell], cl.g2[b_cell]
        mbase = (np.maximum(ha2, hb2) // 2).astype(np.intp) * cl.size
        tie = np.where(ha2 == hb2, 0, n)  # equal to a same-level top blocks only a level line
        base = scale * ha2 * n + tie
        slope = scale * (hb2 - ha2)
        start = a_cell + mbase
        ea = self._score(start, scale * ha2, 1) % _BLOCK
        eb = self._score(b_cell + mbase, scale * hb2, 1) % _BLOCK

        total_p = np.empty(len(n), dtype=np.int32)
        total_m = np.empty(len(n), dtype=np.int32)
        k = max(int(n.max()) - 1, 1) if len(n) else 1
        step = max(_CHUNK // k, 1)  # pairs per chunk: keep the (step, pair) arrays in cache
        for c0 in range(0, len(n), step):
            c = slice(c0, c0 + step)
            total_p[c], total_m[c] = self._totals(
                did[c], start[c], mbase[c], n[c], base[c], slope[c]
            )
        blk_p, s_p = total_p >= _BLOCK, total_p % _BLOCK
        blk_m, s_m = total_m >= _BLOCK, total_m % _BLOCK
        out = []
        for end in (eb, ea):  # a -> b (the target is b), then b -> a
            tp, tm = s_p + end, s_m + end
            cp = ~blk_p & (tp < HINDRANCE_BLOCKS)
            cm = ~blk_m & (tm < HINDRANCE_BLOCKS)
            hind = np.where(cp & (~cm | (tp <= tm)), tp, np.where(cm, tm, 0))
            out.append((cp | cm, hind))
        return out

    # --- public ---------------------------------------------------------------------------

    def all_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """The visibility of every ordered pair: (clear, hindrance), each (n, n)."""
        lt = self.tables
        size = self.board.size
        clear = np.ones((size, size), dtype=bool)
        hind = np.zeros((size, size), dtype=np.int8)
        b = lt.group_bounds
        for k in range(len(b) - 1):
            src = lt.pair_src[b[k] : b[k + 1]]
            did = lt.pair_did[b[k] : b[k + 1]]
            self._store(clear, hind, src, did)
        self.clear, self.hindrance = clear, hind
        return clear, hind

    def _store(self, clear, hind, src, did) -> None:
        lt = self.tables
        dst = lt.index_of[lt.cell_of[src] + lt.dcell[did]]
        (c_ab, h_ab), (c_ba, h_ba) = self._pairs(src, did)
        clear[src, dst], hind[src, dst] = c_ab, np.where(c_ab, h_ab, 0)
        clear[dst, src], hind[dst, src] = c_ba, np.where(c_ba, h_ba, 0)

    def viewshed(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        """What hex index ``a`` sees: (clear, hindrance) over every board index."""
        lt = self.tables
        size = self.board.size
        others = np.delete(np.arange(size), a)
        qa, ra = self._axial(np.array([a]))
        qb, rb = self._axial(others)
        code = lt.disp_lookup[qb - qa + lt.dq0, rb - ra - lt.dr0]
        forward = code >= 0
        did = np.where(forward, code, -code - 1)
        src = np.where(forward, a, others)
        (c_ab, h_ab), (c_ba, h_ba) = self._pairs(src.astype(np.int32), did)
        clear = np.ones(size, dtype=bool)
        hind = np.zeros(size, dtype=np.int8)
        clear[others] = np.where(forward, c_ab, c_ba)
        hind[others] = np.where(clear[others], np.where(forward, h_ab, h_ba), 0)
        return clear, hind

    def _axial(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cols = self.board.columns
        col, row = idx % cols, idx // cols
        return col, row - (col - (col & 1)) // 2

    def update(self, changed: list[int]) -> int:
        """Refresh after smoke or wrecks changed in board indices ``changed``: only the pairs
        whose line touches them are recomputed. Returns the number of unordered pairs redone."""
        if self.clear is None or self.hindrance is None:
            raise RuntimeError("compute all_pairs() before update()")
        self._cl = _cells(self.board, self.tables)
        lt = self.tables
        keys = []
        cols, rows = self.board.columns, self.board.rows
        ids = np.arange(len(lt.dist))[:, None]
        for h in changed:
            hq, hr = self._axial(np.array(h))
            for oq, orr in (lt.axial_plus, lt.axial_minus):
                steps = np.arange(oq.shape[1])[None, :]
                sq, sr = hq - oq, hr - orr  # the pair's first hex, if h is its step `steps`
                good = (steps <= lt.dist[:, None]) & _on_board(sq, sr, cols, rows)
                good &= _on_board(sq + lt.disp[:, :1], sr + lt.disp[:, 1:], cols, rows)
                src = (sr + (sq - (sq & 1)) // 2) * cols + sq
                d_ids = np.broadcast_to(ids, good.shape)
                keys.append(src[good].astype(np.int64) * len(lt.dist) + d_ids[good])
        if not keys:
            return 0
        uniq = np.unique(np.concatenate(keys))
        src = (uniq // len(lt.dist)).astype(np.int32)
        did = (uniq % len(lt.dist)).astype(np.int32)
        order = np.argsort(lt.dist[did], kind="stable")
        src, did = src[order], did[order]
        bounds = np.flatnonzero(np.diff(lt.dist[did])) + 1
        for part in np.split(np.arange(len(did)), bounds):
            self._store(self.clear, self.hindrance, src[part], did[part])
        return len(uniq)


def hex_of(board: Board, i: int):
    """The hex of board index ``i`` (a convenience for callers holding indices)."""
    return from_offset(i % board.columns, i // board.columns)
