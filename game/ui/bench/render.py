"""``hexfire bench render``: the play screen on the four-board map with all its units and
markers and an open odds panel, headless. Times a full frame (terrain blitted from the zoom
level's cached tiles) against the same frame with every hex polygon drawn every frame (the
reference), a frame while panning, and a hover: from the mouse-move event over an enemy, with a
firer selected, to the frame that shows its odds. Then the same screen on the 200 x 200 map."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

GOALS = {
    "frame_ms": "<= 4",
    "speedup_vs_naive": ">= 5",
    "pan_frame_ms": "<= 8",
    "hover_ms": "<= 16",
    "los_thread_ms": "<= 2",
    "viewshed_overlay_ms": "<= 5",
    "threat_map_ms": "<= 100",
    "action_to_frame_ms": "<= 16 (each)",
    "replay_seek_ms": "<= 200",
    "setup_click_worst_ms": "<= 100",
}


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


def bench_render(frames: int = 60) -> dict:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import tempfile

    import pygame

    from game.engine import IllegalAction
    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.session import Session
    from game.ui.play.screen import PlayScene
    from game.ui.scenes.routes import Play, Push
    from game.ui.screens import window

    with tempfile.TemporaryDirectory() as d:
        app = window((1280, 800), Path(d), headless=True)
        sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
        session = Session.of(new_game(sc, 1, None))
        from game.engine.actions import EndPhase

        while session.view(None).phase != "prep_fire":  # the set-up as the scenario gives it
            session.table(session.acting).submit(EndPhase())
        app.go(Push(Play(session, sc.title, viewer=session.acting)))  # no handover
        play = app.scene
        assert isinstance(play, PlayScene)
        table = play.table  # what the side at the screen sees and may ask
        # a firer of the side at the screen with two enemies in its sights: the odds panel
        pairs = []
        for firer in table.units():
            if firer.side != play.viewer or not firer.has_gun:
                continue
            targets = []
            for enemy in table.units():
                if enemy.side == firer.side or enemy.category == "infantry":
                    continue
                try:
                    table.odds(firer.id, enemy.id)
                except IllegalAction:
                    continue
                targets.append(enemy)
            if len(targets) >= 2:
                pairs = [(firer, t) for t in targets[:2]]
                break
        if not pairs:
            raise RuntimeError("no firer with two enemies in LOS on the benchmark map")
        firer, target = pairs[0]
        play.map.state.selected = firer.id
        play.map.camera.zoom = 31
        m = play.rects()["map"]
        aimed = [table.board.parse(t.hex) for _, t in pairs]

        def aim() -> list[tuple[int, int]]:
            """Both targets centred on the map: their screen points."""
            (ax, ay), (bx, by) = (play.map.camera.hex_to_screen(h) for h in aimed)
            play.map.camera.pan(m.centerx - (ax + bx) / 2, m.centery - (ay + by) / 2)
            return [(int(x), int(y)) for x, y in (play.map.camera.hex_to_screen(h) for h in aimed)]

        pos = aim()
        if not all(m.collidepoint(p) for p in pos):
            play.map.camera.zoom = 16
            pos = aim()
        play.map.mouse_moved(pos[0])
        app.frame(0.016)
        if play.map.hover_odds() is None:
            raise RuntimeError("the benchmark's odds panel is not open")

        def timed(step) -> list[float]:
            out = []
            for i in range(frames):
                t0 = time.perf_counter()
                step(i)
                out.append(time.perf_counter() - t0)
            return out

        full = timed(lambda i: app.frame(0.016))
        renderer = play.map.renderer
        cached_draw = renderer.draw
        renderer.draw = renderer.draw_naive  # type: ignore[method-assign, assignment]
        naive = timed(lambda i: app.frame(0.016))
        renderer.draw = cached_draw  # type: ignore[method-assign]

        def pan(i: int) -> None:
            play.map.camera.pan(4 if (i // 20) % 2 == 0 else -4, 2 if (i // 20) % 2 == 0 else -2)
            app.frame(0.016)

        where = (play.map.camera.ox, play.map.camera.oy)
        panning = timed(pan)
        play.map.camera.ox, play.map.camera.oy = where

        def hover(i: int) -> None:
            x, y = pos[i % 2]
            event = pygame.event.Event(
                pygame.MOUSEMOTION, pos=(x, y), rel=(1, 1), buttons=(0, 0, 0)
            )
            app.pump([event])

        hovering = timed(hover)
        shown = play.map.hover_odds()

        # the LOS thread, recomputed at each mouse move while dragging
        m = play.rects()["map"]
        on_screen = [
            (int(x), int(y))
            for x, y in (play.map.camera.hex_to_screen(h) for h in play.map.renderer.hexes)
            if m.inflate(-10, -10).collidepoint(x, y)
        ]
        spots = [on_screen[(37 * i) % len(on_screen)] for i in range(frames)]
        play.map.analysis.armed = True
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spots[0], button=1))

        def drag(i: int) -> None:
            app.handle(
                pygame.event.Event(pygame.MOUSEMOTION, pos=spots[i], rel=(1, 1), buttons=(1, 0, 0))
            )

        threading = timed(drag)
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spots[-1], button=1))
        # the viewshed overlay: what the firer sees, shaded
        play.map.analysis.overlay = "viewshed"

        def shade(i: int) -> None:
            play.map.analysis.draw_under(app.screen, m)

        shading = timed(shade)
        play.map.analysis.overlay = None
        # the threat map of a vehicle with every enemy known (no odds kept from before)
        from game.engine.play.threat import cached_odds

        vehicle = next(u for u in table.units() if u.side == play.viewer and u.is_vehicle)
        everyone = play.session.table(None)  # the replay's view: every enemy known
        cached_odds.cache_clear()
        t0 = time.perf_counter()
        threats = everyone.threat_map(vehicle.id)
        threat_s = time.perf_counter() - t0
        seek_s = _seek(sc)
        action_ms = _action_to_frame(app, play)
        large = _large_map(app, timed)
        large.update(_setup_clicks(app))
        pygame.display.quit()
    frame_ms, naive_ms = _median_ms(full), _median_ms(naive)
    return {
        "map": f"{table.board.columns} x {table.board.rows}",
        "units": len(play.session.view(None).units),
        "frames": frames,
        "odds_panel": shown[0] if shown else None,
        "frame_ms": frame_ms,
        "naive_frame_ms": naive_ms,
        "speedup_vs_naive": round(naive_ms / frame_ms, 1) if frame_ms else None,
        "pan_frame_ms": _median_ms(panning),
        "hover_ms": _median_ms(hovering),
        "los_thread_ms": _median_ms(threading),
        "viewshed_overlay_ms": _median_ms(shading),
        "threat_map_hexes": len(threats),
        "threat_map_ms": round(threat_s * 1000, 1),
        "action_to_frame_ms": action_ms,
        "replay_seek_ms": round(seek_s * 1000, 1),
        **large,
        "goals": GOALS,
    }


def _action_to_frame(app, play) -> dict[str, float | None]:
    """One action applied through the play screen until its next frame is drawn, with a
    400-line log: a shot (Prep Fire), then a move (Movement); milliseconds each (goal 16, one
    frame at 60 Hz; a frame with no action is ``frame_ms``)."""
    from game.engine.actions import EndPhase, Fire, Move

    play.log.extend(["a line of the log, as long as a move's"] * max(0, 400 - len(play.log)))
    play._refresh_log()  # the box shows them (rebuild_log read the history again: 3 lines)
    app.frame(0.016)

    def act(kind: type) -> float | None:
        action = next((a for a in play.legal() if isinstance(a, kind)), None)
        if action is None:
            return None
        t0 = time.perf_counter()
        play.apply(action)
        app.frame(0.016)
        return round((time.perf_counter() - t0) * 1000, 1)

    shot = act(Fire)
    while app.scene is not play:
        app.pop()
    for _ in range(12):
        if play.table.phase == "movement" or play.table.over:
            break
        play.session.table(play.session.acting).submit(EndPhase())
    while app.scene is not play:
        app.pop()
    move = act(Move)
    return {"shot": shot, "move": move}


def _large_map(app, timed) -> dict:
    """The 200 x 200 scenario at zoom 31: the first frame (every tile on screen drawn), a
    frame from cached tiles, panning across the map (new tiles come on screen now and then:
    the median and the worst frame), and the viewshed overlay of a unit (its first viewshed
    computed on demand)."""
    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.session import Session
    from game.ui.play.screen import PlayScene
    from game.ui.scenes.routes import Play, Replace

    sc = load_scenario(scenarios_dir() / "steppe-200.toml")
    session = Session.of(new_game(sc, 1, None))
    app.go(Replace(Play(session, sc.title, viewer=session.acting)))
    play = app.scene
    assert isinstance(play, PlayScene)
    play.map.camera.zoom = 31
    unit = next(u for u in play.table.units() if u.side == play.viewer)
    play.map.center_on(unit.hex)
    t0 = time.perf_counter()
    app.frame(0.016)
    first_s = time.perf_counter() - t0
    cached = timed(lambda i: app.frame(0.016))

    def pan(i: int) -> None:
        play.map.camera.pan(-6, -3)
        app.frame(0.016)

    panning = timed(pan)
    play.map.state.selected = unit.id
    play.map.analysis.overlay = "viewshed"
    m = play.rects()["map"]
    t0 = time.perf_counter()
    play.map.analysis.draw_under(app.screen, m)
    overlay_first_s = time.perf_counter() - t0
    shading = timed(lambda i: play.map.analysis.draw_under(app.screen, m))
    return {
        "large_map": f"{play.table.board.columns} x {play.table.board.rows}",
        "large_first_frame_ms": round(first_s * 1000, 1),
        "large_frame_ms": _median_ms(cached),
        "large_pan_frame_ms": _median_ms(panning),
        "large_pan_worst_ms": round(max(panning) * 1000, 1),
        "large_viewshed_overlay_first_ms": round(overlay_first_s * 1000, 1),
        "large_viewshed_overlay_ms": _median_ms(shading),
    }


def crowded_steppe() -> str:
    """steppe-200 with 200 units (the scenario limit): 92 more a side, each with the set-up
    area of its side, in free hexes a vehicle may stand in."""
    from game.board.hexes import column_letters, from_offset, label
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    path = scenarios_dir() / "steppe-200.toml"
    text = path.read_text(encoding="utf-8")
    setup = load_scenario(path).setup  # the file, not a game: the hexes its units stand in
    board = setup.board
    taken = {u.hex for u in setup.units}

    def free(c0: int, c1: int):
        for row in range(80, 121):
            for col in range(c0, c1 + 1):
                hx = label(from_offset(col, row))
                if hx not in taken and board.terrain_at(from_offset(col, row)).enterable_by_vehicle:
                    taken.add(hx)
                    yield hx

    sides = [("german", "pz4h", 91, 101, 0), ("russian", "t34m43", 116, 126, 3)]
    spots = {side: free(c0 - 1, c1 - 1) for side, _, c0, c1, _ in sides}
    extra = []
    for k in range(92):
        for side, kind, c0, c1, facing in sides:
            cols = f"{column_letters(c0 - 1)}-{column_letters(c1 - 1)}"
            extra.append(
                f'\n[[units]]\nid = "{side[:3]}-x{k:02d}"\ntype = "{kind}"\nside = "{side}"\n'
                f'hex = "{next(spots[side])}"\nfacing = {facing}\n'
                f'setup_area = {{ columns = "{cols}", rows = "80-120" }}\n'
            )
    at = text.index("\n[[victory]]")
    return text[:at] + "".join(extra) + text[at:]


def bench_clicks() -> dict:
    """The set-up clicks of :func:`_setup_clicks` alone, in a headless window of their own
    (the window cases of ``python3 tests/helpers/reliability.py --window``)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import tempfile

    import pygame

    from game.ui.screens import window

    with tempfile.TemporaryDirectory() as d:
        app = window((1280, 800), Path(d), headless=True)
        try:
            return _setup_clicks(app)
        finally:
            pygame.display.quit()


def _setup_clicks(app) -> dict:
    """Set-up on the 200 x 200 map with 200 units: each click from its events to the frame
    drawn (one frame, as a player's click is): selecting a counter, and dragging one to a free
    hex of its area (a placement); the median and the worst of 16 (goal: none over 100 ms; it
    was 2.4-5.1 s, every click trying every placement of every unit)."""
    import pygame

    from game.board.hexes import label
    from game.files.scenario import parse_scenario
    from game.files.session import new_game
    from game.session import Session
    from game.ui.play.screen import PlayScene
    from game.ui.scenes.routes import Play, Replace

    sc = parse_scenario(crowded_steppe(), "steppe-200-crowded.toml")
    session = Session.of(new_game(sc, 1, None))
    app.go(Replace(Play(session, sc.title, viewer=session.acting)))
    play = app.scene
    assert isinstance(play, PlayScene)
    app.frame(0.016)
    board = play.table.board
    own = [u["id"] for u in play.map.units() if u["side"] == play.viewer][:16]
    times = []

    def one_frame(*events: pygame.event.Event) -> float:
        t0 = time.perf_counter()
        for event in events:
            app.handle(event)
        app.frame(0.016)
        return time.perf_counter() - t0

    for uid in own:
        unit = play.map.unit(uid)
        assert unit is not None
        play.map.center_on(unit["hex"])
        app.frame(0.016)  # the terrain there drawn: the click's own cost is measured
        src = tuple(int(v) for v in play.map.camera.hex_to_screen(board.parse(unit["hex"])))
        move = pygame.event.Event(pygame.MOUSEMOTION, pos=src, rel=(0, 0), buttons=(0, 0, 0))
        down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=src, button=1)
        times.append(one_frame(move, down))
        here = board.parse(unit["hex"])
        dst = next(
            n
            for d in range(6)
            if board.contains(n := here.neighbor(d))
            and not play.map.units_at(label(n))
            and label(n) in play.table.setup_hexes(uid)
        )
        to = tuple(int(v) for v in play.map.camera.hex_to_screen(dst))
        drag = pygame.event.Event(pygame.MOUSEMOTION, pos=to, rel=(1, 1), buttons=(1, 0, 0))
        up = pygame.event.Event(pygame.MOUSEBUTTONUP, pos=to, button=1)
        times.append(one_frame(drag, up))
        placed = play.map.unit(uid)
        if placed is None or placed["hex"] != label(dst):
            raise RuntimeError(f"the benchmark's drag did not place {uid}")
    return {
        "setup_units": len(play.session.view(None).units),
        "setup_click_ms": _median_ms(times),
        "setup_click_worst_ms": round(max(times) * 1000, 1),
    }


def _seek(scenario) -> float:
    """A jump on the 2,000-action save of ``hexfire bench replay``: from the last action to the
    first and back, as the replay viewer does it (snapshots every 100 actions)."""
    from game.files.bench import long_version, record
    from game.files.timeline import Timeline

    saved = record(long_version(scenario), 7, 2000, fire_p=0.3)
    timeline = Timeline(saved)
    timeline.game_at(timeline.length)
    t0 = time.perf_counter()
    timeline.game_at(0)
    timeline.game_at(timeline.length)
    return time.perf_counter() - t0
