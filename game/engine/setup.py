"""A scenario in the engine's terms: the board, the sides, the units, the turn limit, the victory
conditions (RD-13) and the To Kill system. The files layer builds it from a scenario TOML."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Victory:
    """One victory condition (RD-13).

    ``eliminate``: ``side`` wins at once when it has eliminated ``count`` enemy AFVs (abandoned
    and burning count), or every unit of ``units`` if given. ``hold``: at game end, ``side``
    wins if it holds every hex of ``hexes`` (a unit of its own there, none of the enemy).
    ``exit``: ``side`` wins at once when ``count`` of its units have left by ``edge``.
    ``points``: at game end, ``side`` wins with at least ``count`` points for enemy units
    eliminated (hexfire: an AFV 2, anything else 1).
    """

    side: str
    kind: str
    count: int = 0
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    edge: str | None = None

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
            return f"{self.side}: exit {plural(self.count, 'unit')} off the {self.edge} edge"
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
