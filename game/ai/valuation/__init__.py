"""The computer's shared valuation: what an enemy and a shot are worth (``targets``), what a
hex is worth towards the victory conditions (``objective``) and to a moving vehicle
(``hexes``), the danger to its units (``danger``, the maps it keeps: ``maps``), the enemy's way
in (``approach``), time and distance (``reach``), and what a level-3 playout's end is worth
(``playout``). Every candidate action (game/ai/candidates/) scores by it."""

from .danger import IMMOBILIZED_WEIGHT, removal_risk
from .playout import WIN, Valuation
from .reach import HEXES_PER_MP, in_time, phases_left, to_edge

__all__ = [
    "HEXES_PER_MP",
    "IMMOBILIZED_WEIGHT",
    "WIN",
    "Valuation",
    "in_time",
    "phases_left",
    "removal_risk",
    "to_edge",
]
