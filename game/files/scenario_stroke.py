"""A brush stroke on the board an editor shows, in memory: the :class:`.scenario_edits.SetHexes`
edit the stroke writes to the document, applied to the scenario's parsed board without writing
or reading the file again (on the 200 x 200 map a full edit and parse takes some 0.3 s; the
stroke a few milliseconds, inside a 16 ms frame). The board it gives is the one the edited
document parses to (tests/files/test_scenario_stroke.py checks it so)."""

from __future__ import annotations

import numpy as np

from game.board import Board
from game.board.hexes import parse_label, to_offset

from .scenario_edits import EditError, SetHexes


def apply_stroke(board: Board, stroke: SetHexes) -> Board:
    """The board with ``stroke`` painted (a new board; ``board`` unchanged); EditError, as
    the edit's own, when it cannot be painted (an unknown code, a level off the scale, a hex
    off the map)."""
    codes = board.catalogue.codes
    if stroke.terrain is not None and stroke.terrain not in codes:
        raise EditError(
            f"map.hexes: terrain {stroke.terrain[:20]!r}: expected a code ({', '.join(codes)})"
        )
    top = board.catalogue.max_level
    if stroke.level is not None and not (type(stroke.level) is int and 0 <= stroke.level <= top):
        raise EditError(f"map.hexes: level {stroke.level!r}: expected a ground level 0-{top}")
    indices = np.empty(len(stroke.hexes), dtype=np.int64)
    for k, text in enumerate(stroke.hexes):
        try:
            col, row = to_offset(parse_label(text))
        except ValueError as e:
            raise EditError(f"map.hexes: {e}") from None
        if not (0 <= col < board.columns and 0 <= row < board.rows):
            raise EditError(f"map.hexes: hex {text} is off the {board.columns} x {board.rows} map")
        indices[k] = row * board.columns + col
    terrain = None if stroke.terrain is None else codes[stroke.terrain].id
    return board.painted(indices, terrain, stroke.level)
