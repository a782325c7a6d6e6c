"""The Map tab's work on the map: a brush stroke (a drag: a disc of the brush's size at every
hex the mouse passes, none skipped), a fill, a line from the hex where the button went down to
the one where it came up. Each paints a new board at once (:meth:`Board.painted`), drawn again
only where it changed; when the button comes up the stroke is one edit of the document, written
and validated off the frame."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from game.board.hexes import Hex, label
from game.files.scenario_edits import Edit, SetHexes
from game.ui.edit.brush import Paint, disc, fill, stroke_line
from game.ui.edit.panel import EditPanel
from game.ui.edit.sketch import Sketch
from game.ui.map.view import MapView


class Editor(Protocol):
    """What the brushwork reads and sets of the editor screen."""

    sketch: Sketch
    view: MapView
    panel: EditPanel
    unsaved: bool
    waiting: bool

    def submit(self, edit: Edit, repaints: bool = False) -> None: ...


class Brushwork:
    """The strokes of one editor screen."""

    def __init__(self, editor: Editor):
        self.editor = editor
        self.stroke: dict[str, Hex] | None = None
        """The hexes the stroke going on changed (None: no stroke)."""
        self.last: Hex | None = None
        self.line_from: Hex | None = None

    def _paint(self) -> Paint:
        codes = self.editor.sketch.board.catalogue.codes
        kind = (
            codes[self.editor.panel.terrain].id if self.editor.panel.terrain is not None else None
        )
        return Paint(kind, self.editor.panel.level)

    def press(self, at: str | None) -> None:
        if at is None or self.editor.waiting:
            return
        h = self.editor.sketch.board.parse(at)
        if self.editor.panel.tool == "paint":
            self.stroke, self.last = {}, None
            self.paint_at(at)
        elif self.editor.panel.tool == "line":
            self.line_from = h
        else:
            self.paint_hexes(fill(self.editor.sketch.board, h))
            self.finish()

    def release(self, at: str | None) -> None:
        if self.editor.panel.tool == "line" and self.line_from is not None:
            if at is not None:
                self.paint_hexes(
                    stroke_line(
                        self.editor.sketch.board, self.line_from, self.editor.sketch.board.parse(at)
                    )
                )
            self.line_from = None
        self.finish()

    def paint_at(self, at: str | None) -> None:
        """The brush at hex ``at`` (and along the way from the last hex: a fast drag skips none)."""
        if at is None:
            return
        board = self.editor.sketch.board
        h = board.parse(at)
        path = stroke_line(board, self.last, h) if self.last is not None else [h]
        self.last = h
        hexes: dict[Hex, None] = {}
        for step in path:
            hexes.update(dict.fromkeys(disc(board, step, self.editor.panel.brush)))
        self.paint_hexes(list(hexes))

    def paint_hexes(self, hexes: list[Hex]) -> list[Hex]:
        """Paint ``hexes`` on the board on screen and draw them again; the ones it changed."""
        board = self.editor.sketch.board
        paint = self._paint()
        changed = [h for h in hexes if paint.differs(board, board.index(h))]
        if not changed:
            return changed
        indices = np.fromiter((board.index(h) for h in changed), np.intp, len(changed))
        self.editor.sketch.board = board.painted(indices, paint.kind, paint.level)
        self.editor.view.renderer.board = self.editor.view.minimap.board = self.editor.sketch.board
        self.editor.view.renderer.repaint(changed, self.editor.view.camera.zoom)
        if self.stroke is None:
            self.stroke = {}
        self.stroke.update({label(h): h for h in changed})
        self.editor.unsaved = True
        return changed

    def finish(self) -> None:
        """The stroke ends: one edit of the document, written and validated off the frame."""
        stroke, self.stroke, self.last = self.stroke, None, None
        if not stroke:
            return
        hexes = tuple(label(h) for h in sorted(stroke.values(), key=self.editor.sketch.board.index))
        self.editor.submit(SetHexes(hexes, self.editor.panel.terrain, self.editor.panel.level))
