"""The session: a game, its autosave and undo, and its seats; each seat sees the game only
through its side's table (its view and the questions it may ask). Between the engine (with the
computer player and the files) and the screen (docs/architecture.md "Seats and views")."""

from .session import ComputerMove, Seat, Session, Step
from .table import Snapshot, Table

__all__ = ["ComputerMove", "Seat", "Session", "Snapshot", "Step", "Table"]
