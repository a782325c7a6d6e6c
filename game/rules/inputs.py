"""The inputs of one attack, described once (issue 39): each field of :class:`Attack` and of
its :class:`Situation` says in its metadata how ``hexfire odds`` sets it: a flag of its own
(:func:`flag`: its help, its choices, its limits and the rule behind them), a value worked out
from other flags (:func:`derived`), or one only the game knows (:func:`engine`). The command
builds its flags from these, so a new case added to the rules is a flag the day it lands, and
a test fails for a field that says none of the three.

>>> from dataclasses import fields
>>> from game.rules.to_hit import Situation
>>> described(fields(Situation)[2])
Flag(help='the target entered a new hex this player turn and has stopped (Case J, C6.1)', ...)
"""

from __future__ import annotations

from dataclasses import Field, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Flag:
    """A flag of its own: ``--name`` (the field's name with dashes, or ``name``)."""

    help: str
    kind: type = bool
    choices: tuple[Any, ...] | None = None
    limits: tuple[float, float, str] | None = None
    """The lowest and highest value, and why (the rule that bounds it)."""
    required: bool = False
    name: str | None = None

    def flag_for(self, field_name: str) -> str:
        """The flag's spelling.

        >>> Flag("AF of the aspect hit", kind=int, name="af").flag_for("af_hull")
        '--af'
        >>> Flag("in Motion").flag_for("was_motion")
        '--was-motion'
        """
        return "--" + (self.name or field_name).replace("_", "-")


@dataclass(frozen=True, slots=True)
class Derived:
    """A value ``hexfire odds`` works out from other flags (named), and how."""

    flags: str
    how: str


@dataclass(frozen=True, slots=True)
class Engine:
    """A value only the game knows (from the board, the units, the phase), and why."""

    why: str


Input = Flag | Derived | Engine


def flag(help: str, **kw: Any) -> dict[str, Input]:
    """A field's metadata: set by a flag of its own.

    >>> flag("Case M", kind=bool)["input"].help
    'Case M'
    """
    return {"input": Flag(help, **kw)}


def derived(flags: str, how: str) -> dict[str, Input]:
    """A field's metadata: worked out from other flags.

    >>> derived("--phase", "no Multiple ROF in the Advancing Fire Phase")["input"].flags
    '--phase'
    """
    return {"input": Derived(flags, how)}


def engine(why: str) -> dict[str, Input]:
    """A field's metadata: only the game knows it.

    >>> engine("the board's terrain")["input"].why
    "the board's terrain"
    """
    return {"input": Engine(why)}


def described(f: Field) -> Input | None:
    """How ``hexfire odds`` sets the field ``f`` (None: it does not say: a test fails).

    >>> from dataclasses import fields
    >>> from game.rules.attack import Attack
    >>> described(next(f for f in fields(Attack) if f.name == "af_hull")).flag_for("af_hull")
    '--af'
    """
    d = f.metadata.get("input")
    return d if isinstance(d, Flag | Derived | Engine) else None
