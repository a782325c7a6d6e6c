"""The computer opponent (docs/ai.md): ``ComputerPlayer(side, level, seed).choose(game)``,
from what that side may know; and self-play, for scenario balance."""

from .opponent import LEVELS, ComputerPlayer, Decision

__all__ = ["LEVELS", "ComputerPlayer", "Decision"]
