"""Opening a file in the window: a scenario starts a game, a save resumes or loads one, a save
opens in the replay viewer; a file that cannot be opened shows its one-line reason. The screen
opened is asked for as a transition (:mod:`game.ui.scenes.routes`), never built here."""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui

from game.files.lock import SaveLocked
from game.files.savegame import SavedGame, SaveError, read_save
from game.files.scenario import Scenario, ScenarioError, load_scenario
from game.files.session import Autosave, new_game, resume
from game.files.timeline import Timeline
from game.net.remote import RemoteSession
from game.session import Session
from game.ui.prefs import autosave_path
from game.ui.scenes.routes import Cancelled, Opening, Play, Progress, Push, Replace, Watch
from game.ui.scenes.stack import App


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
        if isinstance(session, (Autosave, Session, RemoteSession)):
            session.close()


def start_scenario(
    app: App, scenario: Scenario, seed: int | None = None, computer: dict | None = None
) -> None:
    """A new game of ``scenario``, autosaved in the saves folder, on the play screen (its
    game built off the window's thread: a 200 x 200 map's lines of sight take seconds);
    ``computer``: the side the computer plays and its level (docs/ai.md)."""
    try:
        path = autosave_path(app.save_dir, Path(scenario.path).stem)
    except SaveError as e:  # a full or read-only saves folder: why, and the window goes on
        error_dialog(app, e, "Cannot start this scenario")
        return
    dice = secrets.randbelow(2**31) if seed is None else seed
    made: list[Autosave] = []

    def work(progress: Progress):
        progress.now("Building the map and its lines of sight (RD-9)")
        made.append(new_game(scenario, dice, path, computer))
        _handed(progress, made[0])
        return lambda: _play(app, made[0], scenario.title)

    def failed(error: Exception) -> None:
        _drop_reserved(path)
        error_dialog(app, error, "Cannot start this scenario")

    app.go(Push(Opening(scenario.title, work, failed, _unshown(made, path))))


def _play(app: App, session: Autosave, title: str) -> None:
    """The game opened is played here now: the others' locks released, its screen shown."""
    close_sessions(app)
    app.go(Replace(Play(session, title)))


def _handed(progress: Progress, session: Autosave) -> None:
    """A game built for a loading screen that closed meanwhile is closed (its lock let go)
    and not shown (:meth:`.LoadingScene.closed`)."""
    if progress.cancelled:
        session.close()
        raise Cancelled(progress.stage)


def _unshown(made: list[Autosave], path: Path | None) -> Callable[[], None]:
    """What a game never shown leaves is taken back (:attr:`.Opening.dropped`): the game
    built is closed (its lock given back) and its new autosave removed: nobody played it, and
    the start screen's Resume would offer it (issue 44)."""

    def dropped() -> None:
        for session in made:
            session.close()
        if path is not None:
            path.unlink(missing_ok=True)

    return dropped


def _drop_reserved(path: Path | None) -> None:
    """A reserved autosave name that was never written is given back."""
    if path is not None and path.exists() and path.stat().st_size == 0:
        path.unlink()


def open_path(
    app: App,
    path: Path,
    in_place: bool = False,
    failed: Callable[[Exception], None] | None = None,
    offer_copy: bool = True,
) -> str | None:
    """Start a scenario (.toml) or open a save (.json): Resume (``in_place``) plays it on in
    its own file; Load plays it on in a new autosave, so a loaded checkpoint is never
    overwritten. A save is read, its game built and its actions replayed off the window's
    thread (:class:`.routes.Opening`: a 200,000-action save takes seconds). A file that cannot
    be opened shows its one-line error in a dialog (or goes to ``failed``); a scenario's is
    also returned. A game open in another window is offered as a copy (unless not
    ``offer_copy``: the command line names it and ends, its error to ``failed``)."""
    if path.suffix.lower() != ".json":
        try:
            scenario = load_scenario(path)
        except ScenarioError as e:
            return error_dialog(app, e, "Cannot open this file")
        start_scenario(app, scenario)
        return None
    base = re.sub(r"-\d{8}-\d{6}(-\d+)?$", "", path.stem)  # an autosave's time stamp
    try:
        copy = None if in_place else autosave_path(app.save_dir, base)
    except SaveError as e:
        return error_dialog(app, e, "Cannot open this file")

    made: list[Autosave] = []

    def work(progress: Progress):
        progress.now("Reading the save and building its map")
        made.append(resume(path, continue_in=copy, progress=_replaying(progress)))
        _handed(progress, made[0])
        return lambda: _play(app, made[0], made[0].saved.scenario().title)

    def fail(error: Exception) -> None:
        _drop_reserved(copy)
        if isinstance(error, SaveLocked) and in_place and offer_copy:
            app.ask(  # the game is another window's: offer a copy, played on in a new autosave
                f"{path.name} is open in another window, which goes on playing it. Open a "
                "copy of it here (a new autosave; the other window's file stays as it is)?",
                "Game open in another window",
                "Open a copy",
                lambda: _open_copy(app, path),
            )
        elif failed is not None:
            failed(error)
        else:
            error_dialog(app, error, "Cannot open this file")

    app.go(Push(Opening(f"Opening {path.name}", work, fail, _unshown(made, copy))))
    return None


def _replaying(progress: Progress) -> Callable[[int, int], None]:
    """A replay's progress callback: the stage named once the game is built."""

    def step(done: int, total: int) -> None:
        if not progress.total:
            progress.stage = "Replaying the game, every roll checked"
        progress.step(done, total)

    return step


def _open_copy(app: App, path: Path) -> None:
    open_path(app, path, in_place=False)


def replaying(
    source: SavedGame | Path,
    name: str,
    title: str,
    at: int | None = None,
    failed: Callable[[Exception], None] | None = None,
) -> Opening:
    """The replay viewer of a save (a file, read there, or one in memory) at action ``at``:
    its timeline (every action replayed and checked) built off the window's thread, the
    progress shown."""

    def work(progress: Progress):
        if isinstance(source, Path):
            progress.now("Reading the save")
            saved = read_save(source)
        else:
            saved = source
        progress.now("Building the map and its lines of sight (RD-9)")
        timeline = Timeline(saved, name, progress=_replaying(progress))
        return Push(Watch(timeline, title or saved.scenario().title, at=at))

    return Opening(f"Replay: {title or Path(name).name}", work, failed)


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
    """Open a save in the replay viewer (read and replayed off the window's thread); an error
    shows in a dialog."""

    def failed(error: Exception) -> None:
        error_dialog(app, error, "Cannot replay this file")

    app.go(Push(replaying(path, str(path), "", at=0, failed=failed)))  # Back returns here
    return None
