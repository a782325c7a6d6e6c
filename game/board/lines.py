"""Hex lines in bulk (RD-9): every displacement's two nudged traces, drawn once per board size
as offsets in a padded axial grid of cells (:class:`LineTables`); :mod:`.visibility` scores them
against a board's terrain."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import axial_arrays
from .hexes import EPSILON, axial_distance
from .sizecache import one_size


def round_cube(fq: np.ndarray, fr: np.ndarray, fs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
    flat_plus: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    """Every (displacement, step, dq, dr) of the +nudged traces, steps 0..range only."""
    flat_minus: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    """The same for the -nudged traces of the displacements whose two traces differ."""
    off_plus_t: np.ndarray
    """(maxN + 1, ND) the same, transposed and as intp, for (step, pair) layouts."""
    two_traces: np.ndarray
    """(ND,) whether the -nudged trace differs from the +nudged one."""
    diff_ptr: np.ndarray
    """(ND + 1,) CSR pointers into diff_step: the steps where a displacement's traces differ."""
    diff_step: np.ndarray
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
    pair_pos: np.ndarray
    """(ND, n) -> the position of pair (displacement, first hex) in pair_src / pair_did."""
    through_plus: Through
    """The +nudged trace entries of :attr:`flat_plus`, as offsets from the hex they pass."""
    through_minus: Through
    """The -nudged entries where that trace leaves the +nudged one (elsewhere the same)."""

    @property
    def max_range(self) -> int:
        return int(self.dist.max()) if len(self.dist) else 0

    @property
    def scale(self) -> int:
        """Heights x range are compared as scale * (line height x range) + a tie term below
        the scale, exactly in integers: the scale exceeds every range."""
        return self.max_range + 2


@dataclass(frozen=True)
class Through:
    """Every (displacement, step) of one trace kind, seen from the hex ``h`` at that step: the
    offset (column, row) of the pair's first hex from ``h`` in the odd-q offset grid, whose row
    offset depends only on the parity of h's column, and the bounds that keep both ends on the
    board. The pairs whose line passes a hex are then a few integer comparisons away
    (:meth:`.visibility.Visibility.update`). The entries are sorted by their lowest column
    (:attr:`col_lo`): those that fit a hex's column begin the table."""

    did: np.ndarray
    step: np.ndarray
    inner: np.ndarray
    """The step lies strictly between the ends (the hex is on the line's interior)."""
    shared: np.ndarray
    """The other trace stands on the same hex at this step (only the +nudged entries say so:
    the -nudged table keeps only the steps where its trace differs)."""
    scol: np.ndarray
    srow: np.ndarray
    """(2, M): the first hex's row offset for h in an even, an odd column."""
    col_lo: np.ndarray
    """The lowest column of ``h`` that keeps both ends on the board (ascending)."""
    col_hi: np.ndarray
    """Both ends stand on the board when ``col_hi < columns - column of h``."""
    row_lo: np.ndarray
    """(2, M), by the parity of h's column: the lowest row of ``h`` with both ends on it."""
    row_hi: np.ndarray
    """(2, M): both ends stand on the board when ``row_hi < rows - row of h``."""
    fits: np.ndarray
    """By column c of ``h``: how many entries have ``col_lo <= c`` (the first ones)."""

    def pairs_at(self, col: int, row: int, columns: int, rows: int) -> np.ndarray:
        """The entries whose pair has both ends on a columns x rows board, for the hex at
        (column, row)."""
        p = col & 1
        k = int(self.fits[col])  # the entries whose lowest column fits, first in the table
        good = self.col_hi[:k] < columns - col
        good &= self.row_lo[p, :k] <= row
        good &= self.row_hi[p, :k] < rows - row
        return np.flatnonzero(good)


def _small_int(limit: int) -> type:
    """The narrowest signed integer type holding -limit..limit (comparisons over narrow
    arrays run faster)."""
    for t in (np.int8, np.int16):
        if limit <= np.iinfo(t).max:
            return t
    return np.int32


def _through(
    flat,
    disp: np.ndarray,
    dist: np.ndarray,
    differ: np.ndarray | None,
    columns: int,
    rows: int,
) -> Through:
    fd, fs, fq, fr = flat
    dq, dr = disp[fd, 0], disp[fd, 1]

    def half(y: np.ndarray) -> np.ndarray:  # odd-q: row = r + (q - (q & 1)) // 2
        return (y - (y & 1)) // 2

    scol, ecol = -fq, -fq + dq
    srow = np.stack([-fr + half(p - fq) for p in (0, 1)])
    erow = np.stack([-fr + dr + half(p - fq + dq) for p in (0, 1)])
    col_lo = np.maximum(-scol, -ecol)
    order = np.argsort(col_lo, kind="stable")
    i32 = np.int32
    small = _small_int(
        max(columns, rows, int(np.abs(scol).max(initial=0)), int(np.abs(ecol).max(initial=0)))
        + max(int(np.abs(srow).max(initial=0)), int(np.abs(erow).max(initial=0)))
    )
    col_lo = col_lo[order]
    return Through(
        did=fd[order].astype(np.intp),
        step=fs[order].astype(np.intp),
        inner=((fs > 0) & (fs < dist[fd]))[order],
        shared=~differ[fd, fs][order] if differ is not None else np.zeros(len(fd), dtype=bool),
        scol=scol[order].astype(i32),
        srow=srow[:, order].astype(i32),
        col_lo=col_lo.astype(small),
        col_hi=np.maximum(scol, ecol)[order].astype(small),
        row_lo=np.maximum(-srow, -erow)[:, order].astype(small),
        row_hi=np.maximum(srow, erow)[:, order].astype(small),
        fits=np.searchsorted(col_lo, np.arange(columns), side="right"),
    )


def _flatten(axial, keep: np.ndarray):
    """(displacement, step, dq, dr) of every kept entry of a trace table."""
    fd, fs = np.nonzero(keep)
    return fd.astype(np.intp), fs.astype(np.intp), axial[0][fd, fs], axial[1][fd, fs]


def on_board(q: np.ndarray, r: np.ndarray, columns: int, rows: int) -> np.ndarray:
    """Which axial (q, r) lie on a columns x rows odd-q board."""
    row = r + (q - (q & 1)) // 2
    return (q >= 0) & (q < columns) & (row >= 0) & (row < rows)


def padded_grid(columns: int, rows: int) -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray]:
    """The axial (q, r) of every board index, and the padded grid of cells the line tables
    use: cells per axial column, the number of cells, board index -> cell. A ring of cells
    round the board stands for the hexes just off the map."""
    q, r = axial_arrays(columns, rows)
    qmin, rmin = -1, int(r.min()) - 1
    rs = int(r.max()) + 1 - rmin + 1
    ncells = (columns + 2) * rs
    cell_of = ((q - qmin) * rs + (r - rmin)).astype(np.int32)
    return q, r, rs, ncells, cell_of


@one_size  # the size in use kept (issue 44: a window meets many sizes)
def line_tables(columns: int, rows: int) -> LineTables:
    """Precompute the lines of a board size (cached: boards of one size share them)."""
    n = columns * rows
    q, r, rs, ncells, cell_of = padded_grid(columns, rows)
    index_of = np.full(ncells + 1, -1, dtype=np.int32)
    index_of[cell_of] = np.arange(n)

    # canonical displacements that some on-board pair realises
    dq_all = q[None, :] - q[:, None]
    dr_all = r[None, :] - r[:, None]
    canon = (dq_all > 0) | ((dq_all == 0) & (dr_all > 0))
    dr0 = int(r.min() - r.max())
    rspan = 2 * int(r.max() - r.min()) + 1
    codes = np.unique((dq_all[canon]) * rspan + (dr_all[canon] - dr0))
    dq = codes // rspan
    dr = codes % rspan + dr0
    dist = axial_distance(dq, dr).astype(np.int32)
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
        oq, orr = round_cube(
            e + dq[:, None] * t, 2 * e + dr[:, None] * t, -3 * e - (dq + dr)[:, None] * t
        )
        offs.append(np.where(valid, oq * rs + orr, 0).astype(np.int32))
        axial.append((np.where(valid, oq, 0), np.where(valid, orr, 0)))
    off_plus, off_minus = offs
    differ = off_plus != off_minus
    two = differ.any(axis=1)
    diff_d, diff_s = np.nonzero(differ)  # row-major: grouped by displacement, steps ascending
    diff_ptr = np.zeros(len(dist) + 1, dtype=np.intp)
    np.add.at(diff_ptr, diff_d + 1, 1)
    diff_ptr = np.cumsum(diff_ptr)

    lookup = np.zeros((2 * columns - 1, rspan), dtype=np.int32)
    ids = np.arange(nd, dtype=np.int32)
    lookup[dq + columns - 1, dr - dr0] = ids
    lookup[-dq + columns - 1, -dr - dr0] = -(ids + 1)

    # every unordered on-board pair, grouped by range
    dcell = (dq * rs + dr).astype(np.int32)
    ok = on_board(q[None, :] + dq[:, None], r[None, :] + dr[:, None], columns, rows)
    did, src = np.nonzero(ok)  # sorted by displacement id, hence by range
    pair_pos = np.full(ok.shape, -1, dtype=np.int32)
    pair_pos[did, src] = np.arange(len(did), dtype=np.int32)
    pair_dist = dist[did]
    bounds = np.flatnonzero(np.diff(pair_dist)) + 1
    group_bounds = np.concatenate([[0], bounds, [len(did)]]).astype(np.int64)
    group_range = pair_dist[group_bounds[:-1]] if len(did) else np.zeros(0, dtype=np.int32)
    flat_plus = _flatten(axial[0], valid)
    flat_minus = _flatten(axial[1], valid & two[:, None])
    disp = np.stack([dq, dr], axis=1).astype(np.int32)
    return LineTables(
        columns=columns,
        rows=rows,
        rs=rs,
        ncells=ncells,
        cell_of=cell_of,
        index_of=index_of,
        disp=disp,
        dist=dist,
        dcell=dcell,
        off_plus=off_plus,
        off_minus=off_minus,
        flat_plus=flat_plus,
        flat_minus=flat_minus,
        off_plus_t=np.ascontiguousarray(off_plus.T).astype(np.intp),
        two_traces=two,
        diff_ptr=diff_ptr,
        diff_step=diff_s.astype(np.intp),
        disp_lookup=lookup,
        dq0=columns - 1,
        dr0=dr0,
        pair_src=src.astype(np.int32),
        pair_did=did.astype(np.int32),
        group_bounds=group_bounds,
        group_range=group_range.astype(np.int32),
        pair_pos=pair_pos,
        through_plus=_through(flat_plus, disp, dist, differ, columns, rows),
        through_minus=_through(_flatten(axial[1], valid & differ), disp, dist, None, columns, rows),
    )


BLOCKED_CELL = 4096
"""A blocking hex adds this to a trace's score; hindrances add their DRM (always far below it)."""
