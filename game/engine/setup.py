"""A scenario in the engine's terms: the board, the sides, the units, the turn limit, the victory
conditions (RD-13) and the To Kill system. The files layer builds it from a scenario TOML."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.board import Board
from game.board.hexes import Hex, column_letters, to_offset
from game.rules.words import plural

VICTORY_KINDS = ("eliminate", "hold", "exit", "points")
EDGES = ("north", "south", "east", "west")


@dataclass(frozen=True, slots=True)
class SetupArea:
    """Where a unit may be placed at set-up (HX-12): columns and rows, 0-based and inclusive;
    None: any."""

    columns: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None

    def contains(self, h: Hex) -> bool:
        col, row = to_offset(h)
        if self.columns and not self.columns[0] <= col <= self.columns[1]:
            return False
        return not (self.rows and not self.rows[0] <= row <= self.rows[1])

    def describe(self) -> str:
        parts = []
        if self.columns:
            a, b = self.columns
            parts.append(f"columns {column_letters(a)}-{column_letters(b)}")
        if self.rows:
            parts.append(f"rows {self.rows[0] + 1}-{self.rows[1] + 1}")
        return ", ".join(parts) or "anywhere"


@dataclass(frozen=True, slots=True)
class UnitSetup:
    id: str
    type: str
    side: str
    hex: str
    facing: int = 0
    turret: int | None = None
    concealed: bool = False
    ce: bool = False
    area: SetupArea | None = None
    """Its set-up area: the player may place it anywhere in it (HX-12); None: the scenario
    fixes its hex."""
    bore_sight: str | None = None
    """The scenario defender's set-up Bore Sighted Location (C6.41-.42), as the BoreSight
    set-up action would record it; dropped if the unit is placed elsewhere at set-up."""


EXIT_ONLY = {"vehicle": "vehicle", "afv": "AFV"}
"""What an exit condition may count alone (``only``), by its name in a line."""


def counts_as(only: str | None, category: str | None) -> bool:
    """Whether a unit of ``category`` leaving counts for an exit condition of ``only``
    (RD-13, HX-20): every unit, or a vehicle (an AFV is one), or an AFV."""
    if only == "afv":
        return category == "afv"
    return only is None or category in ("afv", "vehicle")


@dataclass(frozen=True, slots=True)
class Victory:
    """One victory condition (RD-13).

    ``eliminate``: ``side`` wins at once when it has eliminated ``count`` enemy AFVs (abandoned
    and burning count), or every unit of ``units`` if given. ``hold``: at game end, ``side``
    wins if it holds every hex of ``hexes`` (a unit of its own there, none of the enemy).
    ``exit``: ``side`` wins at once when ``count`` of its units have left by ``edge``; with
    ``only`` ("vehicle" or "afv"), ``count`` of its vehicles or its AFVs (a scenario's choice
    where Infantry, which nothing in this game can stop (002, RD-12), or a fast unarmored
    vehicle would make the exit cheap, HX-20).
    ``points``: at game end, ``side`` wins with at least ``count`` points for enemy units
    eliminated (hexfire: an AFV 2, anything else 1).
    """

    side: str
    kind: str
    count: int = 0
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    edge: str | None = None
    only: str | None = None

    def counts(self, unit: Any) -> bool:
        """Whether ``unit`` (a side's view of it, read by ``get``) leaving by this exit
        condition's edge would count towards it (RD-13): any unit, or with ``only`` a vehicle
        or an AFV; a "?" may be one."""
        if self.kind != "exit" or self.edge is None:
            return False
        return unit.get("type") == "?" or counts_as(self.only, unit.get("category"))

    def describe(self) -> str:
        if self.kind == "eliminate":
            what = (
                f"units {', '.join(self.units)}"
                if self.units
                else f"{plural(self.count, 'enemy AFV')}"
            )
            return f"{self.side}: eliminate {what}"
        if self.kind == "hold":
            return f"{self.side}: hold {', '.join(self.hexes)} at game end"
        if self.kind == "exit":
            what = plural(self.count, EXIT_ONLY.get(self.only or "", "unit"))
            return f"{self.side}: exit {what} off the {self.edge} edge"
        return (
            f"{self.side}: {self.count} points at game end (an enemy AFV knocked out is 2, "
            "any other unit 1)"
        )


@dataclass(frozen=True)
class Setup:
    """Everything a game starts from."""

    board: Board
    sides: tuple[str, str]
    first: str
    """The side that moves first in every game turn."""
    defender: str
    """The scenario defender: it sets up first and may Bore Sight (C6.41)."""
    turns: int
    units: tuple[UnitSetup, ...]
    victory: tuple[Victory, ...] = ()
    to_kill: str = "asl"
    title: str = ""
    year: int | None = None
    """The scenario's year (its date), for the special ammunition's depletion (RD-17)."""

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]
