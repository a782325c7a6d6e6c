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

import numpy as np

from .board import Board
from .cells import cell_tables, finish, score_cells, with_markers
from .lines import BLOCKED_CELL, line_tables

_CHUNK = 1 << 16
"""Line hexes scored per numpy pass (cache-sized)."""


_COMPUTED: dict[tuple, tuple] = {}
"""Recently computed all-pairs results by board content (see :meth:`Visibility.of`)."""
_KEEP = 4
_KEEP_BYTES = 32 * 2**20
"""... and the most their arrays may hold (the newest is kept whatever its size): 12.5 MiB
each on the four-board map, so 4 of them held 50 MiB for a window whose editor tried maps
(issue 44, item 7)."""

_PER_PAIR = ("_tot_p", "_tot_m", "_end_a", "_end_b")
"""Kept per unordered pair for :meth:`Visibility.update`: both traces' interior score totals,
and the Case R DRM of each end hex (the first, the second). Only the pairs a marker can change
are kept up to date (:attr:`Visibility._open`)."""


def _held() -> int:
    """The bytes of the arrays :data:`_COMPUTED` holds."""
    return sum(a.nbytes for arrays, is_open in _COMPUTED.values() for a in (*arrays, is_open))


def _marker_delta(old, new, idx: np.ndarray, lim: np.ndarray, n: np.ndarray) -> np.ndarray:
    """How much a hex's score on each line (:func:`.cells.score_cells`) moves when only its
    smoke and wrecks change (its terrain never does): the marker terms, new minus old."""
    delta = np.zeros(len(idx), dtype=np.int32)
    for count, top in (("sm", "smt"), ("wr", "wrt")):
        d = getattr(new, count).take(idx) - getattr(old, count).take(idx)
        if d.any():
            delta += d * (lim <= getattr(new, top).take(idx) * n)
    return delta


class Visibility:
    """All-pairs visibility and viewsheds of one board, equal to the scalar reference."""

    def __init__(self, board: Board):
        self.board = board
        self.tables = line_tables(board.columns, board.rows)
        self._cl = cell_tables(board, self.tables)
        self.clear: np.ndarray | None = None
        """(n, n) bool: clear[a, b] is the LOS from hex index a (firer) to b (target)."""
        self.hindrance: np.ndarray | None = None
        """(n, n) int8: the Case R total of a clear LOS (0 where blocked)."""
        self._shared = False
        """The LOS arrays are shared with a copy (:meth:`__deepcopy__`): copied before a write."""
        empty = np.zeros(0, dtype=np.int32)
        self._tot_p: np.ndarray = empty  # the _PER_PAIR arrays, made by all_pairs()
        self._tot_m: np.ndarray = empty
        self._end_a: np.ndarray = empty
        self._end_b: np.ndarray = empty
        self._open: np.ndarray = np.zeros(0, dtype=bool)
        """Per unordered pair: one of its traces has no blocking hex. The others (most pairs on
        a map with woods, buildings and hills) are blocked both ways whatever smoke and wrecks
        come and go (the terrain never changes, and a marker only hinders): an update skips
        them. Made with the pairs, never changed: shared by copies."""

    def __deepcopy__(self, memo: dict) -> Visibility:
        """A copy for a snapshot: the line tables and cell tables are shared (never changed in
        place), the LOS arrays that markers update are copied."""
        import copy

        new = Visibility.__new__(Visibility)
        memo[id(self)] = new
        new.board = copy.deepcopy(self.board, memo)
        new.tables = self.tables
        new._cl = self._cl
        for name in ("clear", "hindrance", *_PER_PAIR):
            setattr(new, name, getattr(self, name, None))
        new._open = self._open
        # the LOS arrays are shared until either side's markers change (copy on write:
        # copying 4 x n x n of them cost a search 14 ms a copy on the four-board map)
        self._shared = new._shared = True
        return new

    # --- the kernel -----------------------------------------------------------------------

    def _score(self, idx: np.ndarray, lhs: np.ndarray, n) -> np.ndarray:
        return score_cells(self._cl, self.tables.scale, idx, lhs, n)

    def _totals(self, did, start, mbase, n, base, slope):
        """Score sums (BLOCKED_CELL per blocking hex + Case R DRM) of both traces' interiors."""
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
        # the steps where the two traces differ, listed once per displacement (CSR)
        d_sel = did[sel]
        counts = lt.diff_ptr[d_sel + 1] - lt.diff_ptr[d_sel]
        pair = np.repeat(sel, counts)
        first = np.repeat(lt.diff_ptr[d_sel] - np.cumsum(counts) + counts, counts)
        entry = first + np.arange(len(pair))
        step = lt.diff_step[entry]
        st = step - 1  # row of the (step, pair) arrays
        cells_m = lt.off_minus[did[pair], step] + start[pair]
        sc_m = self._score(cells_m, lhs[st, pair], nn if uniform else n[pair])
        size = len(n)
        total_m = (
            total_p
            - np.bincount(pair, weights=score[st, pair], minlength=size).astype(np.int32)
            + np.bincount(pair, weights=sc_m, minlength=size).astype(np.int32)
        )
        return total_p, total_m

    def _geometry(self, src: np.ndarray, did: np.ndarray) -> dict:
        """Per pair: range, cells of the ends, the line's height terms and the table offset."""
        lt, cl = self.tables, self._cl
        scale = lt.scale
        did = did.astype(np.intp)
        n = lt.dist[did].astype(np.int32)
        a_cell = lt.cell_of[src].astype(np.intp)
        b_cell = a_cell + lt.dcell[did]
        ha2, hb2 = cl.g2[a_cell], cl.g2[b_cell]
        mbase = (np.maximum(ha2, hb2) // 2).astype(np.intp) * cl.size
        tie = np.where(ha2 == hb2, 0, n)  # equal to a same-level top blocks only a level line
        return {
            "did": did,
            "n": n,
            "a_cell": a_cell,
            "b_cell": b_cell,
            "ha2": ha2,
            "hb2": hb2,
            "mbase": mbase,
            "base": scale * ha2 * n + tie,
            "slope": scale * (hb2 - ha2),
        }

    def _ends(self, g: dict) -> tuple[np.ndarray, np.ndarray]:
        """Case R DRM of each pair's two end hexes (the target's hex hinders, RD-9)."""
        scale = self.tables.scale
        ea = self._score(g["a_cell"] + g["mbase"], scale * g["ha2"], 1) % BLOCKED_CELL
        eb = self._score(g["b_cell"] + g["mbase"], scale * g["hb2"], 1) % BLOCKED_CELL
        return ea, eb

    def _pair_totals(self, g: dict) -> tuple[np.ndarray, np.ndarray]:
        """Score sums of the interior of both traces of each pair."""
        n = g["n"]
        total_p = np.empty(len(n), dtype=np.int32)
        total_m = np.empty(len(n), dtype=np.int32)
        k = max(int(n.max()) - 1, 1) if len(n) else 1
        step = max(_CHUNK // k, 1)  # pairs per chunk: keep the (step, pair) arrays in cache
        start = g["a_cell"] + g["mbase"]
        for c0 in range(0, len(n), step):
            c = slice(c0, c0 + step)
            total_p[c], total_m[c] = self._totals(
                g["did"][c], start[c], g["mbase"][c], n[c], g["base"][c], g["slope"][c]
            )
        return total_p, total_m

    @staticmethod
    def _finish(total_p, total_m, ea, eb):
        """[(clear, hindrance) of src -> dst, (clear, hindrance) of dst -> src] from the trace
        totals and the end hexes: the clear trace with the smaller hindrance (RD-9)."""
        return finish(total_p, total_m, eb, ea)  # a -> b (the target's hex is b), b -> a

    def _pairs(self, src: np.ndarray, did: np.ndarray):
        """Both directions of the unordered pairs (src, src + displacement did).

        The +nudged trace is scored at every interior step, laid out (step, pair) so the sum over
        steps runs row by row; the -nudged trace differs from it only at a few steps of a few
        displacements, and only those are scored again."""
        g = self._geometry(src, did)
        ea, eb = self._ends(g)
        total_p, total_m = self._pair_totals(g)
        return self._finish(total_p, total_m, ea, eb), (total_p, total_m, ea, eb)

    # --- public ---------------------------------------------------------------------------

    @classmethod
    def of(cls, board: Board) -> Visibility:
        """The all-pairs visibility of ``board``, computed, or copied from the last boards
        seen with the same terrain and markers (a scenario's map starts every game the same)."""
        key = (
            board.columns,
            board.rows,
            board.terrain.tobytes(),
            board.ground.tobytes(),
            board.obstacle.tobytes(),
            board.hindrance.tobytes(),
            board.orchard.tobytes(),
            board.smoke.tobytes(),
            board.wrecks.tobytes(),
        )
        vis = cls(board)
        hit = _COMPUTED.get(key)
        if hit is None:
            vis.all_pairs()
            assert vis.clear is not None and vis.hindrance is not None
            _COMPUTED[key] = (  # copies: this board's arrays change as wrecks appear
                tuple(getattr(vis, name).copy() for name in ("clear", "hindrance", *_PER_PAIR)),
                vis._open,  # never changed
            )
            while len(_COMPUTED) > 1 and (len(_COMPUTED) > _KEEP or _held() > _KEEP_BYTES):
                _COMPUTED.pop(next(iter(_COMPUTED)))
        else:
            arrays, vis._open = hit
            for name, a in zip(("clear", "hindrance", *_PER_PAIR), arrays, strict=True):
                setattr(vis, name, a.copy())
        return vis

    def all_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """The visibility of every ordered pair: (clear, hindrance), each (n, n)."""
        lt = self.tables
        size = self.board.size
        clear = np.ones((size, size), dtype=bool)
        hind = np.zeros((size, size), dtype=np.int8)
        for name in _PER_PAIR:  # the ends' DRM are small: int8 (fewer bytes to gather)
            kind = np.int8 if name.startswith("_end") else np.int32
            setattr(self, name, np.empty(len(lt.pair_src), dtype=kind))
        b = lt.group_bounds
        for k in range(len(b) - 1):
            part = slice(b[k], b[k + 1])
            self._store(clear, hind, lt.pair_src[part], lt.pair_did[part], part)
        self.clear, self.hindrance = clear, hind
        self._open = (self._tot_p < BLOCKED_CELL) | (self._tot_m < BLOCKED_CELL)
        self._open.setflags(write=False)
        return clear, hind

    def _store(self, clear, hind, src, did, part) -> None:
        lt = self.tables
        dst = lt.index_of[lt.cell_of[src] + lt.dcell[did]]
        ((c_ab, h_ab), (c_ba, h_ba)), (tp, tm, ea, eb) = self._pairs(src, did)
        self._tot_p[part], self._tot_m[part] = tp, tm
        self._end_a[part], self._end_b[part] = ea, eb
        clear[src, dst], hind[src, dst] = c_ab, np.where(c_ab, h_ab, 0)
        clear[dst, src], hind[dst, src] = c_ba, np.where(c_ba, h_ba, 0)

    def seen_from(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        """What hex index ``a`` sees: its rows of the all-pairs arrays (clear, hindrance)."""
        if self.clear is None or self.hindrance is None:
            raise RuntimeError("compute all_pairs() first")
        return self.clear[a], self.hindrance[a]

    def sees(self, a: int, b: int) -> bool:
        """RD-9: the LOS from hex index ``a`` to ``b`` is clear."""
        if self.clear is None:
            raise RuntimeError("compute all_pairs() first")
        return bool(self.clear[a, b])

    def hindrance_between(self, a: int, b: int) -> int:
        """Case R: the hindrance DRM of the LOS from ``a`` to ``b`` (0 when blocked)."""
        if self.hindrance is None:
            raise RuntimeError("compute all_pairs() first")
        return int(self.hindrance[a, b])

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
        ((c_ab, h_ab), (c_ba, h_ba)), _ = self._pairs(src.astype(np.int32), did)
        clear = np.ones(size, dtype=bool)
        hind = np.zeros(size, dtype=np.int8)
        clear[others] = np.where(forward, c_ab, c_ba)
        hind[others] = np.where(clear[others], np.where(forward, h_ab, h_ba), 0)
        return clear, hind

    def _axial(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q, r = self.board.axial
        return q[idx], r[idx]

    def update(self, changed: list[int], only_added: bool = False) -> int:
        """Refresh after smoke or wrecks changed in board indices ``changed``.

        Only the pairs whose line touches a changed hex are redone, and only by the difference
        that hex makes: each trace's interior total moves by the hex's new score minus its old
        one at that step (a hex stands at most once on a trace), and the end hexes' DRM are
        recomputed. Returns the number of pair updates made (a pair both of whose traces moved,
        or with the hex also at an end, is redone, and counted, twice). (``only_added`` is for
        :meth:`.viewsheds.Viewsheds.update`; this update is exact either way.)"""
        if self.clear is None or self.hindrance is None:
            raise RuntimeError("compute all_pairs() before update()")
        if getattr(self, "_shared", False):  # a copy shares them: its own before writing
            for name in ("clear", "hindrance", *_PER_PAIR):
                setattr(self, name, getattr(self, name).copy())
            self._shared = False
        lt = self.tables
        old = self._cl
        self._cl = with_markers(old, self.board, lt, changed)
        cols, rows = self.board.columns, self.board.rows
        n_hex = self.board.size
        pair_pos = lt.pair_pos.reshape(-1)
        # the pairs to redo, each as (position, first hex, displacement): a pair may be listed
        # more than once (both traces moved, or the hex is also an end); redoing it twice
        # writes the same values, cheaper than finding the distinct ones among all pairs
        redo: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        ends: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        deltas: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
        for h in sorted(set(changed)):
            col, row = h % cols, h // cols
            for sign, th in ((1, lt.through_plus), (-1, lt.through_minus)):
                at = th.pairs_at(col, row, cols, rows)  # h is step `step` of these lines
                p = col & 1
                src = (row + th.srow[p].take(at)) * cols + (col + th.scol.take(at))
                did = th.did.take(at)
                pos = pair_pos.take(did * n_hex + src)
                keep = np.flatnonzero(self._open.take(pos))  # the others stay blocked
                at, src, did, pos = at.take(keep), src.take(keep), did.take(keep), pos.take(keep)
                inner = th.inner.take(at)
                if not inner.all():
                    end = ~inner
                    ends.append((pos[end], src[end], did[end]))
                did, src, pos, step = did[inner], src[inner], pos[inner], th.step.take(at)[inner]
                g = self._geometry(src, did)
                idx = lt.cell_of[h] + g["mbase"]
                lim = g["base"] + g["slope"] * step - (lt.scale - 1)
                delta = _marker_delta(old, self._cl, idx, lim, g["n"])
                moved = np.flatnonzero(delta)
                # only pairs whose trace total moved, or with the hex at an end, can change
                pos_i = pos.take(moved)
                redo.append((pos_i, src.take(moved), did.take(moved)))
                shared = th.shared.take(at)[inner].take(moved)
                deltas.append((sign, pos_i, delta.take(moved), shared))
        for sign, pos, d, shared in deltas:
            # a hex stands at most once on a trace: each pair once in ``pos``, so a plain
            # fancy-index add is exact (and several times faster than np.add.at)
            if sign == 1:  # the +nudged trace, and the -nudged one where it is the same
                self._tot_p[pos] += d
                self._tot_m[pos[shared]] += d[shared]
            else:  # the -nudged trace where it leaves the +nudged one
                self._tot_m[pos] += d
        if not redo:
            return 0
        if ends:  # the pairs with a changed hex at an end: their end hexes' DRM
            ends_at, e_src, e_did = (np.concatenate(a) for a in zip(*ends, strict=True))
            self._end_a[ends_at], self._end_b[ends_at] = self._ends(self._geometry(e_src, e_did))
            redo.extend(ends)
        pos, src, did = (np.concatenate(a) for a in zip(*redo, strict=True))
        ea, eb = self._end_a[pos], self._end_b[pos]  # an interior hex leaves the ends' DRM
        (c_ab, h_ab), (c_ba, h_ba) = self._finish(self._tot_p[pos], self._tot_m[pos], ea, eb)
        dst = lt.index_of[lt.cell_of[src] + lt.dcell[did]]
        n = self.board.size
        ab, ba = src * n + dst, dst * n + src  # flat positions: put() beats 2-D fancy writes
        for flat, c, h in ((ab, c_ab, h_ab), (ba, c_ba, h_ba)):
            self.clear.put(flat, c)
            self.hindrance.put(flat, h * c)
        return len(pos)
