"""The board layer: hex coordinates (RD-6), terrain (RD-10), the map and LOS (RD-9)."""

from .board import Board, MapError
from .hexes import Hex, label, parse_label
from .los import LosResult, los

__all__ = ["Board", "Hex", "LosResult", "MapError", "label", "los", "parse_label"]
