"""The window under attack: none of these may crash it, hang it or lose an action. A full
disk and Menu, a lesson step with an unwritable data folder, markup in a scenario's texts,
a typed path that is no folder nor file, a screenshot where the side to act has nothing to
do, and hostile flags and signals to the computer-against-itself commands."""

from __future__ import annotations

import os

import pygame
import pytest
from ui_driver import click_widget, key

from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.play import PlayScene
from game.ui.routes import Play, Push
from game.ui.start import StartScene


def _duel(app, path=None):
    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    return app.scene


# --- 1. a failed save: Menu / Ctrl+Q asks as closing does ---------------------------------


@pytest.mark.parametrize("how", ["menu", "ctrl+q"])
def test_menu_with_an_unsaved_action_asks_before_leaving(app, how, monkeypatch):
    """With the last save failed (a full disk), Menu or Ctrl+Q went to the start screen at
    once: Resume then went on from the last saved action, every action since lost. It asks,
    as closing does; Cancel stays, "Leave anyway" leaves; saved, it leaves at once."""
    import game.files.session as session_module
    from game.engine.actions import Place
    from game.files.savegame import SaveError

    play = _duel(app, app.save_dir / "duel.json")
    real_save = session_module.save

    def full_disk(saved, path):
        raise SaveError(f"{path}: cannot save: No space left on device; the previous save is kept")

    monkeypatch.setattr(session_module, "save", full_disk)
    unit = next(u for u in play.map.units() if u["id"] in play.session.game.placeable())
    assert play.apply(Place(unit["id"], unit["hex"], (unit["facing"] + 1) % 6))
    assert play.session.save_error

    def ask() -> None:
        if how == "menu":
            click_widget(app, play.buttons["start_screen"])
        else:
            key(app, pygame.K_q, "q", mod=pygame.KMOD_LCTRL)

    ask()
    assert app.scene is play and play.dialogs.closing is not None, "it left without asking"
    assert "not saved" in play.dialogs.closing.confirmation_text.html_text
    click_widget(app, play.dialogs.closing.cancel_button)
    assert app.scene is play and play.dialogs.closing is None
    ask()
    click_widget(app, play.dialogs.closing.confirm_button)
    assert isinstance(app.scene, StartScene) and app.running
    monkeypatch.setattr(session_module, "save", real_save)
    play = _duel(app, app.save_dir / "duel2.json")
    ask()  # saved: at once
    assert isinstance(app.scene, StartScene)


# --- 2. a lesson step with a full or read-only data folder ---------------------------------


def test_a_lesson_step_with_an_unwritable_data_folder_is_reported_and_play_goes_on(
    app, data_dir
):
    """The lesson's progress could not be written (here prefs.json is a folder, so the
    atomic rename over it fails as a full or read-only folder does): the SaveError escaped
    and killed the window. The phase bar says so; the lesson goes on."""
    blocker = data_dir / "hexfire" / "prefs.json"
    blocker.mkdir(parents=True)
    (blocker / "x").write_text("")
    sc = load_scenario(scenarios_dir() / "lesson-1-move.toml")
    play = PlayScene(new_game(sc, 3, app.save_dir / "l1.json"), sc.title)
    app.push(play)
    app.pump([])
    card = play.lesson
    assert card is not None and card.step is not None and card.step.kind == "read"
    key(app, pygame.K_SPACE, " ")
    assert card.at == 1 and app.scene is play and app.running
    assert "lesson progress not saved" in play.map.state.message
    assert app.prefs.lessons[sc.lesson.id] == 1  # this session remembers


