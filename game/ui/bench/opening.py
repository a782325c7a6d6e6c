"""``hexfire bench open``: opening long saves in the window (issue 17's goals): the first frame
after "Replay a save", the whole game shown, the worst frame meanwhile (the window answers), and
the process's peak memory, for a 2,000-action game on the 200 x 200 map and for a save at the
documented limit (200,000 actions: set-up placements, which are unlimited). The reference is
the same save's reading and timeline with no window, in the same run."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

GOALS = {
    "long_first_frame_ms": "<= 2000",
    "long_whole_s": "<= 10",
    "limit_first_frame_ms": "<= 2000",
    "limit_whole_s": "<= 10",
    "peak_mib": "< 1024",
}


def _open(path: Path) -> dict:
    """Open ``path`` in the replay viewer as "Replay a save" does, frame by frame at the
    scene's rate (:meth:`.app.App.frame_rate`, as the window's loop)."""
    import pygame

    from game.ui.replay.viewer import WatchScene
    from game.ui.scenes.opening import watch_path
    from game.ui.screens import window

    app = window((1280, 800), Path(tempfile.mkdtemp(prefix="hexfire-bench-")), headless=True)
    clock = pygame.time.Clock()
    t0 = time.perf_counter()
    watch_path(app, path)
    app.frame(0.016)
    first = time.perf_counter() - t0
    worst = 0.0
    while not isinstance(app.scene, WatchScene):
        f0 = time.perf_counter()
        for event in pygame.event.get():
            app.handle(event)
        app.frame(clock.tick(app.frame_rate()) / 1000.0)  # as App.run paces it
        worst = max(worst, time.perf_counter() - f0)
        if time.perf_counter() - t0 > 300:
            raise RuntimeError(f"{path.name} did not open in 300 s")
    whole = time.perf_counter() - t0
    actions = app.scene.timeline.length
    pygame.display.quit()
    return {"first_ms": first * 1000, "whole_s": whole, "worst_ms": worst * 1000, "n": actions}


def _bare(path: Path) -> float:
    """The reference: the same save read and its timeline built, no window."""
    from game.files.savegame import read_save
    from game.files.timeline import Timeline

    t0 = time.perf_counter()
    Timeline(read_save(path), str(path))
    return time.perf_counter() - t0


def peak_mib() -> float | None:
    """The process's peak resident memory (None where the platform does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def bench_open(long_actions: int = 2000, limit_actions: int = 200_000) -> dict:
    """The figures; the tests run it small (fewer actions) as a smoke test."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.files.bench import limit_save, long_version, record
    from game.files.savegame import save
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    out: dict = {}
    with tempfile.TemporaryDirectory() as d:
        long = Path(d) / "steppe-long.json"
        steppe = load_scenario(scenarios_dir() / "steppe-200.toml")
        save(record(long_version(steppe), 7, long_actions, fire_p=0.3), long)
        limit = Path(d) / "limit.json"
        limit_save(limit, limit_actions)
        for name, path in (("long", long), ("limit", limit)):
            got = _open(path)
            bare = _bare(path)
            out[f"{name}_actions"] = got["n"]
            out[f"{name}_mb"] = round(path.stat().st_size / 1e6, 1)
            out[f"{name}_first_frame_ms"] = round(got["first_ms"], 1)
            out[f"{name}_whole_s"] = round(got["whole_s"], 2)
            out[f"{name}_no_window_s"] = round(bare, 2)
            out[f"{name}_worst_frame_ms"] = round(got["worst_ms"], 1)
    out["peak_mib"] = peak_mib()
    out["goals"] = GOALS
    return out


def bench_reliability_window(long_actions: int = 2000, limit_actions: int = 200_000) -> dict:
    """``hexfire bench reliability``: the window's goals of issue 17 in one run: the longest
    legal saves opened in the replay viewer (first frame, whole game, peak memory:
    :func:`bench_open`) and the set-up clicks on the 200 x 200 map with 200 units
    (:func:`.render.bench_clicks`). The hostile files are
    ``python3 tests/helpers/reliability.py``'s (a test harness, not installed)."""
    from game.ui.bench.render import GOALS as RENDER_GOALS
    from game.ui.bench.render import bench_clicks

    figures = bench_open(long_actions, limit_actions)
    goals = figures.pop("goals")
    figures.update(bench_clicks())
    figures["peak_mib"] = peak_mib()  # the whole run's: the set-up's map and units too
    figures["goals"] = {**goals, "setup_click_worst_ms": RENDER_GOALS["setup_click_worst_ms"]}
    return figures
