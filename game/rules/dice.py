"""Dice: the only source of random numbers in hexfire.

A DR is two dice kept apart, one white and one colored (hit location, RD-2, and multiple ROF,
RD-4, read the colored die); a dr is one die. ``Dice`` draws from one seeded generator and counts
its draws, so that a replay reproduces every roll; ``FixedDice`` plays back given faces in tests.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class DR:
    """A dice roll of two dice: the white and the colored die.

    >>> dr = DR(5, 2)
    >>> dr.total, str(dr)
    (7, '5+2')
    """

    white: int
    colored: int

    @property
    def total(self) -> int:
        return self.white + self.colored

    def __str__(self) -> str:
        return f"{self.white}+{self.colored}"


SEEDS = range(0, 2**63)
"""The seeds a game accepts."""
_MIX = 1_000_003
_MASK = 2**64 - 1


class Dice:
    """Six-sided dice over one seeded generator (PCG64); ``draws`` counts the dice drawn and
    ``trail`` folds the seed and every face drawn into one number, so that a replay's checks
    prove which dice were rolled, not only how many.

    The same seed rolls the same dice (a replay reproduces every roll):

    >>> dice = Dice(1944)
    >>> dice.roll(), dice.draws
    (DR(white=4, colored=2), 2)
    >>> Dice(1944).roll() == DR(4, 2)
    True
    >>> Dice(-1)
    Traceback (most recent call last):
    ...
    ValueError: a seed is an integer 0 to 2**63 - 1, not -1
    """

    def __init__(self, seed: int):
        if not isinstance(seed, int) or isinstance(seed, bool) or seed not in SEEDS:
            raise ValueError(f"a seed is an integer 0 to 2**63 - 1, not {seed!r}")
        self.seed = seed
        self._rng = np.random.Generator(np.random.PCG64(seed))
        self.draws = 0
        self.trail = seed & _MASK

    def copy(self) -> Dice:
        """Dice that go on from here apart from these: the same faces next, the same draws
        and trail (a copied game's dice, for a search or a snapshot).

        >>> dice = Dice(7)
        >>> twin = dice.copy()
        >>> [twin.die() for _ in range(3)] == [dice.die() for _ in range(3)]
        True
        """
        new = Dice.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._rng = np.random.Generator(copy.copy(self._rng.bit_generator))
        return new

    def die(self) -> int:
        """A dr: one die, 1-6."""
        face = int(self._rng.integers(1, 7))
        self.draws += 1
        self.trail = (self.trail * _MIX + face) & _MASK
        return face

    def roll(self) -> DR:
        """A DR: white die first, then colored."""
        return DR(self.die(), self.die())


class FixedDice(Dice):
    """Dice that return the given faces in order (tests); runs out loudly.

    >>> dice = FixedDice([6, 1])
    >>> dice.roll()
    DR(white=6, colored=1)
    >>> dice.die()
    Traceback (most recent call last):
    ...
    IndexError: FixedDice ran out after 2 dice
    """

    def __init__(self, faces: Iterable[int]):
        self.seed = -1
        self.draws = 0
        self.trail = 0
        self._faces = list(faces)
        for f in self._faces:
            if not 1 <= f <= 6:
                raise ValueError(f"a die shows 1-6, not {f}")

    def die(self) -> int:
        if self.draws >= len(self._faces):
            raise IndexError(f"FixedDice ran out after {self.draws} dice")
        f = self._faces[self.draws]
        self.draws += 1
        self.trail = (self.trail * _MIX + f) & _MASK
        return f

    def copy(self) -> FixedDice:
        new = FixedDice.__new__(FixedDice)
        new.__dict__.update(self.__dict__)  # the faces are never changed: shared
        return new

    @property
    def remaining(self) -> int:
        return len(self._faces) - self.draws
