"""The analysis tools by posted events: the LOS thread agrees with ``hexfire los``, the viewshed
shades what the board's viewshed returns, a threat-map hex is 1 - the product of its shots'
survival odds, and the replay viewer steps to the same states as a headless replay."""

from __future__ import annotations

import copy
import json

import pygame
import pytest
from ui_driver import click, hover, key, post

from game.board.los import los
from game.cli import main
from game.files.replay import replay
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game, resume
from game.files.shipped import scenarios_dir, shipped_saves
from game.files.timeline import Timeline
from game.ui.map.analysis import viewshed
from game.ui.play.screen import PlayScene
from game.ui.replay.viewer import WatchScene


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def _duel_scene(app, tmp_path) -> PlayScene:
    from tools_docs import build_duel

    play = PlayScene(resume(build_duel(tmp_path / "duel.json")), "duel")
    play.map.state.viewer = play.session.game.to_act
    app.push(play)
    while len(app.scenes) > 1:
        app.pop()
    app.pump([])
    return play


def _pos(play, hx):
    return tuple(int(v) for v in play.map.camera.hex_to_screen(play.session.game.board.parse(hx)))


@pytest.mark.parametrize(("a", "b"), [("C4", "E3"), ("A1", "L4"), ("C4", "L7"), ("F8", "E6")])
def test_the_los_thread_is_what_hexfire_los_prints(app, tmp_path, capsys, a, b):
    play = _duel_scene(app, tmp_path)
    key(app, pygame.K_l, "l")
    post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=_pos(play, a), button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=_pos(play, b), rel=(1, 1), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=_pos(play, b), button=1),
    )
    app.pump()
    thread = play.map.analysis.thread
    assert thread is not None
    capsys.readouterr()
    assert main(["los", "tutorial-duel", a, b, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert thread.to_dict() == printed
    assert play.map.state.message == thread.summary()
    key(app, pygame.K_ESCAPE)
    assert play.map.analysis.thread is None


def test_the_thread_covers_clear_hindered_and_blocked():
    from game.ui.map.analysis import thread_segments

    board = load_scenario(scenarios_dir() / "tutorial-duel.toml").setup.board
    kinds = set()
    for a, b in [("C4", "E3"), ("F8", "E6"), ("C4", "L7"), ("D8", "F7")]:
        result = los(board, board.parse(a), board.parse(b))
        kinds |= {state for _, _, state in thread_segments(result)}
    assert kinds == {"clear", "hindered", "blocked"}


def test_the_viewshed_overlay_shades_exactly_the_boards_viewshed(app, tmp_path):
    play = _duel_scene(app, tmp_path)
    play.map.state.selected = "ger-pz4-1"
    key(app, pygame.K_v, "v")
    assert play.map.analysis.overlay == "viewshed"
    seen, hindered, blocked = viewshed(play.session.game, "C4")
    board = play.session.game.board
    clear, hind = play.session.game.state.visibility.viewshed(board.index(board.parse("C4")))
    for j in range(board.size):
        h = board.hex_at(j)
        assert (h in blocked) == (not clear[j])
        assert (h in hindered) == (bool(clear[j]) and bool(hind[j]))
    # on screen: a blocked hex is darker with the overlay than without
    target = next(
        h for h in blocked if play.rects()["map"].collidepoint(play.map.camera.hex_to_screen(h))
    )
    x, y = (int(v) for v in play.map.camera.hex_to_screen(target))
    shaded = app.screen.get_at((x + 5, y + 12))
    key(app, pygame.K_v, "v")
    plain = app.screen.get_at((x + 5, y + 12))
    assert sum(shaded[:3]) < sum(plain[:3])


def test_a_threat_map_hex_is_one_minus_the_product_of_its_shots(app, tmp_path):
    play = _duel_scene(app, tmp_path)
    play.map.state.selected = "ger-pz4-1"
    key(app, pygame.K_t, "t")
    threats = play.map.analysis.threats()
    assert threats
    hx, t = max(threats.items(), key=lambda kv: len(kv[1].threats))
    # the same shots from preview_fire, with the vehicle standing there
    game = copy.deepcopy(play.session.game)
    tank = game.units["ger-pz4-1"]
    tank.hex = game.board.parse(hx)
    survive = 1.0
    for shot in t.threats:
        odds = game.preview_fire(shot.firer, tank.id, shot.ammo)
        survive *= 1.0 - (odds.p["burn"] + odds.p["eliminated"] + odds.p["abandoned"])
    assert t.p_kill == pytest.approx(1.0 - survive)  # RD-18: removed from play
    hover(app, _pos(play, hx))
    assert play.map.analysis.side_lines()[0].startswith(f"{hx}: {100 * t.p_kill:.1f}%")


def test_the_fire_map_labels_each_enemy_with_the_odds_panels_number(app, tmp_path):
    from game.ui.map.analysis import fire_map

    play = _duel_scene(app, tmp_path)
    play.map.state.selected = "ger-pz4-1"
    key(app, pygame.K_f, "f")
    labels = fire_map(play.session.table("german"), "ger-pz4-1")
    odds = play.session.game.preview_fire("ger-pz4-1", "rus-t34-2")
    assert labels["rus-t34-2"][0] == pytest.approx(odds.p["burn"] + odds.p["eliminated"])


# --- the replay viewer ---------------------------------------------------------------------


def _watch(app, save_path, at=0) -> WatchScene:
    scene = WatchScene(Timeline(read_save(save_path)), "replay", at=at)
    app.push(scene)
    app.pump([])
    return scene


def test_the_viewer_steps_forward_and_back_to_the_replay_states(app):
    path = next(p for p in shipped_saves() if "road-ambush" in p.name)
    saved = read_save(path)
    scene = _watch(app, path)
    for n in range(1, 30):
        key(app, pygame.K_RIGHT)
        assert scene.at == n
        assert scene.snapshot.game.state_hash() == saved.actions[n - 1]["hash"]
    for _ in range(10):
        key(app, pygame.K_LEFT)
    assert scene.snapshot.game.state_hash() == replay(saved, to=19).state_hash()
    key(app, pygame.K_END)
    assert scene.snapshot.game.state_hash() == saved.actions[-1]["hash"]
    key(app, pygame.K_HOME)
    assert scene.at == 0


def test_a_jump_to_a_turn_lands_on_its_first_action(app):
    path = next(p for p in shipped_saves() if "hedgerow" in p.name)
    scene = _watch(app, path)
    starts = [s for s, _, _ in scene.timeline.turn_starts]
    key(app, pygame.K_PAGEDOWN)
    assert scene.at == starts[0]
    key(app, pygame.K_PAGEDOWN)
    assert scene.at == starts[1]
    key(app, pygame.K_PAGEUP)
    assert scene.at == starts[0]
    phase_events = [e for e in scene.timeline.events[starts[0] - 1] if e.kind == "phase"]
    assert phase_events[-1].data["phase"] == "rally"


def test_the_viewer_shows_both_sides_then_one(app):
    path = next(p for p in shipped_saves() if "road-ambush" in p.name)
    scene = _watch(app, path, at=10)
    assert all(u.get("type") != "?" for u in scene.map.units())
    key(app, pygame.K_TAB)
    assert scene.viewer is not None
    hidden = [u for u in scene.map.units() if u.get("type") == "?"]
    assert all(u["side"] != scene.viewer for u in hidden)


def test_a_save_that_does_not_verify_opens_up_to_its_last_good_action(app, tmp_path):
    path = next(p for p in shipped_saves() if "tutorial" in p.name)
    d = json.loads(path.read_text())
    d["actions"][12]["hash"] = "0" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    scene = _watch(app, bad, at=None)
    assert scene.at == 12 and scene.timeline.error and "actions[12]" in scene.timeline.error


def test_watch_screenshot_to_n(tmp_path):
    out = tmp_path / "w.png"
    path = next(p for p in shipped_saves() if "tutorial" in p.name)
    assert main(["watch", str(path), "--screenshot", str(out), "--to", "5"]) == 0
    assert out.stat().st_size > 1000


def test_the_playing_view_never_changes_the_game(app, tmp_path):
    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    play = PlayScene(new_game(sc, 3, None), "x")
    play.map.state.viewer = play.session.game.to_act
    app.push(play)
    while len(app.scenes) > 1:
        app.pop()
    before = play.session.game.state_hash()
    for k, u in ((pygame.K_v, "v"), (pygame.K_t, "t"), (pygame.K_f, "f"), (pygame.K_l, "l")):
        key(app, k, u)
    click(app, (300, 300))
    assert play.session.game.state_hash() == before


def test_replay_from_the_start_screen_and_a_bad_save(app, tmp_path):
    from game.ui.scenes.opening import watch_path
    from game.ui.start.screen import StartScene

    app.push(StartScene())
    app.pump([])
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    watch_path(app, bad)
    app.pump([])  # read off the window's thread: its error in a dialog over the start screen
    assert isinstance(app.scene, StartScene)
    dialogs = [w for w in app.ui.get_window_stack().stack if "bad.json" in _text(w)]
    assert dialogs and "Cannot replay" in dialogs[0].window_display_title
    good = next(p for p in shipped_saves() if "tutorial" in p.name)
    assert watch_path(app, good) is None
    app.pump([])  # the replay is built off the window's thread
    assert isinstance(app.scene, WatchScene)


def test_the_replay_turn_list_highlights_the_turn_shown(app):
    """Stepping or jumping the replay moves the turn list's highlight with it (it stayed on
    the turn clicked)."""
    from game.files.savegame import read_save
    from game.files.shipped import scenarios_dir
    from game.files.timeline import Timeline
    from game.ui.scenes.routes import Push, Watch

    saved = read_save(scenarios_dir() / "saves" / "road-ambush-played.json")
    timeline = Timeline(saved)
    app.go(Push(Watch(timeline, "ambush", at=0)))
    scene = app.scene

    def marked() -> list[int]:
        return [i for i, item in enumerate(scene.turn_list.item_list) if item["selected"]]

    assert marked() == []  # before the first player turn
    third = timeline.turn_starts[2][0]
    scene.seek(third)
    assert marked() == [2]
    scene.seek(third - 1)
    assert marked() == [1]


def test_the_replay_plays_on_its_clock_without_input(app):
    """Space plays the replay: the window keeps drawing frames with no mouse or key (it only
    advanced while the mouse moved), and the Play button then says Pause."""
    from game.files.savegame import read_save
    from game.files.shipped import scenarios_dir
    from game.files.timeline import Timeline
    from game.ui.scenes.routes import Push, Watch

    saved = read_save(scenarios_dir() / "saves" / "tutorial-duel-played.json")
    app.go(Push(Watch(Timeline(saved), "duel", at=0)))
    scene = app.scene
    assert not app.ui_animating()
    scene.command("play")
    assert app.ui_animating(), "a playing replay needs frames with no event"
    assert scene.buttons["play"].text.startswith("Pause")
    for _ in range(40):
        app.frame(0.1)
    assert scene.at > 0


def test_a_units_moved_marker_is_its_own_player_turn_only():
    """MOVED stayed on a tank through the enemy's player turn."""
    from game.ui.map.counters import unit_markers

    tank = {"id": "t", "side": "russian", "moved": True}
    assert "MOVED" in [t for t, _ in unit_markers(tank, "russian")]
    assert "MOVED" not in [t for t, _ in unit_markers(tank, "german")]


def test_play_at_the_end_of_a_replay_plays_it_again_and_the_button_follows(app):
    """Opened at its end (the default), Space plays from the start; when the replay reaches
    its end it stops and the button says Play again (it kept saying Pause)."""
    from game.files.savegame import read_save
    from game.files.shipped import scenarios_dir
    from game.files.timeline import Timeline
    from game.ui.replay.viewer import SPEEDS
    from game.ui.scenes.routes import Push, Watch

    saved = read_save(scenarios_dir() / "saves" / "tutorial-duel-played.json")
    app.go(Push(Watch(Timeline(saved), "duel")))
    scene = app.scene
    assert scene.at == scene.timeline.length
    scene.command("play")
    assert scene.playing and scene.at == 0
    scene.speed = len(SPEEDS) - 1  # the fastest
    for _ in range(400):
        app.frame(0.5)
        if not scene.playing:
            break
    assert not scene.playing and scene.at == scene.timeline.length
    assert scene.buttons["play"].text.startswith("Play")


def _text(window) -> str:
    """The text a pygame-gui message window shows."""
    box = getattr(window, "text_block", None)
    return getattr(box, "html_text", "") or ""
