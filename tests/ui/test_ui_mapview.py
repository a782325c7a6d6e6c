"""The one map view (game/ui/map/view.py), shared by the play screen and the replay viewer:
markers stay inside their hex, a wreck is drawn, the Acquired counter lies on its Location
(C6.5), the replay shows each shot's banner as it steps over it, the tracking labels stay on
the map, a Resume opens where its window was, and nothing in the screen reads the engine's
internals (only its knowledge)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pygame
import pytest
from ui_driver import clear_overlays, key

from game.engine.table import Snapshot
from game.files.savegame import read_save
from game.files.shipped import scenarios_dir
from game.files.timeline import Timeline
from game.ui.map.counters import draw_acquired, draw_counter, draw_markers
from game.ui.map.geometry import hex_corners
from game.ui.map.render import draw_wreck
from game.ui.play.screen import PlayScene
from game.ui.replay.viewer import WatchScene
from game.ui.scenes.routes import Push, Start, Watch

UI = Path(__file__).resolve().parents[2] / "game" / "ui"


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def _inside_hex(surface: pygame.Surface, cx: float, cy: float, z: int) -> tuple[int, int]:
    """(pixels drawn, pixels drawn outside the hex of radius ``z`` at (cx, cy))."""
    alpha = pygame.surfarray.pixels_alpha(surface).T.copy()  # [y, x]
    ys, xs = np.nonzero(alpha)
    poly = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    pygame.draw.polygon(poly, (255, 255, 255, 255), hex_corners(cx, cy, z + 1))
    inside = pygame.surfarray.pixels_alpha(poly).T.copy()
    return len(xs), int((inside[ys, xs] == 0).sum())


EVERY_MARKER = {
    "id": "ger-pz4-1",
    "side": "german",
    "hex": "E5",
    "type": "pz4h",
    "name": "PzKpfw IVH",
    "category": "afv",
    "facing": 2,
    "turret": 2,
    "has_gun": True,
    "immobilized": True,
    "shock": "shock",
    "motion": True,
    "ce": True,
    "concealed": True,
    "bore_sight": "F5",
    "fired": True,
    "moved": True,
    "acquisition": ["A", 1, "F6", "rus-t34-1", False],
}


@pytest.mark.parametrize("z", [20, 25, 31, 46, 68])
def test_a_counters_markers_never_leave_its_hex(app, z):
    """Every marker chip ("FIREDWRECK", "FIRE" over the next counter's name, "ACQ" cut off)
    is laid on the counter inside its own hex, however many there are."""
    surface = pygame.Surface((400, 400), pygame.SRCALPHA)
    cx, cy = 200, 200
    rect = draw_counter(surface, EVERY_MARKER, cx, cy, z)
    draw_markers(surface, EVERY_MARKER, rect, z, "german", (cx, cy))
    drawn, outside = _inside_hex(surface, cx, cy, z)
    assert drawn > 0 and outside == 0


@pytest.mark.parametrize("z", [20, 31, 68])
def test_a_wreck_under_a_counter_is_drawn_in_the_foot_of_its_hex_well_inside_it(app, z):
    """A wreck under a counter is a drawn hull (not a text label) at the foot of its hex,
    clear of the counter there, its count on it, and well inside the hex's edge: drawn at the
    very foot it read as in the hex below (issue 38)."""
    surface = pygame.Surface((400, 400), pygame.SRCALPHA)
    draw_wreck(surface, 200, 200, z, 2, under_counter=True)
    drawn, outside = _inside_hex(surface, 200, 200, z)
    assert drawn > 0 and outside == 0
    alpha = pygame.surfarray.pixels_alpha(surface).T
    ys, _ = np.nonzero(alpha)
    counter_bottom = 200 + int(z * 1.15) // 2
    assert ys.min() >= counter_bottom - 3  # below the counter: both stay visible
    assert ys.max() <= 200 + 0.8 * z  # the hex's foot is 0.87 z below its centre


@pytest.mark.parametrize("z", [20, 31, 68])
def test_a_wreck_alone_in_its_hex_is_drawn_in_its_middle(app, z):
    surface = pygame.Surface((400, 400), pygame.SRCALPHA)
    draw_wreck(surface, 200, 200, z, 1)
    alpha = pygame.surfarray.pixels_alpha(surface).T
    ys, _ = np.nonzero(alpha)
    assert abs(ys.mean() - 200) <= 0.15 * z


def test_the_acquired_counter_lies_on_its_location_inside_the_hex(app):
    """C6.5: the Acquired counter is placed on the target's Location (it was drawn as a chip
    on the firer): "-1 Acq A", inside that hex."""
    for z in (25, 31, 68):
        surface = pygame.Surface((400, 400), pygame.SRCALPHA)
        draw_acquired(surface, ["A", 1, "F6", "rus-t34-1", False], 200, 200, z, "Pz IV")
        drawn, outside = _inside_hex(surface, 200, 200, z)
        assert drawn > 0 and outside == 0


def test_the_replay_viewer_is_a_controller_of_its_own_over_the_map_view():
    """It no longer subclasses the play screen (and switches off what it inherited)."""
    assert not issubclass(WatchScene, PlayScene)
    assert "game.ui.play" not in (UI / "replay" / "viewer.py").read_text()


def test_the_replay_shows_each_shots_banner_as_it_steps_over_it(app):
    """Stepping over a shot (Right) shows its dice and result on the map, as in play; the
    next step clears it; a jump shows none."""
    saved = read_save(scenarios_dir() / "saves" / "tutorial-duel-played.json")
    timeline = Timeline(saved)
    shots = [i for i, a in enumerate(saved.actions) if a["action"]["type"] == "fire"]
    app.go(Push(Watch(timeline, "duel", at=shots[0])))
    watch = app.scene
    assert isinstance(watch, WatchScene) and watch.map.state.banner is None
    key(app, pygame.K_RIGHT)
    banner = watch.map.state.banner
    assert banner is not None and banner.text.startswith(("HIT", "MISS"))
    app.pump([])
    frame = app.screen.copy()
    key(app, pygame.K_RIGHT)
    assert watch.map.state.banner is None or watch.at - 1 in shots
    key(app, pygame.K_HOME)
    assert watch.map.state.banner is None
    assert frame.get_size() == app.size


def test_the_tracking_labels_stay_on_the_map_near_its_edges(app):
    """All the labels of a moving vehicle flip together at the map's edge and never run off
    it (two of three were cut at the left edge of a 960 x 640 replay)."""
    saved = read_save(scenarios_dir() / "saves" / "road-ambush-played.json")
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=960, h=640, size=(960, 640)))
    timeline = Timeline(saved)
    at = next(  # the first moment a vehicle moves in two firers' sight
        n
        for n in range(timeline.length)
        if (t := Snapshot(timeline.game_at(n)).table(None).tracking()) and len(t.rows) >= 2
    )
    app.go(Push(Watch(timeline, "ambush", at=at)))
    watch = app.scene
    tracking = watch.map.knows().tracking()
    assert tracking is not None and len(tracking.rows) >= 2
    watch.map.center_on(tracking.hex)
    m = watch.map.rect
    for dx in (-400, 0, 400):  # the mover near the left edge, in the middle, near the right
        watch.map.camera.pan(dx, 0)
        sx, _ = watch.map.camera.hex_to_screen(watch.map.table.board.parse(tracking.hex))
        if not m.left < sx < m.right:
            watch.map.camera.pan(-dx, 0)
            continue
        surface = pygame.Surface(app.size)
        surface.fill((0, 0, 0))
        watch.map._draw_tracking(surface)
        box = (40, 30, 20)
        px = pygame.surfarray.pixels3d(surface)
        xs = np.nonzero(np.all(px == box, axis=2))[0]
        assert len(xs) and xs.min() >= m.left and xs.max() < m.right
        watch.map.camera.pan(-dx, 0)


def test_resume_opens_where_its_window_was_zoom_centre_and_selection(app, tmp_path):
    """Resume kept neither the zoom nor the selection: the game reopens as it was left."""
    from game.files.scenario import load_scenario
    from game.files.session import new_game, resume
    from game.ui.scenes.opening import close_sessions

    sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    path = app.save_dir / "bagration.json"
    session = new_game(sc, 3, path)
    play = PlayScene(session, sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    side = play.viewer
    own = [u for u in play.map.units() if u["side"] == side]
    play.map.state.selected = own[-1]["id"]
    play.map.camera.zoom_step(2, *play.map.rect.center)
    play.map.center_on(own[-1]["hex"])
    zoom, world = play.map.camera.zoom, play.map.camera.screen_to_world(*play.map.rect.center)
    close_sessions(app)  # what closing the window does, then the preferences are saved
    app.prefs.save()

    from game.ui.prefs import Prefs

    app.prefs = Prefs.load()
    app.go(Push(Start()))
    again = PlayScene(resume(path), sc.title)
    app.push(again)
    app.pump([])
    clear_overlays(app, again)
    assert again.map.camera.zoom == zoom
    now = again.map.camera.screen_to_world(*again.map.rect.center)
    assert abs(now[0] - world[0]) < 0.01 and abs(now[1] - world[1]) < 0.01
    assert again.map.state.selected == own[-1]["id"]


def test_a_damaged_remembered_view_is_ignored(data_dir):
    """The views kept in prefs.json are read as hostile input: a bad entry is dropped."""
    import json

    from game.ui.prefs import MAX_VIEWS, Prefs

    data_dir.mkdir(parents=True, exist_ok=True)
    good = {"zoom": 31, "center": [3.0, 4.5], "viewer": "german", "selected": None}
    views = {f"/g/{i}.json": good for i in range(MAX_VIEWS + 5)}
    views["/bad/nan.json"] = {**good, "center": [float("nan"), 1]}
    views["/bad/zoom.json"] = {**good, "zoom": "31"}
    views["/bad/name.json"] = {**good, "selected": "x" * 65}
    (data_dir / "prefs.json").write_text(json.dumps({"views": views}))
    prefs = Prefs.load()
    assert len(prefs.views) <= MAX_VIEWS
    assert not any(k.startswith("/bad/") for k in prefs.views)


# the engine's internals: its unit records and its state (the knowledge door is the way in)
INTERNALS = re.compile(r"\.units\[|\.units\.values\(|\.units\.get\(|\bgame\.state\b|\.state\.units")


def test_the_screen_reads_the_engines_knowledge_never_its_internals():
    """Nothing in game/ui reads ``game.units`` or ``game.state``: what a side is shown comes
    from the side's table, the benchmark drivers included."""
    offenders = []
    for path in sorted(UI.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if INTERNALS.search(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


def _duel(app, viewer_first=True):
    from game.files.scenario import load_scenario
    from game.files.session import new_game

    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    session = new_game(sc, 7, None)
    play = PlayScene(session, sc.title, viewer=session.game.to_act if viewer_first else None)
    app.push(play)
    app.pump([])
    return play


def test_the_set_up_area_shows_before_a_unit_is_picked(app):
    """The hint said "drag counters within the green area" while no area was green until a
    unit was selected (a newcomer's trial): the side's whole area shows, lighter."""
    play = _duel(app)
    assert play.map.setting_up() and play.map.state.selected is None
    area = play.session.game.setup_area(play.viewer)
    assert area
    inside = next(h for h in area if not play.map.units_at(h))
    outside = next(
        label
        for label in (f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 9))
        if label not in area and not play.map.units_at(label)
    )
    play.map.state.hover_hex = None
    app.pump([])

    def green(hx):
        x, y = play.map.camera.hex_to_screen(play.session.game.board.parse(hx))
        r, g, b, *_ = app.screen.get_at((int(x) + 5, int(y) + 10))
        return g - (r + b) / 2

    assert green(inside) > green(outside) + 8


def test_an_overlays_legend_keeps_off_the_counters(app):
    """The legend sat over A1-D1 and the units there: it takes a corner free of counters."""
    play = _duel(app)
    play.map.analysis.overlay = "viewshed"
    m = play.map.rect
    cam = play.map.camera
    first = play.map.units()[0]
    x, y = cam.hex_to_screen(play.session.game.board.parse(first["hex"]))
    cam.pan(m.left + 60 - x, m.top + 40 - y)  # a counter under the top left corner
    legend = play.map.analysis.legend_rect(m)
    for u in play.map.units():
        x, y = cam.hex_to_screen(play.session.game.board.parse(u["hex"]))
        assert not legend.inflate(cam.zoom, cam.zoom).collidepoint(x, y)


def test_the_odds_panels_long_lines_wrap_inside_it(app):
    """A long derivation line was cut at the panel's edge: it wraps, indented."""
    from game.ui.map.render import FONTS
    from game.ui.panel.parts import wrap

    font = FONTS.get(15)
    text = "  +4 Case J2 C6.12  1 MP in the firer's LOS (<= 1): Limited Aim, and a long tail"
    lines = wrap(text, font, 200)
    assert len(lines) > 1 and all(font.size(line)[0] <= 200 for line in lines)
    assert " ".join(p.strip() for p in lines) == " ".join(text.split())
    assert all(line.startswith("      ") for line in lines[1:])


def test_the_phase_bar_fits_beside_the_end_phase_button_at_960(app):
    """At 960 x 640 "... Defensive First Fire (C6.17)" ran under the End Phase button."""
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=960, h=640, size=(960, 640)))
    play = _duel(app)
    play.session.game.state.dff_pending = ("x",)  # the longest bar: a Defensive First Fire
    play.map.refresh()
    surface = pygame.Surface(app.size)
    surface.fill((0, 0, 0))
    from game.ui.panel import frame

    bar = play.rects()["bar"]
    frame.draw_bar(play.map, surface, bar)
    play.session.game.state.dff_pending = ()
    button = play.buttons["end_phase"].rect
    px = pygame.surfarray.pixels3d(surface)[button.left - 8 : button.right, 4:26]
    panel = np.array(surface.get_at((bar.right - 2, 2))[:3])
    assert np.all(np.abs(px.astype(int) - panel).sum(axis=2) < 30)


def test_an_empty_log_says_what_it_will_hold(app):
    """A new game's log box was blank: it says what will appear there."""
    play = _duel(app)
    assert "every die roll" in play.log_box.html_text


class _Session:
    """The play screen's door over a game built in a test (no file)."""

    path = None
    save_error = None
    lesson = None

    def __init__(self, game):
        from types import SimpleNamespace

        self.game = game
        self.saved = SimpleNamespace(actions=[], computer=None)

    def apply(self, action):
        return self.game.apply(action)

    def undo(self):
        return "no undo here"

    def save_as(self, path):
        raise OSError("not here")


def test_selecting_a_unit_that_cannot_move_says_why_rd12(app):
    """A unit that fired in Prep Fire showed no blue hex and no word why (a newcomer's trial):
    selecting it in the Movement Phase gives the engine's reason."""
    from engine_helpers import make_setup, script, to_phase
    from ui_driver import click_hex

    from game.engine import Game, UnitSetup
    from game.engine.actions import Fire

    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "C2", facing=3),
        UnitSetup("rus-tank-2", "t34m43", "russian", "E2", facing=3),
    ]
    game = Game(make_setup(units, first="russian"), 1)
    to_phase(game, "prep_fire", "russian")
    script(game, 6, 6, 6, 6)
    game.apply(Fire("rus-tank-1", "ger-gun-1"))
    to_phase(game, "movement", "russian")
    play = PlayScene(_Session(game), "test", viewer="russian")
    app.push(play)
    app.pump([])
    click_hex(app, play, "C2")
    assert play.map.state.selected == "rus-tank-1"
    message = play.map.state.message
    assert "cannot move" in message and "RD-12" in message
    click_hex(app, play, "E2")  # one that can move: no such word
    assert play.map.state.selected == "rus-tank-2" and play.map.state.message == ""


def test_a_set_up_click_never_tries_every_placement(app, monkeypatch):
    """Each set-up click on a 200-unit map froze the window 2.4-5.1 s: it listed every legal
    action (every hex of every unit's area). Selecting and dragging a counter now asks the
    engine only which units may be placed (``Game.placeable``) and the one placement made;
    ``hexfire bench render`` times it (setup_click_worst_ms). The HX-15 question asked after
    the placement (may the side do anything but end the phase?) stops at its first legal
    candidate too: it had listed them all (about 0.3 s a click on that map); so does Tab
    (1.2-1.8 s there)."""
    from ui_driver import click_hex, hex_pos, key

    import game.engine.game as engine_game
    from game.engine import Game

    play = _duel(app)
    own = [u for u in play.map.units() if u["side"] == play.viewer]
    unit = next(u for u in own if u["id"] in play.session.game.placeable())

    def forbidden(self):
        raise AssertionError("a set-up click listed every legal action")

    def listed(*_args, **_kwargs):
        raise AssertionError("a set-up click listed every candidate action")

    monkeypatch.setattr(Game, "legal_actions", forbidden)
    monkeypatch.setattr(engine_game, "legal", listed)
    assert app.prefs.auto_pass  # the HX-15 question is asked after each action
    click_hex(app, play, unit["hex"])
    assert play.map.state.selected == unit["id"]
    area = play.session.game.setup_hexes(unit["id"])
    dst = next(h for h in area if not play.map.units_at(h) and h != unit["hex"])
    src = hex_pos(play, unit["hex"])
    to = tuple(int(v) for v in play.map.camera.hex_to_screen(play.session.game.board.parse(dst)))
    for event in (
        pygame.event.Event(pygame.MOUSEMOTION, pos=src, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=src, button=1),
        pygame.event.Event(pygame.MOUSEMOTION, pos=to, rel=(1, 1), buttons=(1, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=to, button=1),
    ):
        app.handle(event)
    app.frame(0.016)
    assert play.map.unit(unit["id"])["hex"] == dst
    key(app, pygame.K_TAB)  # the next unit with a set-up choice, no placement listed
    assert play.map.state.selected in play.session.game.setup_choices()
    assert play.map.state.selected != unit["id"] or len(play.session.game.setup_choices()) == 1


def test_a_long_open_shows_its_progress_and_the_window_keeps_answering(app):
    """Replaying a long save froze the window (21 s on "Replay a save...", an 11 s black
    window for a 200,000-action save): the work runs off the window's thread, the window
    draws its progress, answers a close, and shows the screen when it is done."""
    import threading

    from game.ui.scenes.loading import LoadingScene
    from game.ui.scenes.routes import Opening, Start

    go_on = threading.Event()

    def work(progress):
        progress.now("Replaying the game, every roll checked")
        progress.step(120, 2000)
        assert go_on.wait(10)
        return Push(Start())

    app.go(Push(Opening("A long game", work)))
    loading = app.scene
    assert isinstance(loading, LoadingScene)
    for _ in range(3):
        app.frame(0.016)  # frames while the work waits: nothing blocks
    assert app.scene is loading and loading.animating()
    # the bar is drawn 15 times a second, not 60: each frame is time the worker does not
    # have (one interpreter lock; the 200,000-action save opened 12% faster)
    assert app.frame_rate() == 15
    shown = app.screen.copy()
    assert shown.get_at((app.size[0] // 2 - 260 + 2, app.size[1] // 2 + 28)) != shown.get_at(
        (app.size[0] // 2 + 250, app.size[1] // 2 + 28)
    )  # the bar: 6% done
    app.handle(pygame.event.Event(pygame.QUIT))
    assert not app.running  # closing answers at once
    go_on.set()
    loading.wait_done()
    app.frame(0.016)
    from game.ui.start.screen import StartScene

    assert isinstance(app.scene, StartScene)
    assert app.frame_rate() == 60


def test_a_file_that_fails_to_open_says_why_over_the_start_screen(app, tmp_path):
    """Opened from the command line with nothing below: the start screen, and the reason."""
    from game.files.savegame import SaveError
    from game.ui.scenes.routes import Opening
    from game.ui.start.screen import StartScene

    def work(progress):
        raise SaveError("broken.json: not a hexfire save")

    app.go(Push(Opening("broken", work)))
    app.pump([])
    assert isinstance(app.scene, StartScene)
    texts = [
        getattr(getattr(w, "text_block", None), "html_text", "")
        for w in app.ui.get_window_stack().stack
    ]
    assert any("broken.json: not a hexfire save" in t for t in texts)


def test_the_ammunition_chosen_stays_chosen_across_turns_and_handovers(app):
    """ "Ammunition silently resets to AP next turn": the choice (r) is the side's until it
    chooses again or the unit is out of that round (RD-17)."""
    from ui_driver import clear_overlays, perform, select

    from game.engine.actions import EndPhase

    play = _duel(app, viewer_first=False)
    clear_overlays(app, play)
    side = play.viewer
    tank = next(u for u in play.map.units() if u["side"] == side and len(u.get("ammo", [])) > 1)
    select(app, play, tank["id"])
    key(app, pygame.K_r, "r")
    chosen = play.map.state.ammo.get(tank["id"])
    assert chosen and chosen != tank["ammo"][0]
    for _ in range(16):  # a whole game turn of both sides, handovers included
        clear_overlays(app, play)
        if play.session.game.turn >= 2 and play.viewer == side:
            break
        if play.session.game.dff_pending:
            key(app, pygame.K_SPACE, " ")
            continue
        perform(app, play, EndPhase())
    assert play.session.game.turn >= 2 and play.viewer == side
    assert play.map.chosen_ammo(tank["id"]) == chosen


def test_f1_turns_to_the_words_of_the_game_and_any_other_key_closes(app):
    """F1 was a key table only: Right turns to the glossary (every term the screen shows, from
    game/rules/data/glossary.toml), Left back, any other key closes."""
    from game.rules.glossary import glossary
    from game.ui.overlays.scenes import HelpScene

    play = _duel(app)
    key(app, pygame.K_F1)
    help_scene = app.scene
    assert isinstance(help_scene, HelpScene) and help_scene.page == 0
    key(app, pygame.K_RIGHT)
    assert help_scene.page == 1 and app.scene is help_scene
    box = help_scene._box(app.size)
    shown = {term for page in help_scene.word_pages(box) for term, _ in page if term}
    assert shown == set(glossary()) and {"gold entry", "hull ch / turret ch"} <= shown
    key(app, pygame.K_LEFT)
    assert help_scene.page == 0
    key(app, pygame.K_x, "x")
    assert app.scene is play


def test_the_odds_panel_answers_first_in_words_and_the_facing_is_a_direction(app):
    """The odds panel's first line says it in words; a facing is a compass direction."""
    from game.engine.knowledge import ShotOdds
    from game.ui.panel.parts import facing_words, odds_headline

    seen = ShotOdds({"to_hit": {"p_hit": 0.42}}, None)
    assert odds_headline(seen).startswith("42% to hit; what a hit does is unknown")
    from engine_helpers import make_setup

    from game.engine import Game, UnitSetup

    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "C2", facing=3),
    ]
    shot = Game(make_setup(units), 1).knowledge("german").odds("ger-gun-1", "rus-tank-1")
    assert odds_headline(shot) == (
        f"{100 * shot.p_hit:.0f}% to hit, {100 * shot.p_kill:.0f}% to knock it out "
        "(burn or eliminate)"
    )
    assert facing_words(0) == "south-east (hexside 0)" and facing_words(2).startswith("north")


def test_units_that_can_still_act_carry_a_green_dot(app):
    """A newcomer could not tell which units were still to move or fire: those of the side at
    the screen that can carry a dot; the enemy's and the done ones carry none."""
    from ui_driver import clear_overlays, perform

    from game.engine.actions import EndMove, EndPhase, Move
    from game.ui.map.counters import CAN_ACT

    play = _duel(app, viewer_first=False)
    for _ in range(12):
        clear_overlays(app, play)
        if play.session.game.phase == "movement" and play.viewer == play.session.game.to_act:
            break
        perform(app, play, EndPhase())
    acting = play.can_act()
    assert acting and all(play.map.unit(u)["side"] == play.viewer for u in acting)
    app.pump([])
    cam, z = play.map.camera, play.map.camera.zoom

    def dot(unit_id):
        x, y = cam.hex_to_screen(play.session.game.board.parse(play.map.unit(unit_id)["hex"]))
        size = int(z * 1.15)
        r = max(3, z // 9)
        at = (int(x) - size // 2 + r // 2, int(y) - size // 2 + r // 2)  # its upper left
        return tuple(app.screen.get_at(at))[:3] == CAN_ACT

    mover = sorted(acting)[0]
    assert dot(mover)
    enemy = next(u["id"] for u in play.map.units() if u["side"] != play.viewer)
    assert not dot(enemy)
    to = next(iter(play.session.game.move_costs(mover)))
    perform(app, play, Move(mover, to))
    clear_overlays(app, play)
    while play.session.game.dff_pending:
        key(app, pygame.K_SPACE, " ")
        clear_overlays(app, play)
    if play.session.game.moving_unit == mover:
        perform(app, play, EndMove(mover, False))  # it stops: done for this phase
    clear_overlays(app, play)
    while play.session.game.dff_pending:
        key(app, pygame.K_SPACE, " ")
        clear_overlays(app, play)
    if play.viewer == play.session.game.to_act:
        assert mover not in play.can_act()
