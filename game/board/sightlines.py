"""Hex lines for maps too large for all pairs (RD-9): every displacement's two nudged traces,
stored ragged (only the interior steps of each line, back to back) so that a 200 x 200 map's
lines fit in some 100 MiB; :mod:`.viewsheds` walks them from one hex at a time.

The cells are those of :mod:`.lines` (a padded axial grid), so the cell tables of
:mod:`.visibility` score them unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .hexes import EPSILON, axial_distance
from .lines import padded_grid, round_cube
from .sizecache import one_size

HEAD = 3
"""The first steps of every line, which a viewshed scores for every target at once from its
origin's window (:func:`windows`): most lines are blocked within their first hexes."""

_CHUNK = 1 << 20
"""Line hexes drawn per numpy pass while building (bounds the peak memory)."""


@dataclass(frozen=True)
class SightLines:
    """The interior hexes of every canonical displacement's traces on a board of one size."""

    columns: int
    rows: int
    rs: int
    """Cells per axial column of the padded grid (as :class:`.lines.LineTables`)."""
    ncells: int
    cell_of: np.ndarray
    """Board index -> cell."""
    q: np.ndarray
    """Board index -> axial q."""
    r: np.ndarray
    """Board index -> axial r."""
    disp: np.ndarray
    """(ND, 2) the canonical displacements (dq, dr)."""
    dist: np.ndarray
    """(ND,) range of each canonical displacement (dq > 0, or dq == 0 and dr > 0), in (dq, dr)
    order."""
    dcell: np.ndarray
    """(ND,) cell offset of each displacement."""
    ptr_plus: np.ndarray
    """(ND,) where the +nudged trace's step 1 sits in ``offsets``."""
    ptr_minus: np.ndarray
    """(ND,) the same for the -nudged trace (equal to ptr_plus when the traces agree)."""
    two_traces: np.ndarray
    """(ND,) whether the two traces differ."""
    first_diff: np.ndarray
    """(ND,) the first step at which the two traces differ (the range when they never do)."""
    offsets: np.ndarray
    """Cell offsets from the first hex of steps 1..range-1 of every trace, back to back."""
    disp_lookup: np.ndarray
    """(2*columns-1, rspan) -> displacement id, or -(id+1) for the negated canonical one."""
    dq0: int
    dr0: int

    @property
    def max_range(self) -> int:
        return int(self.dist.max()) if len(self.dist) else 0

    @property
    def scale(self) -> int:
        """As :attr:`.lines.LineTables.scale`: exceeds every range."""
        return self.max_range + 2

    @property
    def nbytes(self) -> int:
        return sum(
            a.nbytes
            for a in (self.offsets, self.disp_lookup, self.ptr_plus, self.ptr_minus, self.dist)
        )


def _displacements(columns: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Every canonical (dq, dr) that some pair of hexes on the board realises, without listing
    the pairs: for a column step dq the row step's range depends only on the first column's
    parity (odd-q offsets)."""
    dqs, drs = [], []
    for dq in range(0, columns):
        bounds: list[int] = []
        for parity in (0, 1):
            if parity >= columns or parity + dq >= columns:
                continue
            ca = parity
            cb = ca + dq
            shift = (cb - (cb & 1)) // 2 - (ca - (ca & 1)) // 2
            a, b = -(rows - 1) - shift, (rows - 1) - shift
            bounds += [a, b]
        # the two parities' ranges overlap (their shifts differ by at most 1): one interval
        lo, hi = min(bounds), max(bounds)
        dr = np.arange(lo if dq > 0 else 1, hi + 1)
        dqs.append(np.full(len(dr), dq))
        drs.append(dr)
    return np.concatenate(dqs), np.concatenate(drs)


def _draw(dq: np.ndarray, dr: np.ndarray, dist: np.ndarray, rs: int) -> tuple[np.ndarray, ...]:
    """Both nudged traces of every displacement (Red Blob's lerp + round, as
    :func:`.hexes.line`), their interior steps stored back to back in (dq, dr) order: a
    viewshed reading its targets column by column then reads the table front to back. Drawn
    range group by range group (little padding). Returns (offsets, ptr_plus, ptr_minus,
    two_traces, first_diff); a -nudged trace is stored only where it differs from the
    +nudged one."""
    nd = len(dist)
    lens = np.maximum(dist - 1, 0).astype(np.int64)
    ptr_plus = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    total = int(lens.sum())
    plus_all = np.zeros(total, dtype=np.int32)
    two = np.zeros(nd, dtype=bool)
    first_diff = dist.astype(np.int32).copy()
    minus_parts: list[tuple[np.ndarray, np.ndarray]] = []
    order = np.argsort(dist, kind="stable")
    c0 = 0
    while c0 < nd:
        m = max(int(dist[order[c0]]) - 1, 1)
        c1 = min(nd, c0 + max(_CHUNK // m, 1))
        while c1 > c0 + 1 and (c1 - c0) * max(int(dist[order[c1 - 1]]) - 1, 1) > 2 * _CHUNK:
            c1 = c0 + (c1 - c0) // 2
        chunk = order[c0:c1]
        cq, cr, cn = dq[chunk], dr[chunk], dist[chunk]
        k = max(int(cn.max()) - 1, 0)
        steps = np.arange(1, k + 1)[None, :]
        t = steps / np.maximum(cn, 1)[:, None]
        inside = steps < cn[:, None]
        traces = []
        for sign in (1, -1):
            e = EPSILON * sign
            oq, orr = round_cube(
                e + cq[:, None] * t, 2 * e + cr[:, None] * t, -3 * e - (cq + cr)[:, None] * t
            )
            traces.append((oq * rs + orr).astype(np.int32))
        plus, minus = traces
        where = ptr_plus[chunk][:, None] + steps - 1  # row-major: each line's steps in order
        plus_all[where[inside]] = plus[inside]
        apart = (plus != minus) & inside
        differ = apart.any(axis=1)
        two[chunk] = differ
        if apart.shape[1]:  # (range-1 lines have no interior step)
            first_diff[chunk] = np.where(differ, apart.argmax(axis=1) + 1, cn)
        minus_parts.append((chunk[differ], minus[differ]))
        c0 = c1
    mlens = np.where(two, lens, 0)
    ptr_minus = np.where(two, total + np.concatenate([[0], np.cumsum(mlens)[:-1]]), ptr_plus)
    minus_all = np.zeros(int(mlens.sum()), dtype=np.int32)
    for ids, minus in minus_parts:
        steps = np.arange(1, minus.shape[1] + 1)[None, :]
        inside = steps < dist[ids][:, None]
        where = (ptr_minus[ids] - total)[:, None] + steps - 1
        minus_all[where[inside]] = minus[inside]
    return np.concatenate([plus_all, minus_all]), ptr_plus, ptr_minus, two, first_diff


@one_size  # 66 MiB a size at 200 x 200: the size in use kept (issue 44)
def sight_lines(columns: int, rows: int) -> SightLines:
    """Draw the lines of a board size (cached: boards of one size share them)."""
    q, r, rs, ncells, cell_of = padded_grid(columns, rows)

    dq, dr = _displacements(columns, rows)
    dist = axial_distance(dq, dr).astype(np.int32)
    nd = len(dist)
    offsets, ptr_plus, ptr_minus, two, first_diff = _draw(dq, dr, dist, rs)

    dr0 = int(r.min() - r.max())
    rspan = 2 * int(r.max() - r.min()) + 1
    lookup = np.zeros((2 * columns - 1, rspan), dtype=np.int32)
    ids = np.arange(nd, dtype=np.int32)
    lookup[dq + columns - 1, dr - dr0] = ids
    lookup[-dq + columns - 1, -dr - dr0] = -(ids + 1)
    return SightLines(
        columns=columns,
        rows=rows,
        rs=rs,
        ncells=ncells,
        cell_of=cell_of,
        q=q.astype(np.int32),
        r=r.astype(np.int32),
        disp=np.stack([dq, dr], axis=1).astype(np.int32),
        dist=dist,
        dcell=(dq * rs + dr).astype(np.int32),
        ptr_plus=ptr_plus,
        ptr_minus=ptr_minus,
        two_traces=two,
        first_diff=first_diff,
        offsets=offsets,
        disp_lookup=lookup,
        dq0=columns - 1,
        dr0=dr0,
    )


def windows(lt: SightLines) -> tuple[tuple, tuple]:
    """Per parity of the origin's column, per (row step, column step) to a target: whether the
    origin is the pair's canonical first hex, the range, where the two traces start in the
    table, whether they differ and the first step where they do, and the cells of the first
    HEAD steps of each trace relative to the origin's cell. One hex's lines to the whole map
    are then a slice (odd-q offsets: the axial step depends only on that parity)."""
    cols, rows = lt.columns, lt.rows
    dcol = np.arange(-(cols - 1), cols)[None, :]
    drow = np.arange(-(rows - 1), rows)[:, None]
    out = []
    for parity in (0, 1):
        dq = np.broadcast_to(dcol, (2 * rows - 1, 2 * cols - 1))
        dr = drow - (parity + dcol) // 2
        dq_i = np.clip(dq + lt.dq0, 0, lt.disp_lookup.shape[0] - 1)
        dr_i = np.clip(dr - lt.dr0, 0, lt.disp_lookup.shape[1] - 1)
        code = lt.disp_lookup[dq_i, dr_i]
        forward = code >= 0
        did = np.where(forward, code, ~code)
        if not len(lt.dist):  # a one-hex map: no lines
            did = np.zeros_like(did)
            lt = _one_hex(lt)
        n = np.where((dq == 0) & (dr == 0), 0, lt.dist[did]).astype(np.int32)
        # from the origin to the canonical first hex: 0, or back along the displacement
        to_first = np.where(forward, 0, -lt.dcell[did])
        last = max(len(lt.offsets) - 1, 0)
        offsets = lt.offsets if len(lt.offsets) else np.zeros(1, dtype=np.int32)
        heads = [
            tuple(
                np.where(s < n, to_first + offsets[np.minimum(ptr[did] + s - 1, last)], 0).astype(
                    np.int32
                )
                for s in range(1, HEAD + 1)
            )
            for ptr in (lt.ptr_plus, lt.ptr_minus)
        ]
        out.append(
            (
                forward,
                n,
                lt.ptr_plus[did].astype(np.int32),
                lt.ptr_minus[did].astype(np.int32),
                lt.two_traces[did] & (n > 1),
                lt.first_diff[did].astype(np.int32),
                heads[0],
                heads[1],
            )
        )
    return out[0], out[1]


def _one_hex(lt: SightLines) -> SightLines:
    """A one-hex map's tables with one dummy displacement of range 0, so that the windows
    (which hold only the hex itself) can be cut the same way."""
    zero = np.zeros(1, dtype=np.int32)
    return replace(
        lt,
        disp=np.zeros((1, 2), dtype=np.int32),
        dist=zero,
        dcell=zero,
        ptr_plus=zero.astype(np.int64),
        ptr_minus=zero.astype(np.int64),
        two_traces=np.zeros(1, dtype=bool),
        first_diff=zero,
    )
