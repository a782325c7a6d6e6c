"""pygame-gui windows close with the screen that opened them (issue 44, item 7): the soak found
a Load dialog, its lists and buttons alive to the window's end (1,337 surfaces, 45.8 MiB, with
only the soak's own game open, against 393 at the warm-up): a second dialog opened over the
first left the first unreferenced by its screen, and nothing closed it. Messages (an error, a
Balance report) were the same once their screen closed."""

from __future__ import annotations

import gc
import weakref

import pygame
import pygame_gui

from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.play.screen import PlayScene
from game.ui.scenes.filedialog import FileDialog
from game.ui.scenes.opening import error_dialog
from game.ui.start.screen import StartScene


def _windows(app) -> list[str]:
    return [type(w).__name__ for w in app.ui.get_window_stack().get_full_stack()]


def _press(app, element) -> None:
    app.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))
    app.frame(0.016)


def test_the_start_screen_shows_one_file_dialog_at_a_time(app, data_dir):
    start = StartScene()
    app.push(start)
    app.frame(0.016)
    _press(app, start.load)
    _press(app, start.watch)  # the dialog covers not every button: a second one opened
    assert _windows(app) == ["FileDialog"]
    assert start.watching  # the last one pressed


def test_a_play_screen_shows_one_file_dialog_at_a_time(app, data_dir):
    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    play = PlayScene(new_game(sc, 1, app.save_dir / "duel.json"), sc.title)
    app.replace(play)
    play.dialogs.open_file("load")
    play.dialogs.open_file("save")
    assert _windows(app) == ["FileDialog"]


def test_a_closed_screens_windows_close_with_it(app, data_dir):
    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    play = PlayScene(new_game(sc, 1, app.save_dir / "duel.json"), sc.title)
    app.replace(play)
    app.frame(0.016)
    opened = [
        weakref.ref(FileDialog(pygame.Rect(100, 80, 520, 460), app.ui, "Load", app.save_dir, True))
        for _ in range(3)
    ]
    error_dialog(app, ValueError("no such file"), "Cannot open this file")
    app.frame(0.016)  # (windows opened on a screen are its own)
    assert _windows(app).count("FileDialog") == 3
    start = StartScene()
    app.replace(start)
    app.frame(0.016)
    assert _windows(app) == []
    app.pump()  # the events their closing posted (each names its window)
    gc.collect()
    assert all(ref() is None for ref in opened)  # let go, their pictures with them
    error_dialog(app, ValueError("bad"), "Cannot open this file")  # the start screen's own
    app.frame(0.016)
    assert _windows(app) == ["UIMessageWindow"]
