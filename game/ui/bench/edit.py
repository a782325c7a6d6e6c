"""``hexfire bench edit``: the scenario editor on the 200 x 200 map, headless. Times a brush
stroke applied and drawn (a new board painted, :meth:`Board.painted`; the changed part of
the kept tiles drawn again; the frame drawn) against a reference measured in the same run:
the same stroke with the terrain tiles on screen drawn afresh (what a stroke cost had it
dropped the tile cache). Also the work done off the frame after a stroke, to its result
shown: the edit written into the TOML, the document validated (``parse_scenario`` of the
whole file, in the checker's process), its units read back and the draft kept."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

GOALS = {"stroke_ms": "<= 16", "speedup_vs_redraw": ">= 2"}


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


def bench_edit(strokes: int = 30) -> dict:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import tempfile

    from game.board.hexes import label
    from game.files.shipped import scenarios_dir
    from game.ui.edit.screen import EditScene
    from game.ui.scenes.routes import Edit, Push
    from game.ui.screens import window

    with tempfile.TemporaryDirectory() as d:
        app = window((1280, 800), Path(d), headless=True)
        app.go(Push(Edit(scenarios_dir() / "steppe-200.toml")))
        scene = app.scene
        assert isinstance(scene, EditScene) and scene.panel is not None
        app.frame(0.016)
        assert scene.worker is not None
        scene.worker.checker.wait_ready()  # its process started: not timed with the strokes
        view, board, brushwork = scene.view, scene.sketch.board, scene.brushwork
        view.tile_budget = None  # (the reference's frame draws every tile on screen)
        centre = view.camera.screen_to_hex(*view.rect.center)
        scene.panel.brush = 3
        spots = [centre.neighbor(i % 6).neighbor(i % 6) for i in range(strokes)]
        codes = ("w", "o", "gr", "br")

        def stroke(i: int, fresh: bool) -> float:
            assert scene.panel is not None
            scene.panel.terrain = codes[i % len(codes)]
            t0 = time.perf_counter()
            brushwork.stroke, brushwork.last = {}, None
            brushwork.paint_at(label(spots[i]))
            if fresh:  # the reference: every tile on screen drawn again
                view.renderer._cache.clear()
            app.frame(0.016)
            took = time.perf_counter() - t0
            brushwork.stroke = None
            return took

        painted = [stroke(i, False) for i in range(strokes)]
        redrawn = [stroke(i, True) for i in range(strokes)]
        frame = []
        for _ in range(strokes):
            t0 = time.perf_counter()
            app.frame(0.016)
            frame.append(time.perf_counter() - t0)
        # off the frame: one stroke's edit written and validated (the worker's job)
        from game.files.scenario_edits import SetHexes

        assert scene.worker is not None
        t0 = time.perf_counter()  # to the result shown: written, validated, read back
        scene.worker.apply(SetHexes(tuple(label(h) for h in board.hexes[:7]), "w"), False)
        scene.worker.wait()
        off_frame = time.perf_counter() - t0
        busy = []  # strokes while the worker checks the last one (one interpreter lock)
        for i in range(strokes):
            if not scene.worker.busy:
                scene.worker.apply(SetHexes((label(spots[i]),), "o"), False)
            busy.append(stroke(i, False))
        scene.worker.wait()
        scene.close()
        import pygame

        pygame.display.quit()
    stroke_ms, redraw_ms = _median_ms(painted), _median_ms(redrawn)
    return {
        "map": f"{board.columns} x {board.rows}, zoom {view.camera.zoom}, brush 3",
        "stroke_ms": stroke_ms,
        "stroke_worst_ms": round(max(painted) * 1000, 2),
        "reference_redraw_ms": redraw_ms,
        "speedup_vs_redraw": round(redraw_ms / stroke_ms, 1) if stroke_ms else None,
        "stroke_while_checking_ms": _median_ms(busy),
        "stroke_while_checking_worst_ms": round(max(busy) * 1000, 2),
        "idle_frame_ms": _median_ms(frame),
        "off_frame_edit_to_result_ms": round(off_frame * 1000, 1),
        "goals": GOALS,
    }
