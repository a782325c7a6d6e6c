"""The screen, driven by posted pygame events (headless): select, move, turn, stop, fire from
the odds panel, Defensive First Fire both ways, handover, undo, save / quit / resume, bad files,
and the pure parts (hex <-> pixel, the camera)."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest
from ui_driver import clear_overlays, click, click_hex, hover, key, perform, pick_file, select

from game.board.hexes import from_offset, label
from game.engine.actions import EndMove, EndPhase, Move, Pass, Turn
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game, resume
from game.files.shipped import scenarios_dir
from game.ui.map.geometry import ZOOMS, Camera, map_extent
from game.ui.overlays.scenes import DffPrompt, EndScene, Handover
from game.ui.play.screen import PlayScene
from game.ui.scenes.stack import App
from game.ui.screens import window
from game.ui.start.screen import StartScene


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def start(app: App, name: str = "tutorial-duel", seed: int = 7) -> PlayScene:
    sc = load_scenario(scenarios_dir() / f"{name}.toml")
    session = new_game(sc, seed, app.save_dir / f"{name}.json")
    play = PlayScene(session, sc.title)
    app.push(play)
    app.pump([])
    return play


def to_phase(app: App, play: PlayScene, phase: str, side: str | None = None) -> None:
    for _ in range(30):
        clear_overlays(app, play)
        if isinstance(app.scene, DffPrompt):
            key(app, pygame.K_SPACE, " ")
            continue
        g = play.session.game
        if g.phase == phase and (side is None or g.phasing == side):
            return
        perform(app, play, EndPhase())
    raise AssertionError(f"never reached {phase}")


def start_a_move(app: App) -> tuple[PlayScene, str]:
    """road-ambush's first Movement Phase, one vehicle moved one hex (any Defensive First Fire
    chance passed): the play screen and the vehicle."""
    play = start(app, "road-ambush")
    to_phase(app, play, "movement")
    clear_overlays(app, play)
    mover = next(a.unit for a in play.legal() if isinstance(a, Move))
    perform(app, play, next(a for a in play.legal() if isinstance(a, Move) and a.unit == mover))
    while isinstance(app.scene, DffPrompt):
        perform(app, play, Pass())
    clear_overlays(app, play)
    return play, mover


# --- pure parts ----------------------------------------------------------------------------


@pytest.mark.parametrize("zoom", ZOOMS)
def test_hex_to_pixel_and_back_at_every_zoom(zoom):
    cam = Camera(zoom, 17.0, -9.0)
    for col in range(12):
        for row in range(8):
            h = from_offset(col, row)
            x, y = cam.hex_to_screen(h)
            assert cam.screen_to_hex(x + 0.4 * zoom, y - 0.3 * zoom) == h


def test_camera_zooms_around_the_cursor():
    cam = Camera(31, 100.0, 50.0)
    before = cam.screen_to_world(400, 300)
    assert cam.zoom_step(1, 400, 300)
    after = cam.screen_to_world(400, 300)
    assert before == pytest.approx(after)
    assert cam.zoom > 31
    cam.zoom = ZOOMS[-1]
    assert not cam.zoom_step(1, 0, 0)


def test_camera_fit_shows_the_whole_map():
    cam = Camera()
    cam.fit(12, 8, 900, 560)
    x0, y0, x1, y1 = map_extent(12, 8)
    assert (x1 - x0) * cam.zoom <= 900 and (y1 - y0) * cam.zoom <= 560


# --- playing by events ----------------------------------------------------------------------


def test_start_screen_lists_the_scenarios_and_enter_starts_one(app):
    app.push(StartScene())
    app.pump([])
    assert len(app.scene.scenarios) >= 5
    stems = [p.stem for p, _, _ in app.scene.scenarios]
    for _ in range(stems.index("tutorial-duel")):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN, "\r")
    assert isinstance(app.scene, Handover | PlayScene)
    play = next(s for s in app.scenes if isinstance(s, PlayScene))
    assert play.session.game.setup.title.startswith("Tutorial")
    assert play.session.path is not None and play.session.path.parent == app.save_dir


def test_handover_covers_the_map_until_the_player_clicks(app):
    play = start(app)
    assert isinstance(app.scene, Handover) and app.scene.side == "german"
    frame = app.screen.copy()
    assert frame.get_at((300, 300))[:3] == (18, 20, 24)  # the cover, not the map
    click(app, (640, 400))
    assert app.scene is play and play.viewer == "german"
    perform(app, play, EndPhase())  # the German ends his set-up: the Russian takes the seat
    assert isinstance(app.scene, Handover) and app.scene.side == "russian"


def test_select_move_turn_and_stop_by_clicks_and_keys(app):
    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    tank = play.session.game.units["rus-t34-2"]
    select(app, play, tank.id)
    ahead = label(tank.hex.neighbor(tank.facing))
    costs = play.session.game.move_costs(tank.id)
    assert ahead in costs  # the reachable hex is highlighted with its cost
    click_hex(app, play, ahead)
    clear_overlays(app, play)
    if isinstance(app.scene, DffPrompt):
        key(app, pygame.K_SPACE, " ")
    assert tank.label == ahead and tank.moving
    facing = tank.facing
    key(app, pygame.K_COMMA, ",")
    if isinstance(app.scene, DffPrompt):
        key(app, pygame.K_SPACE, " ")
    assert tank.facing == (facing + 1) % 6
    key(app, pygame.K_x, "x")
    if isinstance(app.scene, DffPrompt):
        key(app, pygame.K_SPACE, " ")
    assert not tank.moving and tank.moved


def test_fire_from_the_odds_panel(app, tmp_path):
    from tools_docs import build_duel

    play = PlayScene(resume(build_duel(tmp_path / "duel.json")), "duel")
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    assert play.session.game.phase == "defensive_fire" and play.viewer == "german"
    select(app, play, "ger-pz4-1")
    target = play.session.game.units["rus-t34-2"]
    hover(app, play.map.camera.hex_to_screen(target.hex))
    title, odds = play.map.hover_odds()
    assert not isinstance(odds, str) and sum(odds.report["p"].values()) == pytest.approx(1.0)
    # the panel shows those very odds: its pixels are the odds panel's border colour
    side = play.rects()["side"]
    assert any(
        app.screen.get_at((side.left + 6, y))[:3] == (255, 90, 70)
        for y in range(side.top, side.bottom)
    )
    draws = play.session.game.dice.draws
    click(app, play.map.camera.hex_to_screen(target.hex))
    assert play.session.game.dice.draws > draws
    fire = [e for e in play.session.game.history if e.kind == "fire"][-1]
    assert fire.data["firer"] == "ger-pz4-1" and fire.data["target"] == "rus-t34-2"
    assert play.map.state.banner is not None


def _dff_setup(app, tmp_path, until=DffPrompt):
    """The T-34 driven towards the Panzer until the screen shows ``until`` (the prompt; with
    strict hotseat, the handover before it)."""
    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    tank = play.session.game.units["rus-t34-2"]
    for step in ["J2", "I2", "H1", "G2", "F2", "E3"]:
        select(app, play, tank.id)
        while label(tank.hex.neighbor(tank.facing)) != step:
            key(app, pygame.K_COMMA, ",")
            if isinstance(app.scene, until):
                return play, tank
        select(app, play, tank.id)
        click_hex(app, play, step)
        if isinstance(app.scene, until):
            return play, tank
    raise AssertionError("no Defensive First Fire chance on the way")


def test_defensive_first_fire_prompt_continue_then_fire(app, tmp_path):
    play, tank = _dff_setup(app, tmp_path)
    prompt = app.scene
    assert isinstance(prompt, DffPrompt) and prompt.firers == ["ger-pz4-1"]
    key(app, pygame.K_SPACE, " ")  # Continue: the move goes on
    assert not play.session.game.dff_pending and app.scene is play
    assert play.session.game.history[-1].kind == "pass"
    # the next MP: another chance; this time fire
    perform(app, play, Turn(tank.id, (tank.facing + 1) % 6))
    if not isinstance(app.scene, DffPrompt):
        perform(app, play, EndMove(tank.id, False))
    assert isinstance(app.scene, DffPrompt)
    draws = play.session.game.dice.draws
    key(app, pygame.K_1, "1")
    assert play.session.game.dice.draws > draws
    assert [e for e in play.session.game.history if e.kind == "fire"][-1].data[
        "firer"
    ] == "ger-pz4-1"


def test_strict_hotseat_hands_over_before_the_prompt(app, tmp_path):
    app.prefs.strict_hotseat = True
    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    tank = play.session.game.units["rus-t34-2"]
    seen_handover = False
    for step in ["J2", "I2", "H1", "G2", "F2", "E3"]:
        select(app, play, tank.id)
        while label(tank.hex.neighbor(tank.facing)) != step:
            key(app, pygame.K_COMMA, ",")
            if isinstance(app.scene, Handover):
                seen_handover = True
                break
        if seen_handover:
            break
        click_hex(app, play, step)
        if isinstance(app.scene, Handover):
            seen_handover = True
            break
    assert seen_handover and app.scene.side == "german" and app.scene.then_dff
    click(app, (640, 400))
    assert isinstance(app.scene, DffPrompt) and play.viewer == "german"


def test_undo_a_move_but_never_across_a_die(app):
    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    tank = play.session.game.units["rus-t34-1"]
    start_hex, before = tank.label, play.session.game.state_hash()
    select(app, play, tank.id)
    key(app, pygame.K_COMMA, ",")
    assert not isinstance(app.scene, DffPrompt)  # out of the Panzer's sight: nobody was asked
    assert play.session.game.state_hash() != before
    key(app, pygame.K_u, "u")
    assert (
        play.session.game.state_hash() == before
        and play.session.game.units[tank.id].label == start_hex
    )
    assert read_save(play.session.path).actions[-1]["action"]["type"] == "end_phase"


def test_save_quit_and_resume_to_the_same_state(app, tmp_path):
    play = start(app)
    rng = random.Random(3)
    from game.engine.randomplay import policy

    for _ in range(25):
        clear_overlays(app, play)
        if play.session.game.over:
            break
        perform(app, play, policy(play.session.game, rng))
    state = play.session.game.state_hash()
    post_quit = pygame.event.Event(pygame.QUIT)
    app.handle(post_quit)
    assert not app.running
    again = resume(play.session.path)
    assert again.game.state_hash() == state


def test_a_bad_file_opened_from_the_window_shows_one_line(app, tmp_path):
    from game.ui.scenes.opening import open_path

    bad = tmp_path / "bad.toml"
    bad.write_text("id = [\n")
    app.push(StartScene())
    message = open_path(app, bad)
    assert message and "bad.toml" in message and "\n" not in message
    assert isinstance(app.scene, StartScene)


def test_help_shows_every_binding_above_the_button_bar_and_the_log(app):
    """Bindings as data: F1 shows the table's rows, drawn above the widgets (the button bar and
    the log, which pygame-gui draws after the scene)."""
    from game.ui.bindings import help_rows

    play = start(app)
    clear_overlays(app, play)
    bar = play.rects()["buttons"]
    before = app.screen.get_at((bar.centerx, bar.centery + 10))
    key(app, pygame.K_F1)
    assert type(app.scene).__name__ == "HelpScene"
    app.frame(0.016)
    assert app.screen.get_at((bar.centerx, bar.centery + 10))[:3] == (26, 28, 32) != before[:3]
    key(app, pygame.K_ESCAPE)
    assert app.scene is play
    assert len(help_rows("play")) > 15 and len(help_rows()) > len(help_rows("play"))


def test_every_key_of_the_bindings_table_does_something_known(app):
    """Each action of data/bindings.toml is one the play screen or the replay viewer runs:
    pressing every key on the play screen raises nothing and leaves the game legal."""
    from game.ui.bindings import bindings

    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    select(app, play, "rus-t34-1")
    for b in bindings():
        if b.screen in ("replay", "edit") or b.action in ("save_as", "load", "help", "end_phase"):
            continue
        for spec in b.keys:
            name = spec.removeprefix("ctrl+")
            code = pygame.key.key_code(name)
            mod = pygame.KMOD_CTRL if spec.startswith("ctrl+") else 0
            key(app, code, name if len(name) == 1 else "", mod)
            clear_overlays(app, play)
    assert play.session.game.legal_actions()


def test_end_phase_asks_each_time_enter_confirms_esc_cancels(app):
    """With units that could still act, e asks; Esc cancels, and e asks again; Enter ends the
    phase (it asked only once before, and only the mouse could answer)."""
    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    phase, done = play.session.game.phase, play.session.game.actions_applied
    key(app, pygame.K_e, "e")
    assert play.dialogs.confirm is not None
    key(app, pygame.K_ESCAPE)
    assert play.dialogs.confirm is None and play.session.game.phase == phase
    assert play.session.game.actions_applied == done
    key(app, pygame.K_e, "e")
    assert play.dialogs.confirm is not None, "asks again after a cancel"
    key(app, pygame.K_RETURN)
    assert play.dialogs.confirm is None and play.session.game.actions_applied > done


def test_the_replay_viewer_has_a_way_back(app, tmp_path):
    """Esc and the Back button return to the screen the viewer was opened from."""
    from ui_driver import click_widget

    from game.ui.scenes.opening import watch_path
    from game.ui.scenes.routes import Push, Start

    app.go(Push(Start()))
    start_screen = app.scene
    assert watch_path(app, scenarios_dir() / "saves" / "tutorial-duel-played.json") is None
    app.pump([])  # the replay is built off the window's thread
    assert type(app.scene).__name__ == "WatchScene"
    key(app, pygame.K_ESCAPE)
    assert app.scene is start_screen
    watch_path(app, scenarios_dir() / "saves" / "tutorial-duel-played.json")
    app.pump([])
    click_widget(app, app.scene.buttons["leave"])
    assert app.scene is start_screen


def test_the_readme_controls_table_is_the_bindings_table():
    """python3 tools/docs/controls.py writes it; the README may not drift from the table."""
    from pathlib import Path

    from tools_docs import docs_tool

    root = Path(__file__).resolve().parents[2]
    with_table = docs_tool("controls").with_table
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert with_table(readme) == readme, "run python3 tools/docs/controls.py"


def test_the_end_screen_says_who_won(app, tmp_path):
    saved = read_save(scenarios_dir() / "saves" / "tutorial-duel-played.json")
    session = resume_copy(saved, tmp_path)
    play = PlayScene(session, "duel")
    app.push(play)
    app.pump([])
    assert isinstance(app.scene, EndScene)
    assert play.session.game.winner in app.scene.play.session.game.setup.sides


def resume_copy(saved, tmp_path):
    from game.files.savegame import save

    path = tmp_path / "copy.json"
    save(saved, path)
    return resume(path)


def test_move_by_click_matches_the_engine_refusal(app):
    play = start(app)
    to_phase(app, play, "movement", "russian")
    clear_overlays(app, play)
    tank = play.session.game.units["rus-t34-1"]
    select(app, play, tank.id)
    behind = next(
        label(n)
        for d in (3, 2, 4)
        if play.session.game.board.contains(n := tank.hex.neighbor((tank.facing + d) % 6))
    )
    click_hex(app, play, behind)  # a hex behind: the path there turns first (HX-3)
    assert tank.label != behind
    route = play.map.state.route
    assert route is not None and isinstance(route.steps[0], Turn)
    assert f"Path to {behind}" in play.map.state.message
    click_hex(app, play, "B6")  # a stone building: no path, the engine's refusal says why
    assert play.map.state.route is None and play.map.state.message


def test_playing_never_changes_state_outside_apply(app):
    play = start(app)
    clear_overlays(app, play)
    before = play.session.game.state_hash()
    for k, u in ((pygame.K_TAB, ""), (pygame.K_g, "g"), (pygame.K_r, "r"), (pygame.K_PLUS, "+")):
        key(app, k, u)
    hover(app, (200, 200))
    assert play.session.game.state_hash() == before
    assert Pass and Move  # the imports the play-through uses


def test_set_up_by_dragging_counters_and_facing_them(app):
    play = start(app)
    clear_overlays(app, play)
    assert play.session.game.phase == "setup" and play.viewer == "german"
    tank = play.session.game.units["ger-pz4-1"]
    assert play.unplaced() == [tank.id]  # ringed, and End Phase counts it (HX-12)
    assert play.buttons["end_phase"].text == "End Phase: 1 unmoved"
    select(app, play, tank.id)
    assert "B3" in play.session.game.setup_hexes(tank.id)
    from ui_driver import post

    src = tuple(int(v) for v in play.map.camera.hex_to_screen(tank.hex))
    dst = tuple(int(v) for v in play.map.camera.hex_to_screen(play.session.game.board.parse("B3")))
    post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=src, button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=dst, rel=(1, 1), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=dst, button=1),
    )
    app.pump()
    assert tank.label == "B3"
    assert play.unplaced() == [] and play.buttons["end_phase"].text == "End Phase (e)"
    key(app, pygame.K_PERIOD, ".")
    assert tank.facing == 5
    saved = read_save(play.session.path)
    assert [a["action"]["type"] for a in saved.actions] == ["place", "place"]
    perform(app, play, EndPhase())
    clear_overlays(app, play)
    assert play.session.game.phase == "setup_attacker" and play.viewer == "russian"


def test_smoke_bench_render_runs_and_reports_its_figures():
    """A smoke test: the benchmark runs and reports its figures (not a test of speed)."""
    from game.ui.bench.render import bench_render

    figures = bench_render(frames=5)
    assert {"frame_ms", "naive_frame_ms", "speedup_vs_naive", "pan_frame_ms", "hover_ms"} <= set(
        figures
    )
    assert figures["odds_panel"]
    assert set(figures["action_to_frame_ms"]) == {"shot", "move"}
    assert all(v is not None for v in figures["action_to_frame_ms"].values()), "both measured"


def test_smoke_bench_open_runs_and_reports_its_figures(data_dir):
    """A smoke test of ``hexfire bench open`` on small saves (not a test of speed)."""
    from game.ui.bench.opening import GOALS, bench_open

    figures = bench_open(long_actions=30, limit_actions=60)
    assert set(GOALS) <= set(figures)
    assert figures["limit_actions"] == 60 and figures["long_actions"] > 0
    assert figures["long_first_frame_ms"] > 0 and figures["limit_whole_s"] > 0


def test_smoke_bench_reliability_runs_and_reports_the_window_goals(data_dir):
    """A smoke test of ``hexfire bench reliability`` (issue 17's window goals) on small saves:
    every goal has its figure, and the 200-unit set-up's drags placed their counters (the
    clicks raise otherwise). Not a test of speed."""
    from game.ui.bench.opening import bench_reliability_window

    figures = bench_reliability_window(long_actions=30, limit_actions=60)
    assert set(figures["goals"]) <= set(figures)
    assert "setup_click_worst_ms" in figures["goals"] and figures["setup_units"] == 200
    assert figures["limit_actions"] == 60


def test_closing_mid_game_then_resume_from_the_start_screen(tmp_path):
    from ui_driver import click_widget

    from game.engine.randomplay import policy

    first = window((1280, 800), tmp_path / "saves", headless=True)
    play = start(first)
    rng = random.Random(5)
    for _ in range(12):
        clear_overlays(first, play)
        perform(first, play, policy(play.session.game, rng))
    state = play.session.game.state_hash()
    first.handle(pygame.event.Event(pygame.QUIT))
    pygame.display.quit()

    second = window((1280, 800), tmp_path / "saves", headless=True)
    second.push(StartScene())
    second.pump([])
    scene = second.scene
    assert scene.newest == play.session.path
    click_widget(second, scene.resume)
    resumed = next(s for s in second.scenes if isinstance(s, PlayScene))
    assert resumed.session.game.state_hash() == state


def test_ctrl_s_saves_a_copy_that_resumes(app, tmp_path):

    play = start(app)
    clear_overlays(app, play)
    key(app, pygame.K_s, "s", mod=pygame.KMOD_CTRL)
    assert play.dialogs.file_dialog is not None and play.dialogs.file_mode == "save"
    target = tmp_path / "copy.json"
    pick_file(app, play.dialogs.file_dialog, target)
    assert target.exists() and "saved a copy" in play.map.state.message
    assert resume(target).game.state_hash() == play.session.game.state_hash()


def test_the_log_shows_a_shot_with_a_white_and_a_coloured_die(tmp_path):
    from game.engine.events import Event
    from game.ui.panel.log import COLORED_DIE, WHITE_DIE, event_html

    fire = Event("fire", "X fires AP at Y", data={"dr": {"white": 5, "colored": 2}})
    line = event_html(fire)  # named: a lone red "[2]" was not understood
    assert f"TH dice: <font color='{WHITE_DIE}'><b>5</b></font> white" in line
    assert f"<font color='{COLORED_DIE}'><b>2</b></font> colored" in line


def test_the_odds_panel_text_is_the_odds_report(tmp_path):
    from tools_docs import build_duel

    from game.rules.odds import odds_to_dict
    from game.rules.report import odds_report_lines
    from game.ui.panel.parts import odds_lines

    session = resume(build_duel(tmp_path / "duel.json"))
    odds = session.game.preview_fire("ger-pz4-1", "rus-t34-2")
    lines = odds_lines(session.game.knowledge("german").odds("ger-pz4-1", "rus-t34-2"))
    assert lines == odds_report_lines(odds_to_dict(odds))
    assert any("Case J" in x and "C6.1" in x for x in lines)
    assert any(x.startswith("To Kill") for x in lines)


def test_the_log_hides_the_other_sides_set_up_and_dff_chances():
    from engine_helpers import c617_game, to_phase

    from game.engine.actions import BoreSight, Move

    g = c617_game()
    g.apply(BoreSight("ger-gun-1", "E2"))  # the scenario defender's set-up choice (C6.42)
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "E2"))  # the German gun may Defensive First Fire (C6.17)
    german = {e.kind for e in g.knowledge("german").events()}
    russian = {e.kind for e in g.knowledge("russian").events()}
    assert {"bore_sight", "dff_chance"} <= german
    assert not {"bore_sight", "dff_chance"} & russian and "phase" in russian


def test_the_end_screen_replays_the_game(app, tmp_path):
    from ui_driver import click_widget

    from game.ui.replay.viewer import WatchScene

    saved = read_save(scenarios_dir() / "saves" / "tutorial-duel-played.json")
    play = PlayScene(resume_copy(saved, tmp_path), "duel")
    app.push(play)
    app.pump([])
    click_widget(app, app.scene.replay)
    assert isinstance(app.scene, WatchScene) and app.scene.at == 0


def test_the_window_resizes_and_keeps_playing(app):
    play = start(app)
    clear_overlays(app, play)
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=1600, h=1000, size=(1600, 1000)))
    app.pump([])
    assert app.size == (1600, 1000) and play.rects()["side"].right == 1600
    assert play.buttons["end_phase"].rect.right <= 1600
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=500, h=300, size=(500, 300)))
    assert app.size == (960, 640)  # the smallest the screen lays out
    app.pump([])
    side = play.rects()["side"]
    assert all(b.rect.right <= side.left for k, b in play.buttons.items() if k != "end_phase")
    perform(app, play, EndPhase())
    assert play.session.game.actions_applied == 1


def test_rd17_the_ammunition_chosen_is_dropped_once_the_unit_is_out_of_it(app, tmp_path):
    from tools_docs import build_duel

    play = PlayScene(resume(build_duel(tmp_path / "duel.json")), "duel", viewer="german")
    app.push(play)
    app.pump([])
    play.map.state.selected = "ger-pz4-1"
    play.map.state.ammo["ger-pz4-1"] = "APCR"
    assert play.map.chosen_ammo("ger-pz4-1") == "APCR"
    play.session.game.state.units["ger-pz4-1"].ammo_out = ("APCR",)
    play.map.refresh()  # the state was changed by hand, not by an action
    assert play.map.chosen_ammo("ger-pz4-1") is None  # the next shot goes with AP again
    play.orders.cycle_ammo()
    assert play.map.state.ammo["ger-pz4-1"] != "APCR"


def test_save_as_offers_a_file_name_and_ok_saves_it(app, tmp_path):
    """Ctrl+S: the dialog holds a file name of its own (OK always saves), and a folder picked
    is refused with a reason (it held only the folder, and OK did nothing)."""
    from ui_driver import click_widget

    play = start(app)
    clear_overlays(app, play)
    key(app, pygame.K_s, "s", mod=pygame.KMOD_CTRL)
    dialog = play.dialogs.file_dialog
    offered = Path(dialog.file_path_text_line.get_text())
    assert offered.name == "tutorial-duel-copy.json" and not offered.exists()
    click_widget(app, dialog.ok_button)
    assert offered.exists() and "saved a copy" in play.map.state.message
    assert resume(offered).game.state_hash() == play.session.game.state_hash()
    key(app, pygame.K_s, "s", mod=pygame.KMOD_CTRL)
    assert Path(play.dialogs.file_dialog.file_path_text_line.get_text()).name == (
        "tutorial-duel-copy-2.json"
    )
    pick_file(app, play.dialogs.file_dialog, tmp_path)
    assert "that is a folder" in play.map.state.message


def test_tab_goes_only_to_units_that_can_still_move(app):
    """In the Movement Phase, Tab skips a unit that has moved and stopped (it may still turn
    or change its hatch, but not move: Tab used to select it)."""
    play, mover = start_a_move(app)  # a Russian gun sees it (its start too): passed
    if play.session.game.units[mover].moving:
        perform(app, play, EndMove(mover, False))
        while isinstance(app.scene, DffPrompt):
            perform(app, play, Pass())
        clear_overlays(app, play)
    assert mover not in play.orders.units_that_can_act()
    for _ in range(len(play.session.game.units)):
        key(app, pygame.K_TAB)
        assert play.map.state.selected != mover


def test_a_handover_leaves_no_overlay_and_shows_the_own_units(app):
    """An overlay or LOS thread one player left on is off for the other after the handover,
    nothing is selected, and the camera comes to the new side's units."""
    from game.ui.map.analysis import trace

    play = start(app, "bagration-4-boards")
    clear_overlays(app, play)
    side = play.viewer
    play.map.analysis.overlay = "viewshed"
    play.map.analysis.thread = trace(play.map.table, "A1", "B2")
    other = play.session.game.setup.other(side)
    far = next(u for u in play.session.game.units.values() if u.side == side)
    play.map.center_on(far.label)
    play.hand_over(other)
    assert play.map.analysis.overlay is None and play.map.analysis.thread is None
    assert play.map.state.selected is None and play.viewer == other
    inner = play.rects()["map"].inflate(-80, -80)
    own = [u.hex for u in play.session.game.units.values() if u.active and u.side == other]
    assert any(inner.collidepoint(play.map.camera.hex_to_screen(h)) for h in own)


def test_a_side_with_no_unit_on_the_map_opens_without_a_crash(app, tmp_path):
    """A big map whose acting side has no unit left on it (all exited or eliminated): the
    play screen opens and keeps the camera where it is (it raised in enter); that side has
    nothing to do, so its phases pass by themselves (HX-15) to the other side's handover."""
    from game.ui.overlays.scenes import Handover
    from game.ui.scenes.routes import Play, Push

    sc = load_scenario(scenarios_dir() / "steppe-200.toml")
    session = new_game(sc, 1, None)
    side = session.game.to_act
    for u in session.game.units.values():
        if u.side == side:
            u.status = "eliminated"
    app.go(Push(Play(session, sc.title, viewer=side)))
    app.pump([])
    assert isinstance(app.scene, Handover) and app.scene.side != side
    assert session.game.to_act != side


def test_the_deciding_shot_is_shown_on_the_end_screen(app, tmp_path):
    """The shot that ends the game shows its dice and outcome on the end screen (the last hit
    jumped straight to the result)."""
    from game.engine.actions import action_from_json
    from game.files.savegame import SavedGame
    from game.ui.scenes.routes import Play, Push

    saved = read_save(scenarios_dir() / "saves" / "tutorial-duel-played.json")
    last = action_from_json(saved.actions[-1]["action"])
    head = SavedGame(saved.scenario_name, saved.scenario_text, saved.seed, saved.actions[:-1])
    session = resume_copy(head, tmp_path)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    play = app.scenes[0]
    assert isinstance(play, PlayScene)
    while app.scene is not play:  # a Defensive First Fire prompt asked: its shot, by hand here
        app.pop()
    assert play.apply(last) and play.session.game.over
    app.pump([])
    assert app.scene is play and play.over_pending  # the shot on the map first (it jumped)
    assert play.map.state.banner is not None and "Game over" in play.map.state.message
    key(app, pygame.K_SPACE, " ")
    assert isinstance(app.scene, EndScene)
    banner = play.map.state.banner
    assert banner is not None and banner.text.startswith("HIT") and "+" in banner.text


def test_the_dff_prompt_keeps_off_the_target_and_keeps_its_numbers(app, tmp_path):
    """The prompt is never drawn over the moving target, and a firer keeps its number for
    the whole chance (after one shot the others were renumbered)."""
    play, tank = _dff_setup(app, tmp_path)
    prompt = app.scene
    assert isinstance(prompt, DffPrompt)
    assert not prompt.panel.collidepoint(play.map.camera.hex_to_screen(tank.hex))
    m, cam = play.map.rect, play.map.camera
    for where in (
        (m.right - 60, m.top + 40),
        (m.left + 60, m.top + 40),
        (m.left + 470, m.top + 30),
    ):
        x, y = cam.hex_to_screen(tank.hex)  # the target under each top corner in turn
        cam.pan(where[0] - x, where[1] - y)
        prompt.leave()
        prompt.enter()
        clear = prompt.panel.inflate(cam.zoom, cam.zoom)
        assert not clear.collidepoint(cam.hex_to_screen(tank.hex)), where
    # as after a first shot by another firer, numbered 1, of this same chance
    prompt.leave()
    play.dff_order = (tank.id, ["ger-other", "ger-pz4-1"])
    prompt.enter()
    assert prompt.number == {"ger-pz4-1": 2}
    assert prompt.buttons["ger-pz4-1"].text.startswith("2: Fire")
    draws = play.session.game.dice.draws
    key(app, pygame.K_1, "1")  # no firer 1 left: nothing happens
    assert play.session.game.dice.draws == draws
    key(app, pygame.K_2, "2")
    assert play.session.game.dice.draws > draws


def test_the_dff_prompt_shows_no_concealed_firers_hex_to_a_looking_mover(app, tmp_path):
    """Without strict hotseat the moving player may see the prompt: a concealed firer's hex is
    left out of its button (a visible firer's hex tells two of a name apart)."""
    play, tank = _dff_setup(app, tmp_path)
    prompt = app.scene
    firer = play.session.game.units["ger-pz4-1"]
    assert f"in {firer.label}" in prompt.buttons["ger-pz4-1"].text
    prompt.leave()
    firer.concealed = True
    play.session.refresh()  # the state changed by hand, not by an action
    prompt.enter()
    assert f"in {firer.label}" not in prompt.buttons["ger-pz4-1"].text
    prompt.leave()
    app.prefs.strict_hotseat = True  # a handover came first: the defender alone looks
    prompt.enter()
    assert f"in {firer.label}" in prompt.buttons["ger-pz4-1"].text


def test_strict_hotseat_after_a_dff_shot_the_shooter_sees_it_and_the_mover_keeps_its_selection(
    app, tmp_path
):
    """From a newcomer's trial: after the defender's shot the handover came at once (the
    shooter never saw how it went), and the moving player found its vehicle deselected."""
    app.prefs.strict_hotseat = True
    play, tank = _dff_setup(app, tmp_path, until=Handover)
    assert isinstance(app.scene, Handover) and app.scene.then_dff
    click(app, (640, 400))
    assert isinstance(app.scene, DffPrompt)
    key(app, pygame.K_1, "1")  # fire
    handover = app.scene
    assert isinstance(handover, Handover) and handover.side == "russian"
    banner = play.map.state.banner
    assert banner is not None and banner.at == play.session.game.actions_applied
    app.frame(0.016)
    with_shot = pygame.image.tobytes(app.screen, "RGB")
    play.map.state.banner = None
    app.frame(0.016)
    assert pygame.image.tobytes(app.screen, "RGB") != with_shot  # its line is drawn there
    play.map.state.banner = banner
    if tank.active and play.session.game.moving_unit == tank.id:
        click(app, (640, 400))
        assert play.viewer == "russian" and play.map.state.selected == tank.id


def test_ctrl_q_goes_back_to_the_start_screen_and_resume_opens_the_game_again(app, tmp_path):
    """There was no way from a game back to the start screen (Esc and Ctrl+Q did nothing)."""
    play = start(app)
    clear_overlays(app, play)
    path = play.session.path
    key(app, pygame.K_q, "\x11", mod=pygame.KMOD_CTRL)
    assert isinstance(app.scene, StartScene)
    from game.files.lock import lock_path

    assert not lock_path(path).exists()  # released: Resume may open it here
    from game.ui.scenes.opening import open_path

    open_path(app, path, in_place=True)
    app.pump([])
    assert any(isinstance(s, PlayScene) and s.session.path == path for s in app.scenes)


def test_the_side_panel_says_each_marker_in_words(app):
    """ "status: ?", "ID A", "MOT" were not understood: the side panel spells them out."""
    from game.ui.map.counters import marker_words

    unit = {
        "side": "german",
        "motion": True,
        "concealed": True,
        "acquisition": ["A", 1, "F4", "rus-t34-1", False],
    }
    words = marker_words(unit, "german")
    assert "in Motion" in words and any(w.startswith("concealed") for w in words)
    assert "ID A: it acquired a target, its -1A Acquired counter on F4 (C6.5)" in words


def test_a_log_line_begins_with_a_capital(app):
    """ "german passes", "german may Defensive First Fire": a side's name starts the line."""
    from game.engine.events import Event
    from game.ui.panel.log import event_html

    assert event_html(Event("pass", "german passes")).startswith("German passes")


def test_hovering_a_rule_id_in_the_odds_panel_shows_its_title_and_plain_words(app, tmp_path):
    """The odds stay up while the mouse moves into the side panel; over a line citing a rule
    (the Basic TK#'s C7.31) a box shows the id, its title and its plain line, drawn on the
    screen (its pixels) and built from the rule index."""
    from tools_docs import build_duel

    from game.rules.rule_index import explain, rule_plain
    from game.ui.panel.parts import SPOTS

    play = PlayScene(resume(build_duel(tmp_path / "duel.json")), "duel")
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    select(app, play, "ger-pz4-1")
    target = play.session.game.units["rus-t34-2"]
    hover(app, play.map.camera.hex_to_screen(target.hex))
    app.pump([])
    spot = next(rect for rect, ids in SPOTS if "C7.31" in ids)
    hover(app, spot.center)  # into the side panel: the odds are still drawn
    app.pump([])
    assert play.map.hover_odds() is not None
    assert any("C7.31" in ids for _, ids in SPOTS)
    tip = (spot.centerx - 200, spot.centery + 20)  # inside the box, left of and below the mouse
    assert app.screen.get_at(tip)[:3] == (16, 18, 22)
    assert rule_plain()["C7.31"] in explain("C7.31")


def test_rd17_the_dff_prompt_shows_the_odds_of_the_ammunition_its_shot_fires(app, tmp_path):
    """Found in play (issue 38): the prompt showed AP's odds with APCR chosen, and the shot went
    off as APCR with its availability die: every figure shown is the shot a click fires."""
    play, tank = _dff_setup(app, tmp_path)
    prompt = app.scene
    assert isinstance(prompt, DffPrompt)
    defender = play.session.table("german")
    mover = defender.moving_unit or ""
    ap = defender.odds("ger-pz4-1", mover, "AP").report
    apcr = defender.odds("ger-pz4-1", mover, "APCR").report
    assert ap != apcr
    play.map.state.ammo["ger-pz4-1"] = "APCR"
    prompt.leave()
    prompt.enter()
    shown = prompt.odds["ger-pz4-1"]
    assert not isinstance(shown, str) and shown.report == apcr
    before = len(play.session.game.history)
    key(app, pygame.K_1, "1")
    new = play.session.game.history[before:]
    assert new[0].kind == "ammo" and "APCR availability" in new[0].text  # the APCR shot (RD-17)


def test_end_phase_while_a_vehicle_is_moving_says_why_and_asks_nothing(app):
    """Found in a trial: with a vehicle mid-move, E asked "End the Movement Phase? (Enter:
    end it)" and Enter was then refused. The engine refuses it (a moving vehicle ends its
    move first): the bar says so at once, with no question before."""
    play, mover = start_a_move(app)
    assert play.session.game.units[mover].moving
    key(app, pygame.K_e, "e")
    assert play.dialogs.confirm is None
    assert "end its move first" in play.map.state.message
    assert play.session.game.phase == "movement"


def test_c6_17_a_move_stopped_for_defensive_first_fire_keeps_saying_how_to_go_on(app):
    """Found in a trial against the computer: a path's move stopped at a Defensive First Fire
    chance, the computer let it go, and the bar went back to "Select a vehicle...": nothing
    said that one click on the path's end goes on. The hint says so while the mover waits."""
    from game.ui.panel.frame import hint

    play, mover = start_a_move(app)
    assert play.session.game.units[mover].moving
    assert "click" not in hint(play.map) or "again" not in hint(play.map)
    play.map.state.route_on = (mover, "A1")  # as Orders.follow leaves it when it stops
    said = hint(play.map)
    assert "click A1 again to go on" in said and "C6.17" in said
    perform(app, play, EndMove(mover, False))
    while isinstance(app.scene, DffPrompt):
        perform(app, play, Pass())
    assert "again" not in hint(play.map)  # the move ended: the usual hint
