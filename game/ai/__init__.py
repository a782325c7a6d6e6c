"""The computer opponent (docs/ai.md): ``ComputerPlayer(side, level, seed).choose(table)``, from
its side's table (what that side may know), each decision a candidate-action loop over the
candidates of the phase (``candidates``) scored by shared valuation (``valuation``); and
self-play, for scenario balance."""

from .decision import Decision
from .opponent import LEVELS, ComputerPlayer

__all__ = ["LEVELS", "ComputerPlayer", "Decision"]
