"""The file dialog of the start screen and the play screen: pygame-gui's, for hexfire's files.

It lists folders and only the files hexfire opens (a scenario ``.toml``, a save ``.json``): no
lock file (``.json.lock``), no temporary file, nothing else. A FIFO, a socket or a device is
neither a folder nor a file here (pygame-gui listed them as folders, and opening one raised
``NotADirectoryError`` out of the window). Enter in the path line is OK, as a player expects;
a typed path that cannot be opened (a device, a FIFO, a name under a file, no such folder) is
a one-line message over the dialog, which stays on the folder it showed."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

HEXFIRE_FILES = (".toml", ".json")


class FileDialog(pygame_gui.windows.UIFileDialog):
    """A file dialog showing folders and the files with one of ``suffixes``."""

    def __init__(
        self,
        rect: pygame.Rect,
        manager: pygame_gui.UIManager,
        title: str,
        initial: Path,
        existing_only: bool,
        suffixes: tuple[str, ...] = HEXFIRE_FILES,
    ) -> None:
        self.suffixes = suffixes
        self.message: pygame_gui.windows.UIMessageWindow | None = None
        """The one-line message of the last typed path that could not be used."""
        super().__init__(
            rect,
            manager,
            window_title=title,
            initial_file_path=str(initial),
            allow_existing_files_only=existing_only,
            allowed_suffixes=set(suffixes),
            object_id=ObjectID("#file_dialog"),
        )

    def _create_list_of_directories_and_files_on_current_path(self) -> None:
        """Folders, then hexfire's files; nothing that is neither (a FIFO, a device). A typed
        path that is no folder (``/dev/null``, a FIFO, ``a-save.json/x``) keeps the folder
        listed before, and the path line says why (pygame-gui listed it: NotADirectoryError
        closed the window)."""
        try:
            entries = list(Path(self.current_directory_path).iterdir())
        except OSError as e:
            shown = getattr(self, "_listed", None) or str(Path.home())
            why = e.strerror or type(e).__name__
            self.current_directory_path = shown
            self.current_file_path = None
            try:
                entries = list(Path(shown).iterdir())
            except OSError:
                entries = []
            line = getattr(self, "file_path_text_line", None)
            if line is not None:
                line.set_text(f"{shown}  ({why})")
        self._listed = str(self.current_directory_path)
        folders = sorted((f.name for f in entries if f.is_dir()), key=str.lower)
        files = sorted(
            (f.name for f in entries if f.is_file() and f.name.lower().endswith(self.suffixes)),
            key=str.lower,
        )
        self.current_file_list = [
            *((name, "#directory_list_item") for name in folders),
            *((name, "#file_list_item") for name in files),
        ]

    def update_current_file_list(self, should_try_again: bool = True) -> None:
        """The list of the folder shown; a path that is no folder to list (a device, a FIFO,
        "a-save.json/x", one gone or unreadable) goes back to the last folder listed
        (pygame-gui caught only PermissionError and FileNotFoundError)."""
        try:
            self._create_list_of_directories_and_files_on_current_path()
        except (OSError, ValueError):
            self.current_directory_path = self.last_valid_directory_path
            if should_try_again:
                self.update_current_file_list(should_try_again=False)
            else:
                self.current_file_list = []
        else:
            self.last_valid_directory_path = self.current_directory_path

    def _process_file_path_entry_events(self, event: pygame.event.Event) -> None:
        """The path line: what pygame-gui does with a usable path; a path that cannot be one
        leaves the folder shown as it was, and Enter on it says why in one line."""
        if (
            event.type not in (pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_TEXT_ENTRY_CHANGED)
            or event.ui_element is not self.file_path_text_line
        ):
            return
        typed = self.file_path_text_line.get_text()
        why = self.unusable(Path(typed))
        if why is None:
            super()._process_file_path_entry_events(event)
            return
        self.current_directory_path = self.last_valid_directory_path
        self._set_no_file_selected_state()
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.say(f"{typed}: {why}")

    def unusable(self, path: Path) -> str | None:
        """Why a typed ``path`` can be neither listed nor picked here, or None (a folder, a
        file of ours, a new name in a folder when saving; a partial name typed is left to
        pygame-gui)."""
        try:
            path = path.absolute()
            if path.is_dir():
                return None
            if path.exists():
                if not path.is_file():
                    return "not a folder or a regular file (a device, a FIFO or a socket)"
                return None
            parent = path.parent
            if parent.exists() and not parent.is_dir():
                return f"not a folder: {parent.name} is a file"
        except (OSError, ValueError) as e:  # a name too long, a NUL byte
            return f"not a usable path ({getattr(e, 'strerror', None) or e})"
        return None

    def say(self, text: str) -> None:
        """A one-line message over the dialog (its text escaped: pygame-gui reads markup)."""
        import html

        from game.files.text import printable

        if self.message is not None:
            self.message.kill()
        line = printable(" ".join(text.split()))[:300]
        rect = self.get_abs_rect()
        self.message = pygame_gui.windows.UIMessageWindow(
            pygame.Rect(rect.x + 10, rect.centery - 80, max(300, rect.width - 20), 160),
            html.escape(line),
            self.ui_manager,
            window_title="Cannot open that",
        )

    def kill(self) -> None:
        if self.message is not None:
            self.message.kill()
            self.message = None
        super().kill()

    def _change_directory_path(self, new_directory_path: Path) -> None:
        """Into a folder only (a FIFO picked from a typed path is not one)."""
        if Path(new_directory_path).is_dir():
            super()._change_directory_path(new_directory_path)

    def process_event(self, event: pygame.event.Event) -> bool:
        handled = super().process_event(event)
        path = self.current_file_path
        if (
            event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED
            and event.ui_element is self.file_path_text_line
            and self.alive()
            and path is not None
            and self.choosable(Path(path))
        ):
            self.pick(Path(path))
            return True
        return handled

    def choosable(self, path: Path | None) -> bool:
        """Whether OK would take ``path``: an existing file of ours, or (saving) a new name in
        an existing folder."""
        if path is None or not path.name:
            return False
        if self.unusable(path) is not None:
            return False
        if self.allow_existing_files_only:
            return path.is_file() and path.name.lower().endswith(self.suffixes)
        return not path.is_dir() and path.parent.is_dir()  # (a device is unusable: above)

    def pick(self, path: Path) -> None:
        """Answer with ``path``, as OK does, and close."""
        pygame.event.post(
            pygame.event.Event(
                pygame_gui.UI_FILE_DIALOG_PATH_PICKED,
                {"text": str(path), "ui_element": self, "ui_object_id": "#file_dialog"},
            )
        )
        self.kill()
