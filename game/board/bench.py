"""``hexfire bench los``: the vectorised LOS engine against the scalar reference (RD-9)."""

from __future__ import annotations

import time

import numpy as np

from .los import los
from .mapgen import bench_map, large_map
from .sightlines import sight_lines
from .viewsheds import Viewsheds
from .visibility import Visibility, line_tables

GOALS = {
    "pairs_per_s": (">=", 7e6),
    "viewshed_ms": ("<=", 2.0),
    "setup_s": ("<=", 1.0),
    "speedup_vs_scalar": (">=", 50.0),
    "large_setup_s": ("<=", 2.0),
    "large_viewshed_ms": ("<=", 5.0),
    "large_peak_mib": ("<=", 1024),
}
"""The goals on a 2-core machine (docs/benchmarks.md)."""


def bench_los(seed: int = 1944, sample: int = 3000, repeat: int = 3) -> dict:
    """Time all-pairs visibility, one viewshed and the scalar reference on the 66 x 20 map."""
    board = bench_map(seed)
    n = board.size
    pairs = n * (n - 1)

    line_tables.cache_clear()
    t0 = time.perf_counter()
    vis = Visibility(board)
    setup_s = time.perf_counter() - t0

    all_s = min(_timed(vis.all_pairs) for _ in range(repeat))
    clear, hind = vis.clear, vis.hindrance
    assert clear is not None and hind is not None

    rng = np.random.default_rng(seed)
    origins = rng.integers(0, n, 50)
    t0 = time.perf_counter()
    for a in origins:
        vis.viewshed(int(a))
    viewshed_ms = (time.perf_counter() - t0) / len(origins) * 1000

    src = rng.integers(0, n, sample)
    dst = rng.integers(0, n, sample)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    hexes = [board.hex_at(i) for i in range(n)]
    t0 = time.perf_counter()
    results = [los(board, hexes[a], hexes[b]) for a, b in zip(src, dst, strict=True)]
    scalar_s = (time.perf_counter() - t0) / len(src) * pairs
    mismatches = sum(
        _disagrees(r, clear[a, b], hind[a, b]) for r, a, b in zip(results, src, dst, strict=True)
    )
    return {
        "map": f"{board.columns} x {board.rows} = {n} hexes (seed {seed})",
        "pairs": pairs,
        "all_pairs_s": round(all_s, 4),
        "pairs_per_s": round(pairs / all_s),
        "viewshed_ms": round(viewshed_ms, 3),
        "setup_s": round(setup_s, 3),
        "scalar_all_pairs_s": round(scalar_s, 1),
        "speedup_vs_scalar": round(scalar_s / all_s, 1),
        "sample": int(len(src)),
        "sample_mismatches": mismatches,
        "clear_fraction": round(float(clear.mean()), 4),
        "goals": {k: f"{op} {v:g}" for k, (op, v) in GOALS.items()},
    }


def _disagrees(reference, clear, hindrance) -> bool:
    """Whether the bulk answer for a pair differs from the scalar reference's (RD-9)."""
    return bool(reference.clear != clear or (reference.clear and reference.hindrance != hindrance))


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_los_large(seed: int = 1944, origins: int = 50, sample: int = 400) -> dict:
    """The 200 x 200 map (40,000 hexes): building its on-demand viewsheds (the sight lines of
    the board size drawn from scratch), one viewshed (both ways, from random hexes, not cached),
    and a sample of pairs against the scalar reference."""
    board = large_map(seed)
    sight_lines.cache_clear()
    t0 = time.perf_counter()
    vs = Viewsheds(board)
    setup_s = time.perf_counter() - t0
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, board.size, origins)
    vs.compute(int(picks[0]))  # warm the allocator, as the small map's figures are warm
    t0 = time.perf_counter()
    for a in picks:
        vs.compute(int(a))
    viewshed_ms = (time.perf_counter() - t0) / len(picks) * 1000
    mismatches = 0
    for a, b in rng.integers(0, board.size, (sample, 2)):
        r = los(board, board.hex_at(int(a)), board.hex_at(int(b)))
        clear, hind = vs.seen_from(int(a))
        mismatches += _disagrees(r, clear[b], hind[b])
    return {
        "large_map": f"{board.columns} x {board.rows} = {board.size} hexes (seed {seed})",
        "large_setup_s": round(setup_s, 3),
        "large_viewshed_ms": round(viewshed_ms, 3),
        "large_sight_lines_mib": round(vs.tables.nbytes / 2**20, 1),
        "large_sample": sample,
        "large_sample_mismatches": int(mismatches),
    }
