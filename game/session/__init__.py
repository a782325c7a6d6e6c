"""The session: a game, its autosave and undo, and its seats; each seat sees the game only
through its side's table (its view and the questions it may ask). Between the engine (with the
computer player and the files) and the screen (docs/architecture.md "Seats and views")."""

from game.engine.table import Snapshot, Table

from .session import ComputerChoice, ComputerMove, Seat, Session, Step

__all__ = ["ComputerChoice", "ComputerMove", "Seat", "Session", "Snapshot", "Step", "Table"]
