"""The file dialog of the start screen and the play screen: pygame-gui's, for hexfire's files.

It lists folders and only the files hexfire opens (a scenario ``.toml``, a save ``.json``): no
lock file (``.json.lock``), no temporary file, nothing else. A FIFO, a socket or a device is
neither a folder nor a file here (pygame-gui listed them as folders, and opening one raised
``NotADirectoryError`` out of the window). Enter in the path line is OK, as a player expects."""

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
        if self.allow_existing_files_only:
            return path.is_file() and path.name.lower().endswith(self.suffixes)
        # a new name, or a file of ours to write over: never a device, a FIFO or a folder
        return (not path.exists() or path.is_file()) and path.parent.is_dir()

    def pick(self, path: Path) -> None:
        """Answer with ``path``, as OK does, and close."""
        pygame.event.post(
            pygame.event.Event(
                pygame_gui.UI_FILE_DIALOG_PATH_PICKED,
                {"text": str(path), "ui_element": self, "ui_object_id": "#file_dialog"},
            )
        )
        self.kill()
