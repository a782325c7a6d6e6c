"""What a closed screen leaves (issue 44, item 7). A yes/no question dies with the screen that
asked it: the editor's "Resume the draft" stayed on screen once the editor had closed, its
Resume still calling the closed editor, and the window kept that editor (its document, map and
tiles) to its end. Its kept texts go too."""

from __future__ import annotations

import gc
import shutil
import weakref
from pathlib import Path

import pygame
from ui_driver import click, key

from game.ui.edit.screen import EditScene
from game.ui.scenes.routes import Edit, Push
from game.ui.scenes.stack import Scene

ROOT = Path(__file__).resolve().parents[2]


def _shown(app, dialog) -> bool:
    return dialog.alive() and dialog in app.ui.get_window_stack().get_full_stack()


def test_the_editors_resume_the_draft_question_closes_with_the_editor(app, tmp_path):
    path = tmp_path / "tutorial-duel.toml"
    shutil.copyfile(ROOT / "scenarios" / "tutorial-duel.toml", path)
    app.go(Push(Edit(path)))
    app.pump()
    first = app.scene
    assert isinstance(first, EditScene)
    sx, sy = first.view.camera.hex_to_screen(first.sketch.board.parse("A1"))
    click(app, (int(sx), int(sy)))  # painted: a draft kept
    assert first.unsaved
    first.close()
    app.pop()  # gone without saving (a crash leaves the draft as this does)
    app.go(Push(Edit(path)))
    app.pump()
    editor = app.scene
    assert isinstance(editor, EditScene)
    (dialog,) = app.questions  # "Resume the draft"
    assert _shown(app, dialog)
    key(app, pygame.K_q, "", pygame.KMOD_CTRL)  # the editor closes (nothing unsaved in it)
    assert editor not in app.scenes
    assert not _shown(app, dialog) and not app.questions and not app.askers
    text = editor.doc.text
    click(app, dialog.confirm_button.rect.center)  # where its Resume was
    assert editor.doc.text == text and not editor.unsaved  # the closed editor not called
    gone = weakref.ref(editor)
    del editor, first, dialog
    gc.collect()
    assert gone() is None  # nothing keeps the closed editor


class Asking(Scene):
    def __init__(self) -> None:
        self.answers: list[str] = []

    def enter(self) -> None:
        if not self.answers:  # (entered again when the screen over it closes)
            self.answers.append("asked")
            self.app.ask("Go on?", "A question", "Yes", lambda: self.answers.append("yes"))


def test_a_question_goes_with_its_screen_and_another_screens_stays(app):
    below, above = Asking(), Scene()
    app.push(below)
    (mine,) = app.questions
    app.push(above)
    app.ask("And this?", "Another", "Yes", lambda: None)
    theirs = next(d for d in app.questions if d is not mine)
    app.pop()  # the screen on top closes: its question goes, the one below stays
    app.pump()
    assert not _shown(app, theirs) and _shown(app, mine)
    click(app, mine.confirm_button.rect.center)
    assert below.answers == ["asked", "yes"] and not app.questions and not app.askers


def test_the_texts_a_closed_screen_drew_go_with_it(app):
    """The map's kept texts (up to 16 MiB: hover sentences of a closed editor's map among
    them) are let go when the window goes to another screen (issue 44, item 7)."""
    from game.ui.map.render import FONTS

    app.replace(Scene())
    FONTS.text("BB38 (Open Ground, level 1): checking", 14, (255, 255, 255))
    assert FONTS._texts and FONTS._text_bytes > 0
    app.replace(Scene())
    assert not FONTS._texts and FONTS._text_bytes == 0
