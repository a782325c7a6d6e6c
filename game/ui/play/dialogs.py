"""The play screen's dialogs, composed into it: "End phase?" (asked each time own units could
still act; Enter confirms, Esc cancels) and the Save-as and Load file dialogs (Save as offers
a file name of its own, so that OK always saves; a folder picked is refused with a reason)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui

from game.engine.actions import EndMove, EndPhase
from game.engine.phases import PHASES
from game.files.savegame import SaveError
from game.ui.map.host import PlayHost
from game.ui.scenes.filedialog import HEXFIRE_FILES, FileDialog
from game.ui.scenes.opening import open_path


def copy_name(folder: Path, stem: str) -> Path:
    """A save-as name in ``folder`` that no file has: ``STEM-copy.json``, ``STEM-copy-2.json``."""
    n = 1
    while True:
        path = folder / (f"{stem}-copy.json" if n == 1 else f"{stem}-copy-{n}.json")
        if not path.exists():
            return path
        n += 1


class Dialogs:
    """The dialogs open over one play screen (``play``: the PlayScene)."""

    def __init__(self, play: PlayHost) -> None:
        self.play = play
        self.confirm: pygame_gui.windows.UIConfirmationDialog | None = None
        self.file_dialog: FileDialog | None = None
        self.file_mode = ""
        self.closing: pygame_gui.windows.UIConfirmationDialog | None = None
        """The "Close without saving?" (or "Leave without saving?") question, while open."""
        self.closing_then: Callable[[], None] = self._quit
        """What its yes does: close the window, or go back to the start screen."""

    def may_close(self) -> bool:
        """Closing the window: at once when the game is saved; else ask ("Close anyway"), and
        a second close while the question is open closes."""
        return self._saved_or_ask("close", self._quit)

    def leave(self, then: Callable[[], None]) -> None:
        """Back to the start screen (Menu, Ctrl+Q, Esc out of a lesson): ``then`` at once when
        the game is saved; else it asks first as closing does (what the start screen's Resume
        would go on from is the last saved action: every action since would be lost)."""
        if self._saved_or_ask("menu", then):
            then()

    def _quit(self) -> None:
        self.play.app.running = False

    def _saved_or_ask(self, how: str, then: Callable[[], None]) -> bool:
        """True when the game is saved (a failed save is tried again first), or the question
        is open already (asked twice, it goes); else the question, whose yes runs ``then``."""
        play = self.play
        why = getattr(play.session, "save_error", None)
        if why and play.session.retry_save():  # written now (the disk has room again)
            why = None
            play.map.state.message = ""
        if not why or self.closing is not None:
            if self.closing is not None:
                self.closing.kill()
                self.closing = None
            return True
        if how == "close":
            title, yes, verb = "Close without saving?", "Close anyway", "Close anyway"
        else:
            title, yes = "Leave without saving?", "Leave anyway"
            verb = "Go back to the start screen anyway (Resume goes on from the last save)"
        self.closing = pygame_gui.windows.UIConfirmationDialog(
            pygame.Rect(play.app.size[0] // 2 - 240, 180, 480, 230),
            f"The last action is not saved: {html.escape(why)}. {verb} (the game is "
            "lost from that action on), or Cancel and save a copy elsewhere with Ctrl+S.",
            play.app.ui,
            window_title=title,
            action_short_name=yes,
        )
        self.closing_then = then
        return False

    def close(self) -> None:
        """Close every dialog (the screen is leaving)."""
        for dialog in (self.confirm, self.file_dialog, self.closing):
            if dialog is not None:
                dialog.kill()
        self.confirm = self.file_dialog = self.closing = None

    @property
    def open(self) -> bool:
        return self.confirm is not None or self.file_dialog is not None

    def handle(self, event: pygame.event.Event) -> bool:
        """A dialog's event (its buttons, Enter and Esc); True when a dialog took it (while
        one is open, the map takes nothing)."""
        play = self.play
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is (
            self.closing
        ):
            self.closing = None
            self.closing_then()
            return True
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is (
            self.confirm
        ):
            self.confirm = None
            play.apply(EndPhase())
            return True
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is (
            self.file_dialog
        ):
            self.file_dialog = None
            self.file_picked(Path(event.text))
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            if event.ui_element is self.confirm:
                self.confirm = None
            if event.ui_element is self.file_dialog:
                self.file_dialog = None
            if event.ui_element is self.closing:
                self.closing = None
            return True
        if self.confirm is not None and event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):  # Enter confirms
                self.confirm.kill()
                self.confirm = None
                play.apply(EndPhase())
            elif event.key == pygame.K_ESCAPE:  # Esc cancels
                self.confirm.kill()
                self.confirm = None
            return True
        return self.open

    def end_phase(self) -> None:
        """End the phase; with own units that could still act, ask each time (the preference
        ``confirm_end_phase`` turns the question off). A squad still moving ends its move
        first (Infantry has no stop to choose: an ASL player's trial was refused with a squad
        at 0 MF "moving")."""
        play = self.play
        table = play.table
        walking = [
            u["id"]
            for u in play.map.units()
            if u.get("moving") and u["side"] == table.to_act and u.get("category") == "infantry"
        ]
        if walking and not play.apply(EndMove(walking[0], False)):
            return
        idle = play.orders.units_that_can_act()
        if EndPhase() not in play.legal():
            idle = []  # refused (a vehicle still moving): say why at once, ask nothing first
        if idle and play.app.prefs.confirm_end_phase:
            knows = play.map.knows()
            names = ", ".join(f"{knows.name(u)} in {knows.where(u)}" for u in idle[:4])
            more = f" and {len(idle) - 4} more" if len(idle) > 4 else ""
            self.close()  # one dialog at a time (a second stayed over the first)
            self.confirm = pygame_gui.windows.UIConfirmationDialog(
                pygame.Rect(play.app.size[0] // 2 - 210, 200, 420, 200),
                f"{len(idle)} unit(s) have not acted: {html.escape(names)}{more}. "
                f"End the {PHASES[table.phase].title}? (Enter: end it; Esc: stay in this phase)",
                play.app.ui,
                window_title="End phase?",
                action_short_name="End phase",
            )
            return
        play.apply(EndPhase())

    def open_file(self, mode: str) -> None:
        """The Save-as ("save", a new file name offered) or Load ("load") dialog."""
        play = self.play
        self.file_mode = mode
        folder = Path(play.app.save_dir)
        stem = Path(getattr(play.session, "path", None) or "game").stem
        initial = copy_name(folder, stem) if mode == "save" else folder
        self.close()  # one dialog at a time
        self.file_dialog = FileDialog(
            pygame.Rect(play.app.size[0] // 2 - 260, 80, 520, 460),
            play.app.ui,
            "Save a copy as (Enter saves)" if mode == "save" else "Load a scenario or save",
            initial,
            existing_only=mode != "save",
            suffixes=(".json",) if mode == "save" else HEXFIRE_FILES,
        )

    def file_picked(self, path: Path) -> None:
        play = self.play
        if self.file_mode != "save":
            open_path(play.app, path)
        elif path.is_dir():
            play.map.state.message = f"cannot save to {path}: that is a folder; type a file name"
        elif path.exists() and not path.is_file():  # /dev/null would be replaced by the save
            play.map.state.message = f"cannot save to {path}: not a regular file"
        else:
            try:
                play.session.save_as(path)
                play.map.state.message = f"saved a copy to {path}"
            except SaveError as e:  # an unwritable folder, a full disk: its one line
                play.map.state.message = str(e)
            except OSError as e:
                play.map.state.message = f"cannot save to {path}: {e.strerror or e}"
