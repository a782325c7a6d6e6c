"""LOS where it is needed, for maps too large for all pairs (RD-9).

A 200 x 200 map has 1.6 billion ordered pairs: their LOS would not fit in memory. Here a hex's
viewshed (what it sees, and what sees it) is computed when asked for, kept in a bounded cache,
and dropped when smoke or wrecks change the map. The answer is the scalar reference's
(:func:`game.board.los.los`) on every pair; a hypothesis test holds it there.

The kernel follows every target's two traces (:mod:`.sightlines`) from the pair's first hex:
the first HEAD steps of all of them at once (their cells cut from a window around the origin),
then the traces still open a few steps at a time, each dropped as soon as it is blocked (an
obstacle, or a hindrance total of 6): on a real map most lines end within a few hexes. The
-nudged trace is walked only where it may end otherwise than the +nudged one (the two share
every hex up to the first where they differ, often dozens of steps out). A hex's
score on a line comes from one lookup in a table per pair of end levels; only where a sloping
line's height decides (a hill or an obstacle top between the two ends' levels) is it worked
out exactly, as :func:`.visibility.score_cells` does for all pairs.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .board import Board
from .cells import cell_tables, finish, score_cells
from .hexes import axial_distance
from .lines import BLOCKED_CELL
from .los import HINDRANCE_BLOCKS
from .sightlines import HEAD, SightLines, sight_lines, windows
from .visibility import Visibility

ALL_PAIRS_MAX_HEXES = 1_600
"""Maps up to this size get all-pairs LOS (0.8 s and some 250 MiB at 1,600 hexes; every query
then a lookup); larger maps get on-demand viewsheds."""

_BUDGET = 1 << 15
"""Line hexes scored per numpy pass."""

CACHE_BYTES = 128 * 2**20
"""The memory the kept viewsheds may take (both ways, four bytes per hex each): 838 of them
on a 200 x 200 map, so that every unit's hex of a big battle stays known."""
CACHE_VIEWSHEDS = 256
"""The fewest viewsheds kept, whatever the map's size."""


@dataclass(frozen=True, slots=True)
class _Line:
    """Per target of one viewshed, the line between the origin and it: range; the key of the
    pair's canonical first hex (its cell plus the offset of the pair-of-levels table; the
    traces' hexes are cell offsets from it); what turns a key into the cell of the level
    table of the higher end; the line height terms (as :meth:`.visibility.Visibility._geometry`)."""

    n: np.ndarray
    key_first: np.ndarray
    level_shift: np.ndarray
    base: np.ndarray
    slope: np.ndarray


class Sight(Protocol):
    """What a game asks of its LOS (RD-9), by board index: the all-pairs :class:`Visibility`,
    the on-demand :class:`Viewsheds` (:func:`sight_for` picks one) and the benchmarks' scalar
    reference (:class:`.scalar.ScalarSight`) all answer it, with the same answers."""

    def sees(self, a: int, b: int) -> bool: ...

    def hindrance_between(self, a: int, b: int) -> int: ...

    def seen_from(self, a: int) -> tuple[np.ndarray, np.ndarray]: ...

    def update(self, changed: list[int], only_added: bool = False) -> int: ...


def sight_for(board: Board) -> Visibility | Viewsheds:
    """The LOS of ``board`` for a game: all pairs when they fit, on-demand viewsheds above
    :data:`ALL_PAIRS_MAX_HEXES`. Both answer ``seen_from``, ``sees``, ``hindrance_between``
    and ``update``."""
    if board.size <= ALL_PAIRS_MAX_HEXES:
        return Visibility.of(board)
    return Viewsheds(board)


class Viewsheds:
    """On-demand, cached viewsheds of one board, equal to the scalar reference."""

    def __init__(self, board: Board):
        self.board = board
        self.tables: SightLines = sight_lines(board.columns, board.rows)
        self._refresh_cells()
        cols = board.columns
        self._windows = windows(self.tables)
        index = self._index = np.arange(board.size)
        self._window_pos = (index // cols) * (2 * cols - 1) + index % cols
        """Where each target sits in a window cut for the origin A1 (add the origin's shift)."""
        self._column_major = np.argsort(np.arange(board.size) % cols, kind="stable")
        """Board indices column by column: the targets' lines then lie in table order."""
        self._cache: OrderedDict[int, tuple[np.ndarray, ...]] = OrderedDict()
        self.keep = max(CACHE_VIEWSHEDS, CACHE_BYTES // (4 * board.size))
        """How many viewsheds are kept (least recently used dropped first)."""
        self.computed = 0
        """Viewsheds computed so far (cache misses)."""

    def _refresh_cells(self) -> None:
        cl = self._cl = cell_tables(self.board, self.tables)
        self._g2 = cl.g2[self.tables.cell_of]
        """Twice the ground level of each board index."""
        size = cl.size
        levels = len(cl.tb) // size
        scale = self.tables.scale
        self._levels = levels
        # Per pair of end levels lo <= hi: each cell's score for a line between them, where it
        # is the same all along the line (-1 where it is not). A level line's height is
        # constant; a sloping line's interior lies strictly between 2*lo and 2*hi half levels,
        # each term of the score only falls as the line rises, and every threshold is a whole
        # half level: if the score at lo + 1/4 level equals the score at hi - 1/4 level, it is
        # the score everywhere between.
        cells = np.arange(size)
        tables = []
        for lo in range(levels):
            for hi in range(levels):
                at = cells + hi * size
                if hi < lo:
                    tables.append(np.full(size, -1, dtype=np.int32))  # never used
                elif lo == hi:
                    tables.append(score_cells(cl, scale, at, np.int32(scale * 2 * lo), 1))
                else:  # n = 2: heights 2*lo + 1/2 and 2*hi - 1/2 half levels, tie term n
                    low = score_cells(cl, scale, at, np.int32(scale * (4 * lo + 1) + 2), 2)
                    high = score_cells(cl, scale, at, np.int32(scale * (4 * hi - 1) + 2), 2)
                    tables.append(np.where(low == high, low, -1).astype(np.int32))
        self._pair_scores = np.concatenate(tables)
        # the Case R DRM of each hex as the end of a line whose higher end is at level m
        cell_of = self.tables.cell_of
        self._end_scores = np.stack(
            [
                score_cells(cl, scale, cell_of + m * size, scale * self._g2, 1) % BLOCKED_CELL
                for m in range(levels)
            ]
        )

    def __deepcopy__(self, memo: dict) -> Viewsheds:
        """A copy for a snapshot: tables shared, the cache's arrays shared (never written)."""
        new = Viewsheds.__new__(Viewsheds)
        memo[id(self)] = new
        new.board = copy.deepcopy(self.board, memo)
        new.tables, new._cl, new._pair_scores = self.tables, self._cl, self._pair_scores
        new._levels, new._end_scores = self._levels, self._end_scores
        new._index = self._index
        new._column_major, new._windows, new._g2 = self._column_major, self._windows, self._g2
        new._window_pos = self._window_pos
        new._cache = OrderedDict(self._cache)
        new.keep = self.keep
        new.computed = self.computed
        return new

    # --- public ---------------------------------------------------------------------------

    def seen_from(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        """What hex index ``a`` sees: (clear, Case R hindrance) over every index (read-only)."""
        got = self._get(a)
        return got[0], got[1]

    def seeing(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        """What sees hex index ``b``: (clear, hindrance) of the LOS from every index to ``b``."""
        got = self._get(b)
        return got[2], got[3]

    def sees(self, a: int, b: int) -> bool:
        return bool(self._pair(a, b)[0])

    def hindrance_between(self, a: int, b: int) -> int:
        return int(self._pair(a, b)[1])

    def update(self, changed: list[int], only_added: bool = False) -> int:
        """Smoke or wrecks changed in board indices ``changed``: the kept viewsheds they may
        change are dropped. Returns how many were dropped.

        With ``only_added`` (a wreck appeared, nothing was taken away) a marker only adds
        hindrance: a blocked line stays blocked, and a clear line changes only if it passes
        through a changed hex. A hex line is a shortest path, so a viewshed whose clear lines
        (either way) all have d(a, h) + d(h, b) > d(a, b) for every changed h is kept."""
        self._refresh_cells()
        if not only_added:
            dropped = len(self._cache)
            self._cache.clear()
            return dropped
        lt = self.tables
        hq, hr = lt.q[changed], lt.r[changed]
        drop = []
        for a, (out_c, _, in_c, _) in self._cache.items():
            b = np.flatnonzero(out_c | in_c)
            d_ab = axial_distance(lt.q[b] - lt.q[a], lt.r[b] - lt.r[a])
            for q, r in zip(hq, hr, strict=True):
                d_ah = axial_distance(q - lt.q[a], r - lt.r[a])
                d_hb = axial_distance(lt.q[b] - q, lt.r[b] - r)
                if (d_ah + d_hb == d_ab).any():
                    drop.append(a)
                    break
        for a in drop:
            del self._cache[a]
        return len(drop)

    # --- the cache ------------------------------------------------------------------------

    def _pair(self, a: int, b: int) -> tuple[bool, int]:
        if a in self._cache or b not in self._cache:
            got = self._get(a)
            return got[0][b], got[1][b]
        got = self._get(b)
        return got[2][a], got[3][a]

    def _get(self, a: int) -> tuple[np.ndarray, ...]:
        got = self._cache.get(a)
        if got is not None:
            self._cache.move_to_end(a)
            return got
        got = self.compute(a)
        for arr in got:
            arr.setflags(write=False)
        self._cache[a] = got
        while len(self._cache) > self.keep:
            self._cache.popitem(last=False)
        self.computed += 1
        return got

    # --- the kernel -----------------------------------------------------------------------

    def compute(self, a: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The viewshed of hex index ``a`` both ways: (clear, hindrance) from ``a`` to every
        index, then from every index to ``a``. Not cached."""
        lt, cl = self.tables, self._cl
        scale = lt.scale
        cols, rows = self.board.columns, self.board.rows
        col, row = a % cols, a // cols
        cut = (slice(rows - 1 - row, 2 * rows - 1 - row), slice(cols - 1 - col, 2 * cols - 1 - col))
        win = self._windows[col & 1]
        forward, n, first_p, first_m, two, first_diff = (x[cut].ravel() for x in win[:6])
        g, ga = self._g2, self._g2[a]
        cell_a = lt.cell_of[a]
        hi = np.maximum(g, ga) >> 1
        mbase = hi * cl.size
        first_cell = np.where(forward, cell_a, lt.cell_of)  # the pair's canonical first hex
        lo = np.where(forward, ga, g)  # and its height
        pair = ((np.minimum(g, ga) >> 1) * self._levels + hi) * cl.size
        line = _Line(
            n=n,
            key_first=first_cell + pair,
            level_shift=mbase - pair,
            base=scale * lo * n + (g != ga) * n,
            slope=np.where(forward, np.int32(scale), np.int32(-scale)) * (g - ga),
        )
        cm = self._column_major
        # the first steps of every line at once, their cells from the origin's window
        total_p = np.zeros(len(n), dtype=np.int32)
        key_a = cell_a + pair
        grid = key_a.reshape(rows, cols)
        for s, rel in enumerate(win[6], start=1):
            total_p += self._score(np.add(rel[cut], grid).ravel(), s < n, s, line, None)
        # then the +nudged traces still open, a few steps at a time
        walked = np.minimum(n - 1, HEAD)  # steps of each +nudged trace added up
        open_p = _at(cm, np.flatnonzero(_at((total_p < HINDRANCE_BLOCKS) & (n > HEAD + 1), cm)))
        self._walk(open_p, _at(first_p, open_p), line, total_p, walked)
        # The -nudged traces only where they may end otherwise: a +nudged trace blocked within
        # the steps both share (before the first where they differ) blocks the other too.
        need = two & ((total_p < HINDRANCE_BLOCKS) | (first_diff <= walked))
        total_m = total_p.copy()
        sub = _at(cm, np.flatnonzero(_at(need, cm)))
        at = _at(self._window_pos, sub) + (rows - 1 - row) * (2 * cols - 1) + (cols - 1 - col)
        head_m = np.zeros(len(sub), dtype=np.int32)
        n_sub, key_sub = _at(n, sub), _at(key_a, sub)
        for s, rel in enumerate(win[7], start=1):
            head_m += self._score(rel.take(at, mode="wrap") + key_sub, s < n_sub, s, line, sub)
        open_m = sub[(head_m < HINDRANCE_BLOCKS) & (n_sub > HEAD + 1)]
        total_m[sub] = head_m
        self._walk(open_m, _at(first_m, open_m), line, total_m, None)
        size = len(n)
        # only a line with a trace not yet past 6 can be clear: finish those
        maybe = np.flatnonzero((total_p < HINDRANCE_BLOCKS) | (total_m < HINDRANCE_BLOCKS))
        tp = _at(total_p, maybe)
        tm = np.where(_at(two, maybe), _at(total_m, maybe), tp)  # one trace: the same total
        hm = _at(hi, maybe)
        e_origin = self._end_scores[:, a].take(hm)
        e_target = self._end_scores.take(hm * size + maybe)
        # from the origin the target's hex hinders; toward it, the origin's
        (oc, oh), (ic, ih) = finish(tp, tm, e_target, e_origin)
        out_c, in_c = np.zeros(size, dtype=bool), np.zeros(size, dtype=bool)
        out_h, in_h = np.zeros(size, dtype=np.int8), np.zeros(size, dtype=np.int8)
        out_c[maybe], in_c[maybe] = oc, ic
        out_h[maybe], in_h[maybe] = oh * oc, ih * ic
        out_c[a] = in_c[a] = True
        out_h[a] = in_h[a] = 0
        return out_c, out_h, in_c, in_h

    def _score(self, keys, inside, steps, line: _Line, who) -> np.ndarray:
        """The score of line hexes (``keys``: cell + the line's pair-of-levels table offset)
        at ``steps`` (one for all, or one per row), 0 outside the line: one lookup in the
        pair-of-levels table, and the exact height test where the line's height decides
        (RD-9). ``who``: the target of each column (None: every target, in order)."""
        score = self._pair_scores.take(keys, mode="wrap")
        score *= inside
        if score.size and score.min() < 0:
            flat = score.reshape(-1)
            tilt = np.flatnonzero(flat < 0)
            width = score.shape[-1]
            at = tilt % width
            if who is not None:
                at = who.take(at, mode="wrap")
            if np.ndim(steps) == 0:
                step = steps
            else:  # one step per row
                step = steps.reshape(-1).take(tilt // width, mode="wrap")
            lhs = _at(line.base, at) + _at(line.slope, at) * step
            cell = keys.reshape(-1).take(tilt, mode="wrap") + _at(line.level_shift, at)
            flat[tilt] = score_cells(self._cl, self.tables.scale, cell, lhs, _at(line.n, at))
        return score

    def _walk(self, alive, first, line: _Line, totals, walked) -> None:
        """Add up the score of the traces still open (their targets ``alive``, where each
        starts in the table ``first``) into ``totals`` after the first HEAD steps, a few steps
        at a time, dropping each trace once it is blocked; ``walked`` (if given) gets how many
        steps of each trace were added up."""
        offsets = self.tables.offsets
        na, key, t = _at(line.n, alive), _at(line.key_first, alive), _at(totals, alive)
        pos = first + HEAD
        s0 = HEAD + 1
        while len(alive):
            k = int(min(max(_BUDGET // len(alive), 2), int(na.max()) - s0))
            j = np.arange(k, dtype=np.int32)[:, None]  # (step, trace) layout
            # past a line's end this reads another line's cells: masked out by ``inside``
            keys = offsets.take(pos + j, mode="wrap")
            keys += key
            score = self._score(keys, j < na - s0, j + s0, line, alive)
            t += score.sum(axis=0, dtype=np.int32)
            s0 += k
            pos += k
            going = (t < HINDRANCE_BLOCKS) & (na > s0)
            if not going.all():
                totals[alive] = t
                if walked is not None:
                    walked[alive] = np.minimum(s0 - 1, na - 1)
                keep = np.flatnonzero(going)
                alive, na, pos, key, t = (_at(x, keep) for x in (alive, na, pos, key, t))
        totals[alive] = t


def _at(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` for indices known to be in range: take(mode="wrap") skips numpy's slower
    bounds handling (the same values)."""
    return a.take(idx, mode="wrap")
