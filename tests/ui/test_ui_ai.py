"""A human against the computer on the screen, by posted events only: the human's side driven
by a random legal policy through clicks and keys, the computer's by its own turn (no handover,
no prompt for its Defensive First Fire), to the end; the autosave names the computer and
replays to the same hash; Space hurries it, and the human cannot act in its stead."""

from __future__ import annotations

import random

import pygame
import pytest
from ui_driver import clear_overlays, key, perform, random_gesture

from game.ai.lookahead import PLANS
from game.engine.actions import EndPhase, Pass
from game.files.replay import replay
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game, resume
from game.files.shipped import shipped_scenarios
from game.ui.overlays.scenes import EndScene, Handover
from game.ui.panel.frame import hint
from game.ui.play.screen import PlayScene

QUICK = ("tutorial-duel", "hedgerow-chart", "lesson-7-duel")


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def computer_turns(app, play: PlayScene, limit: int = 400) -> None:
    """Let the computer play until the human is to act (each frame: its next action)."""
    for _ in range(limit):
        if not play.computer_acts() or not isinstance(app.scene, PlayScene):
            return
        app.pump([])


def versus(app, name: str, computer: str) -> tuple:
    """A new game of the shipped scenario ``name`` on the screen against the computer (level
    2) as ``computer``, with no pause between its actions: (session, play screen)."""
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == name))
    session = new_game(sc, 3, app.save_dir / "vs.json", {"side": computer, "level": 2})
    play = PlayScene(session, sc.title)
    play.computer_pause = 0.0
    app.push(play)
    app.pump([])
    return session, play


@pytest.mark.parametrize("human", [0, 1])
@pytest.mark.parametrize(
    "path",
    [
        p if p.stem in QUICK else pytest.param(p, marks=pytest.mark.playthrough)
        for p in shipped_scenarios()
        if not p.stem.startswith("lesson-") or p.stem in QUICK
    ],
    ids=lambda p: p.stem,
)
def test_a_human_plays_each_scenario_against_the_computer_to_its_end(app, path, human):
    sc = load_scenario(path)
    me = sc.setup.sides[human]
    other = sc.setup.sides[1 - human]
    level = 3 if path.stem in QUICK else 2  # the search's level where a game is quick
    session = new_game(sc, 13, app.save_dir / "vs.json", {"side": other, "level": level})
    play = PlayScene(session, sc.title)
    play.computer_pause = 0.0
    app.push(play)
    app.pump([])
    assert (
        play.viewer == me
        and play.session.computer is not None
        and play.session.computer.level == level
    )
    rng = random.Random(13)
    for _ in range(3000):
        computer_turns(app, play)
        assert not isinstance(app.scene, Handover), "no handover against the computer"
        clear_overlays(app, play)
        if isinstance(app.scene, EndScene) or play.session.game.over:
            break
        if play.computer_acts():
            continue
        assert play.session.game.to_act == me
        perform(app, play, random_gesture(app, play, rng))
    assert play.session.game.over
    saved = read_save(session.path)
    kept = dict(saved.computer or {})
    plan = kept.pop("plan", None)  # level 3: the plan of its last Movement Phase
    assert kept == {"side": other, "level": level}
    assert plan is None or (level == 3 and plan["side"] == other)
    assert replay(saved).state_hash() == play.session.game.state_hash()


def test_the_human_cannot_act_for_the_computer_and_space_hurries_it(app):
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel"))
    session = new_game(sc, 3, app.save_dir / "vs.json", {"side": "german", "level": 2})
    play = PlayScene(session, sc.title)
    play.computer_pause = 60.0  # it would wait a minute between actions
    app.push(play)
    app.pump([])
    assert play.computer_acts() and play.viewer == "russian"
    done = play.session.game.actions_applied
    assert not play.apply(EndPhase()) and "the computer (German) plays" in play.map.state.message
    key(app, pygame.K_SPACE, " ")  # Space: its next action now (a "thinking" frame, then it)
    app.pump([])
    app.pump([])
    assert play.session.game.actions_applied > done


def test_a_game_against_the_computer_resumes_with_the_computer(app):
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel"))
    session = new_game(sc, 3, app.save_dir / "vs.json", {"side": "russian", "level": 1})
    session.close()
    again = resume(app.save_dir / "vs.json")
    play = PlayScene(again, sc.title)
    assert play.session.computer is not None and play.session.computer.side == "russian"
    assert play.session.computer.level == 1 and play.viewer == "german"


def test_a_game_saved_in_level_3s_movement_phase_resumes_by_the_plan_it_began_with(app):
    """Level 3 chooses a plan at the start of its Movement Phase (docs/ai.md): the autosave
    keeps it, and the computer of the resumed game takes it up for that phase (the Russian,
    who must come on: the German defender waits, HX-11, its phase one action long)."""
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel"))
    path = app.save_dir / "vs.json"
    session = new_game(sc, 3, path, {"side": "russian", "level": 3})
    play = PlayScene(session, sc.title)
    play.computer_pause = 0.0
    app.push(play)
    app.pump([])
    rng = random.Random(3)
    for _ in range(400):
        if "plan" in (session.saved.computer or {}):
            break
        if play.computer_acts():
            app.pump([])
            continue
        clear_overlays(app, play)
        perform(app, play, random_gesture(app, play, rng))
    kept = read_save(path).computer
    assert kept is not None and kept["level"] == 3
    shown = " ".join(play.log) + play.map.state.message  # its plan reads its own secrets
    assert "plan '" not in shown and "trial run" not in shown
    for secret in ("stays hidden", "waits: the mover", "no shot worth", "odds are too poor"):
        assert secret not in shown  # its reasons to pass read them too (RD-11, C6.17)
    plan = kept["plan"]
    assert plan["side"] == "russian" and plan["turn"] == play.session.game.turn
    session.close()
    again = PlayScene(resume(path), sc.title)
    assert again.session.computer is not None and again.session.computer.level == 3
    assert again.session.computer._preset == {
        (plan["turn"], "russian"): next(p for p in PLANS if p.name == plan["name"])
    }


def test_the_computers_turn_runs_with_no_input_and_keeps_its_secrets(app):
    """The window sleeps until an event unless a scene animates: while the computer is to act
    the play screen asks for frames (its turn stalled until the mouse moved). Its set-up
    choices (where it bore sights, C6.42) never reach the human's log or bar."""
    session, play = versus(app, "tutorial-duel", "german")
    assert play.computer_acts() and play.animating()
    computer_turns(app, play)
    assert not play.computer_acts() and not play.animating()
    secret = ("place", "bore_sight", "conceal")
    chosen = [a["action"] for a in session.saved.actions if a["action"]["type"] in secret]
    assert chosen, "the computer made its set-up choices (HX-12: placed, concealed, aimed)"
    shown = (" ".join(play.log) + play.map.state.message).lower()
    for words in ("bore sight", "sets up", "ger-pz4-1", "conceals"):
        assert words not in shown, words


def test_the_computer_buttons_show_on_a_lesson_too_but_only_a_scenario_plays_one(app):
    """Found in a newcomer's trial: the start screen opens on the first lesson and the
    "vs computer" buttons were missing until a scenario was chosen, so a newcomer did not know
    the computer was there. They are shown, disabled, on a lesson; a click does nothing."""
    from ui_driver import click_widget

    from game.ui.start.screen import StartScene

    start = StartScene()
    app.push(start)
    app.pump([])
    _, sc, _ = start.scenarios[start.chosen]
    assert sc.lesson is not None  # the screen opens on a lesson for a newcomer
    assert set(start.vs) == set(sc.setup.sides)
    assert all(not b.is_enabled for b in start.vs.values())
    assert start.level_button is not None and not start.level_button.is_enabled
    click_widget(app, next(iter(start.vs.values())))
    assert app.scene is start
    start.chosen = next(
        i for i, (p, _, _) in enumerate(start.scenarios) if p.stem == "tutorial-duel"
    )
    start.leave()
    start.enter()
    assert all(b.is_enabled for b in start.vs.values()) and start.level_button.is_enabled


def test_the_start_screen_starts_a_game_against_the_computer_at_the_level_chosen(app):
    from ui_driver import click_widget

    from game.ui.start.screen import StartScene

    start = StartScene()
    app.push(start)
    app.pump([])
    start.chosen = next(
        i for i, (p, _, _) in enumerate(start.scenarios) if p.stem == "tutorial-duel"
    )
    start.leave()
    start.enter()
    assert set(start.vs) == {"german", "russian"} and start.level == 2
    click_widget(app, start.level_button)
    assert start.level == 3 and "level: 3 (lookahead)" in start.level_button.text
    click_widget(app, start.level_button)
    click_widget(app, start.level_button)
    assert start.level == 1 and "level: 1" in start.level_button.text
    click_widget(app, start.vs["german"])  # I play the German
    for _ in range(200):
        if isinstance(app.scene, PlayScene):
            break
        app.pump([])
    play = app.scene
    assert isinstance(play, PlayScene) and play.session.computer is not None
    assert (play.session.computer.side, play.session.computer.level, play.viewer) == (
        "russian",
        1,
        "german",
    )
    again = StartScene()  # New game: the level chosen last is offered (a trial picked it each time)
    app.push(again)
    app.pump([])
    assert again.level == 1
    from game.ui.prefs import Prefs

    assert Prefs.load().computer_level == 1  # and kept for the next time hexfire opens


def test_the_resume_tooltip_names_the_game_without_the_autosaves_time_stamp():
    """The tooltip broke "tutorial-duel-20261201-174036.json" with a hyphen in two trials: it
    names the scenario's file and says the time beside it."""
    from pathlib import Path

    from game.ui.start.screen import _game_name

    assert _game_name(Path("saves/tutorial-duel-20261201-174036.json")) == "tutorial-duel"
    assert _game_name(Path("saves/tutorial-duel-20261201-174036-2.json")) == "tutorial-duel"
    assert _game_name(Path("saves/my-checkpoint.json")) == "my-checkpoint"


def test_the_computers_reasons_for_a_question_mark_never_reach_the_humans_log(app):
    """A "?" of the computer's that moves or fires: its reasons ("drives towards F5", "ends its
    move in Motion") would tell the human what the "?" is (RD-11). The human's log and bar
    tell what the human sees happen, never why a "?" did it."""
    from dataclasses import replace

    session, play = versus(app, "road-ambush", "russian")
    computer = play.session.computer
    assert computer is not None
    choose = computer.choose
    hidden_acts = []

    def telling(table):
        decision = choose(table)
        game = play.session.game
        unit = game.units.get(getattr(decision.action, "unit", None) or "")
        seen_kind = decision.action.type in ("move", "turn", "end_move", "fire")
        if unit is not None and seen_kind and game.knowledge("german").hidden(unit):
            hidden_acts.append(decision.action)
            return replace(decision, why="THE-SECRET-REASON")
        return decision

    computer.choose = telling
    for _ in range(1500):
        if hidden_acts and not play.computer_acts() or play.session.game.over:
            break
        if play.computer_acts():
            app.pump([])
            continue
        clear_overlays(app, play)
        perform(app, play, Pass() if play.session.game.dff_pending else EndPhase())
    assert hidden_acts, 'a Russian "?" acted'
    shown = " ".join(play.log) + play.map.state.message
    assert "THE-SECRET-REASON" not in shown


def test_a_game_resumed_while_the_human_has_a_dff_chance_shows_the_prompt(app):
    """Found in play: a game against the computer closed while the human had a Defensive First
    Fire chance resumed with no prompt and keys doing nothing (411 s stuck). The session says
    the human's seat is asked (C6.17): the prompt comes back."""
    from game.ui.overlays.scenes import DffPrompt

    session, play = versus(app, "tutorial-duel", "russian")
    for _ in range(60):
        computer_turns(app, play)
        if isinstance(app.scene, DffPrompt) or play.session.game.over:
            break
        clear_overlays(app, play)
        perform(app, play, EndPhase())
    assert isinstance(app.scene, DffPrompt), "no Defensive First Fire chance came"
    path = play.session.path
    while app.scenes:
        app.pop()
    play.session.close()  # the window closed: the save is all there is
    again = PlayScene(resume(path), "duel")
    again.computer_pause = 0.0
    app.push(again)
    app.pump([])
    assert again.session.game.dff_pending and again.session.acting == "german"
    assert isinstance(app.scene, DffPrompt)
    key(app, pygame.K_SPACE, " ")  # Continue: the game goes on
    assert not again.session.game.dff_pending or again.session.acting != "german"


def test_a_game_against_the_computer_resumes_with_its_selection(app):
    """Found in a newcomer's trial: against the computer (no handover) Resume did not bring
    back the unit selected, which the README promises."""
    from game.ui.prefs import Prefs
    from game.ui.scenes.opening import close_sessions

    session, play = versus(app, "tutorial-duel", "russian")
    computer_turns(app, play)
    clear_overlays(app, play)
    own = [u for u in play.map.units() if u["side"] == "german"]
    play.map.state.selected = own[0]["id"]
    path = play.session.path
    close_sessions(app)  # what closing the window does, then the preferences are saved
    app.prefs.save()
    while app.scenes:
        app.pop()
    app.prefs = Prefs.load()
    again = PlayScene(resume(path), "duel")
    again.computer_pause = 0.0
    app.push(again)
    app.pump([])
    assert again.viewer == "german" and again.map.state.selected == own[0]["id"]


def test_while_the_computer_sets_up_the_humans_bar_says_wait_not_the_computers_keys(app):
    """The seat at the screen is told whom it waits for (here the computer's set-up, its
    Bore Sighting C6.4 and concealment among its keys), never the other side's keys."""
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel"))
    session = new_game(sc, 3, app.save_dir / "vs.json", {"side": "german", "level": 2})
    play = PlayScene(session, sc.title)
    play.computer_pause = 0.0
    app.push(play)  # not yet drawn: the computer has not acted, its set-up is on
    assert play.viewer == "russian" and play.table.phase == "setup"
    assert play.table.to_act == "german"
    said = hint(play.map, play.waiting())
    assert said.startswith("Waiting for the German (computer): Set Up"), said
    assert "Bore Sight" not in said and "drag" not in said
    app.pump([])
    computer_turns(app, play)  # its set-up done: now the human's own keys
    assert play.table.to_act == "russian" and play.waiting() == ""
    assert "drag counters" in hint(play.map, play.waiting())
