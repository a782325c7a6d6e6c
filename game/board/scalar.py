"""The simple reference a benchmark measures the game's LOS against: every question answered by
tracing the scalar LOS (:func:`.los.los`) again, with the same interface as the all-pairs
:class:`.visibility.Visibility` and the on-demand :class:`.viewsheds.Viewsheds`, so a game can
play on any of the three (:class:`.viewsheds.Sight`: ``hexfire bench engine`` plays its recorded
game again on one)."""

from __future__ import annotations

import numpy as np

from .board import Board
from .los import los


class ScalarSight:
    """RD-9 by the scalar reference, nothing kept: slow, and plainly right."""

    def __init__(self, board: Board):
        self.board = board

    def sees(self, a: int, b: int) -> bool:
        board = self.board
        return los(board, board.hex_at(a), board.hex_at(b)).clear

    def hindrance_between(self, a: int, b: int) -> int:
        board = self.board
        return los(board, board.hex_at(a), board.hex_at(b)).hindrance

    def seen_from(self, a: int) -> tuple[np.ndarray, np.ndarray]:
        """What index ``a`` sees, one scalar trace per hex: (clear, Case R hindrance)."""
        size = self.board.size
        clear = np.ones(size, dtype=bool)
        hind = np.zeros(size, dtype=np.int8)
        for b in range(size):
            if b != a:
                clear[b] = self.sees(a, b)
                hind[b] = self.hindrance_between(a, b) if clear[b] else 0
        return clear, hind

    def update(self, changed: list[int], only_added: bool = False) -> int:
        """Markers changed: nothing is kept, so nothing to redo."""
        return 0
