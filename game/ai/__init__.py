"""The computer opponent (docs/ai.md): ``ComputerPlayer(side, level, seed).choose(table)``,
from its side's table (what that side may know); and self-play, for scenario balance."""

from .opponent import LEVELS, ComputerPlayer, Decision

__all__ = ["LEVELS", "ComputerPlayer", "Decision"]
