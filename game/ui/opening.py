"""Opening a file in the window: a scenario starts a game, a save resumes or loads one, a save
opens in the replay viewer; a file that cannot be opened shows its one-line reason. The screen
opened is asked for as a transition (:mod:`.routes`), never built here."""

from __future__ import annotations

import html
import re
import secrets
from pathlib import Path

import pygame
import pygame_gui

from game.files.savegame import SaveError, read_save
from game.files.scenario import Scenario, ScenarioError, load_scenario
from game.files.session import Autosave, SaveLocked, new_game, resume
from game.files.timeline import Timeline

from .app import App
from .prefs import autosave_path
from .routes import Play, Push, Replace, Watch


def one_line(error: Exception) -> str:
    """The first line of a scenario or save error (the same words as ``hexfire validate``)."""
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def close_sessions(app: App) -> None:
    """The games the window had open are no longer played here: keep their map views for
    their Resume, and release their locks."""
    for scene in app.scenes:
        remember = getattr(scene, "remember_view", None)
        if remember is not None:
            remember()
        session = getattr(scene, "session", None)
        if isinstance(session, Autosave):
            session.close()


def start_scenario(app: App, scenario: Scenario, seed: int | None = None) -> Autosave:
    """A new game of ``scenario``, autosaved in the saves folder, on the play screen."""
    close_sessions(app)
    path = autosave_path(app.save_dir, Path(scenario.path).stem)
    session = new_game(scenario, secrets.randbelow(2**31) if seed is None else seed, path)
    app.go(Replace(Play(session, scenario.title)))
    return session


def open_path(app: App, path: Path, in_place: bool = False) -> str | None:
    """Start a scenario (.toml) or open a save (.json): Resume (``in_place``) plays it on in
    its own file; Load plays it on in a new autosave, so a loaded checkpoint is never
    overwritten. Returns the one-line error, shown in a dialog (a game open in another window
    among them), or None."""
    try:
        if path.suffix.lower() == ".json":
            base = re.sub(r"-\d{8}-\d{6}(-\d+)?$", "", path.stem)  # an autosave's time stamp
            copy = None if in_place else autosave_path(app.save_dir, base)
            try:
                session = resume(path, continue_in=copy)
            except SaveError:
                if copy is not None and copy.stat().st_size == 0:
                    copy.unlink()  # the reserved name, never written
                raise
            close_sessions(app)
            app.go(Replace(Play(session, session.saved.scenario().title)))
        else:
            start_scenario(app, load_scenario(path))
    except SaveLocked as e:
        if not in_place:
            return error_dialog(app, e, "Cannot open this file")
        app.ask(  # the game is another window's: offer a copy, played on in a new autosave
            f"{path.name} is open in another window, which goes on playing it. Open a copy "
            "of it here (a new autosave; the other window's file stays as it is)?",
            "Game open in another window",
            "Open a copy",
            lambda: _open_copy(app, path),
        )
        return one_line(e)
    except (ScenarioError, SaveError) as e:
        return error_dialog(app, e, "Cannot open this file")
    return None


def _open_copy(app: App, path: Path) -> None:
    open_path(app, path, in_place=False)


def error_dialog(app: App, error: Exception, title: str) -> str:
    """Show the one-line reason in a dialog; return it."""
    message = one_line(error)
    pygame_gui.windows.UIMessageWindow(
        pygame.Rect(app.size[0] // 2 - 300, 160, 600, 220),
        html.escape(message),
        app.ui,
        window_title=title,
    )
    return message


def watch_path(app: App, path: Path) -> str | None:
    """Open a save in the replay viewer; the one-line error in a dialog, or None."""
    try:
        saved = read_save(path)
        timeline = Timeline(saved, str(path))
        title = saved.scenario().title
    except (ScenarioError, SaveError) as e:
        return error_dialog(app, e, "Cannot replay this file")
    app.go(Push(Watch(timeline, title, at=0)))  # Back (Esc) returns here
    return None
