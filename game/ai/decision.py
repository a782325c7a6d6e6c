"""What the computer decides (a :class:`Decision`: the action and why, in plain words), a
candidate action's offer of one (an :class:`Option`, scored), and the stable seeds its random
sources are drawn from."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from game.engine.actions import Action


@dataclass(frozen=True)
class Decision:
    """What the computer does, and why in plain words (the log and the screen show it).

    ``plan``: level 3's plan for the phase and its trial runs' figures. They come from
    playouts on its own side's whole knowledge, its secrets too (what its "?" are, where it
    Bore Sighted: RD-11, C6.42), so they are never shown to the other side."""

    action: Action
    why: str
    plan: str = ""


@dataclass(frozen=True)
class Option:
    """A candidate action's offer: its decision and its score (at most the candidate's own
    highest, :attr:`Candidate.score`)."""

    score: float
    decision: Decision


def mix(*parts: int) -> int:
    """A stable seed from integers (``hash`` of a tuple of ints is stable, but say it)."""
    h = 1469598103934665603
    for p in parts:
        h = ((h ^ (p & 0xFFFFFFFFFFFFFFFF)) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def text(word: str) -> int:
    """A stable integer of a word (``hash`` of a str changes from run to run)."""
    return zlib.crc32(word.encode())


def shot_words(shot) -> str:
    """A shot in a player's words: its odds as the odds panel shows them (a "?": To Hit only,
    RD-11)."""
    if shot.p_kill is None:
        return f"fires at a concealed unit: {100 * shot.p_hit:.0f}% to hit"
    return f"fires: {100 * shot.p_hit:.0f}% to hit, {100 * shot.p_kill:.0f}% to knock it out"
