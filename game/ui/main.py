"""Entry points for the command line: open the window (the start screen, or a scenario or save
given on the command line; the scenario editor), or render one frame to a PNG
(``--screenshot``)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any

from game.files.savegame import SaveError, read_save
from game.files.scenario import ScenarioError, load_scenario
from game.files.session import Autosave, new_game, resume
from game.files.text import printable
from game.session import Session


def load_session(path: Path, seed: int | None, save_dir: Path | None) -> tuple[Autosave, str]:
    """A scenario (a new game; autosaved in ``save_dir`` if given) or a save (resumed at its
    last action). ScenarioError / SaveError with the one-line reason."""
    if path.suffix.lower() == ".json":
        session = resume(path)
        return session, session.saved.scenario().title
    scenario = load_scenario(path)
    target = None
    if save_dir is not None:
        from game.ui.prefs import autosave_path

        target = autosave_path(save_dir, path.stem)
    import secrets

    return new_game(scenario, secrets.randbelow(2**31) if seed is None else seed, target), (
        scenario.title
    )


def run_join(
    link: str, size: tuple[int, int], save_dir: str | None = None, order: Any = None
) -> int:
    """The window for one seat of a game on a server (``hexfire join LINK``): the normal play
    screen on that seat's view, every question answered by the server (docs/online.md);
    ``order``: the seat's standing Defensive First Fire order (a wire ``DffOrder``) set first.
    LinkError / NetError with the one-line reason when the seat cannot be taken."""
    import pygame

    from game.net.client import Link
    from game.net.remote import RemoteSession, ThreadedClient
    from game.ui.play.screen import NET_EVENT
    from game.ui.scenes.opening import close_sessions
    from game.ui.scenes.routes import Play, Push
    from game.ui.screens import window

    parsed = Link.parse(link)
    app = window(size, save_dir)

    def wake() -> None:  # from the connection's thread: the window reads the news
        with contextlib.suppress(pygame.error):
            pygame.event.post(pygame.event.Event(NET_EVENT))

    try:
        client = ThreadedClient(parsed, on_change=wake)
    except BaseException:
        pygame.display.quit()
        raise
    if order is not None:
        client.call(client.client.set_order, order)
    session = RemoteSession(client)
    away = client.client.order
    words = away.policy if away.policy != "kill" else f"kill {away.percent}%"
    title = f"{session.title} (online; away: {words})"
    app.go(Push(Play(session, title, viewer=session.side)))
    stop_on_sigterm(app)
    try:
        app.run()
    finally:
        close_sessions(app)
        app.close_all()
    return 0


def run_window(
    path: Path | None,
    size: tuple[int, int],
    save_dir: str | None,
    seed: int | None,
    computer: dict | None = None,
) -> int:
    """The window: the start screen, or the game of a scenario or save given. A save is read,
    and its game rebuilt, off the window's thread with the progress shown; one that cannot be
    opened closes the window and raises its error (the command line prints its one line)."""
    from game.ui.scenes.opening import close_sessions, open_path, start_scenario
    from game.ui.scenes.routes import Push, Start
    from game.ui.screens import window

    scenario = load_scenario(path) if path is not None and path.suffix.lower() != ".json" else None
    if computer is not None:
        if scenario is None:
            raise SaveError("--ai: give a scenario (a save remembers who the computer plays)")
        if computer["side"] not in scenario.setup.sides:
            raise SaveError(
                f"--ai {computer['side']}: expected one of {', '.join(scenario.setup.sides)}"
            )
    if path is not None and scenario is None:
        _not_open_elsewhere(path)
    app = window(size, save_dir)
    failed = _StopOnError(app)
    if path is None:
        app.go(Push(Start()))
    elif scenario is not None:
        start_scenario(app, scenario, seed, computer)
    else:
        open_path(app, path, in_place=True, failed=failed, offer_copy=False)  # Resume
    stop_on_sigterm(app)
    try:
        app.run()
    finally:
        close_sessions(app)  # the game's lock released, whatever ended the window
        app.close_all()  # then every screen's threads and processes (an editor's Balance run)
    try:
        app.prefs.save()
    except (SaveError, OSError) as e:  # a read-only data folder: the game itself is saved
        print(printable(f"hexfire: the preferences were not saved: {e}"), file=sys.stderr)
    if failed.error is not None:
        raise failed.error
    return 0


def _not_open_elsewhere(path: Path) -> None:
    """A save named on the command line that another window plays: SaveLocked, one line,
    before any window opens (it opened and closed at once, exit 0, with no word)."""
    from game.files.lock import SaveLocked, locked_by_another

    locked = locked_by_another(path)
    if locked is not None:
        raise SaveLocked(
            f"{path}: this game is open in {locked.holder}; to play a copy of it, open it "
            "with Load on the start screen (hexfire play)",
            locked.holder,
        )


def stop_on_sigterm(app) -> None:
    """SIGTERM (a desktop logging out, ``kill``) closes the window as closing it does: the
    game's lock released (a killed window left its lock behind), and while saves fail (a full
    disk) the save tried again, then the question asked, and a second SIGTERM closes anyway
    (it closed at once: every action since the last good save was lost)."""
    import signal

    import pygame

    def stop(_signum, _frame) -> None:
        try:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        except pygame.error:  # the window is gone already
            app.running = False

    with contextlib.suppress(ValueError):  # not the main thread (a test): nothing to install
        signal.signal(signal.SIGTERM, stop)


class _StopOnError:
    """Where a file opened from the command line sends its error: it closes the window, and
    the command raises it after (its one line printed)."""

    def __init__(self, app) -> None:
        self.app = app
        self.error: Exception | None = None

    def __call__(self, error: Exception) -> None:
        self.error = self.error or error
        self.app.running = False


def screenshot(
    path: Path,
    out: Path,
    size: tuple[int, int],
    select: str | None,
    hover: str | None,
    seed: int | None,
    overlay: str | None = None,
    thread: tuple[str, str] | None = None,
) -> int:
    """Render the game as the side to act sees it (no handover) to ``out``: what the window
    shows on opening the file (the phases with nothing to do passed, HX-15; a Defensive First
    Fire prompt or the result screen over the map), a handover taken by the side named."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.ui.overlays.scenes import Handover
    from game.ui.play.screen import PlayScene
    from game.ui.scenes.routes import Play, Push
    from game.ui.screens import window

    session, title = load_session(path, 1 if seed is None else seed, None)
    app = window(size, Path(os.environ.get("TMPDIR", "/tmp")) / "hexfire-shot", headless=True)
    seats = Session.of(session)
    app.go(Push(Play(seats, title, viewer=seats.acting)))  # at the screen: no handover
    for _ in range(8):  # a side with nothing to do passed: the next side takes the seat
        if not isinstance(app.scene, Handover):
            break
        app.scene.done()
    play = next(s for s in app.scenes if isinstance(s, PlayScene))
    play.rebuild_log()
    if select:
        shown = play.map.unit(select)
        if shown is None:
            raise ValueError(f"--select: no unit {select!r} in play")
        play.map.state.selected = select
        play.map.center_on(shown["hex"])
    if hover:
        h = play.table.board.parse(hover.upper())  # typed: case-insensitive
        play.map.state.hover_hex = hover.upper()
        play.map.state.mouse = tuple(int(v) for v in play.map.camera.hex_to_screen(h))  # type: ignore[assignment]
    _analysis(play, overlay, thread)
    app.screenshot(out)
    return 0


def _analysis(scene, overlay: str | None, thread: tuple[str, str] | None) -> None:
    """The analysis tools a screenshot shows: an overlay and an LOS thread."""
    from game.ui.map.analysis import trace

    if overlay:
        scene.map.analysis.overlay = overlay
    if thread:
        scene.map.analysis.thread = trace(scene.map.table, thread[0].upper(), thread[1].upper())


__all__ = ["SaveError", "ScenarioError", "load_session", "run_window", "screenshot"]


def load_timeline(path: Path):
    """A save as a :class:`Timeline` (SaveError with the one-line reason when unreadable)."""
    from game.files.timeline import Timeline

    saved = read_save(path)
    return Timeline(saved, str(path)), saved.scenario().title


def watch_window(size: tuple[int, int]):
    """The replay viewer's window: it writes no save, so an unusable data folder (a file in its
    place, a read-only home) does not stop it; a temporary folder stands in."""
    import tempfile

    from game.ui.screens import window

    try:
        return window(size)
    except SaveError:
        return window(size, Path(tempfile.mkdtemp(prefix="hexfire-watch-")))


def run_watch(path: Path, size: tuple[int, int], to: int | None) -> int:
    """The replay viewer of a save: read and replayed (every action checked) off the window's
    thread, the progress shown; a save that cannot be read closes the window and raises its
    error (the command line prints its one line)."""
    from game.ui.scenes.opening import replaying
    from game.ui.scenes.routes import Push

    app = watch_window(size)
    failed = _StopOnError(app)
    app.go(Push(replaying(path, str(path), "", at=to, failed=failed)))
    app.run()
    app.close_all()
    if failed.error is not None:
        raise failed.error
    return 0


def watch_screenshot(
    path: Path,
    out: Path,
    size: tuple[int, int],
    to: int | None,
    select: str | None = None,
    hover: str | None = None,
    overlay: str | None = None,
    thread: tuple[str, str] | None = None,
) -> int:
    """Render the replay viewer at action ``to`` (default: the last good one) to ``out``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.ui.replay.viewer import WatchScene
    from game.ui.scenes.routes import Push, Watch
    from game.ui.screens import window

    timeline, title = load_timeline(path)
    app = window(size, Path(os.environ.get("TMPDIR", "/tmp")) / "hexfire-shot", headless=True)
    app.go(Push(Watch(timeline, title, at=to)))
    scene = app.scene
    assert isinstance(scene, WatchScene)
    if select:
        scene.map.state.selected = select
    if hover:
        scene.map.state.hover_hex = hover.upper()
    _analysis(scene, overlay, thread)
    app.screenshot(out)
    return 0


# --- hexfire edit: the scenario editor ----------------------------------------------------


def run_edit(path: Path | None, size: tuple[int, int], save_dir: str | None) -> int:
    """The editor's window on ``path`` (None: a new scenario); ScenarioError (one line) when
    the file is not TOML."""
    from game.ui.scenes.routes import Edit, Push
    from game.ui.screens import window

    app = window(size, save_dir)
    try:
        app.go(Push(Edit(path)))
    except BaseException:
        import pygame

        pygame.display.quit()
        raise
    stop_on_sigterm(app)
    try:
        app.run()
    finally:
        app.close_all()  # the editor's worker, checker and any Balance run
    return 0


def edit_screenshot(
    path: Path | None, out: Path, size: tuple[int, int], tab: str | None = None
) -> int:
    """The editor's first frame on ``path`` (its ``tab`` shown: map, units, scenario,
    lesson) written to ``out``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.ui.scenes.routes import Edit, Push
    from game.ui.screens import window

    app = window(size, Path(os.environ.get("TMPDIR", "/tmp")) / "hexfire-shot", headless=True)
    try:
        app.go(Push(Edit(path)))
        if tab is not None:
            scene: Any = app.scene
            scene.panel.tab = tab
            scene.build_panel()
        app.screenshot(out)
    finally:
        app.close_all()
        import pygame

        pygame.display.quit()
    print(out)
    return 0
