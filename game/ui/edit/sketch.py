"""What the map view draws of a scenario that has no game yet: a view-like value made from the
editor's document (:class:`~game.files.scenario_doc.ScenarioDoc`): its map as an in-memory
board (each brush stroke a new one, :meth:`Board.painted`), and its units as the view's
:class:`~game.engine.view.UnitView`. It answers the few questions the map view asks of a
table (the board, the units, the version, the phase) and no rules question: nothing is in
play."""

from __future__ import annotations

from typing import Any

import numpy as np

from game.board import Board
from game.board.board import MapError
from game.board.hexes import Hex, label
from game.engine.catalogue import unit_types
from game.engine.view import UnitView
from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_schema import setup_area

BLANK_ROWS = 12
BLANK_COLUMNS = 20


def blank_text(columns: int = BLANK_COLUMNS, rows: int = BLANK_ROWS) -> str:
    """The TOML of a new scenario: open ground, two sides, no unit yet (the validator then
    says what is missing)."""
    row = "  ".join(["o"] * columns)
    hexes = "\n".join(f'  "{row}",' for _ in range(rows))
    return (
        "# hexfire scenario, made in the editor. The format: docs/scenario-format.md.\n\n"
        'id = "new-scenario"\ntitle = "New scenario"\n'
        'briefing = """\nWhat the players are told.\n"""\ndate = "1944-06"\nturns = 6\n\n'
        '[rules]\nto_kill = "asl"\n\n'
        f"[map]\ncolumns = {columns}\nrows = {rows}\nhexes = [\n{hexes}\n]\n\n"
        '[sides.german]\nnationality = "german"\ndefender = true\n\n'
        '[sides.russian]\nnationality = "russian"\nmoves_first = true\n'
    )


def board_of(doc: ScenarioDoc | dict) -> Board:
    """The board of the document's ``[map]`` (a plain TOML table too; MapError with its path
    when it cannot be built)."""
    top: Any = doc.doc if isinstance(doc, ScenarioDoc) else doc
    table: Any = top.get("map")
    plain = table.unwrap() if hasattr(table, "unwrap") else table
    date = top.get("date")
    month = int(str(date)[5:7]) if isinstance(date, str) and len(date) == 7 else None
    if not isinstance(plain, dict):
        raise MapError("map", "missing (expected a [map] table)")
    return Board.from_map_table(plain, month=month)


def unit_views(doc: ScenarioDoc | dict, board: Board) -> list[UnitView]:
    """The document's units (a plain TOML table's too) as counters (one not drawable yet, an
    unknown type or a hex off the map, is left out: the validator names it)."""
    types = unit_types()
    out = []
    top: Any = doc.doc if isinstance(doc, ScenarioDoc) else doc
    units = top.get("units", [])
    for raw in units if isinstance(units, list) else []:
        if not isinstance(raw, dict):
            continue
        entry: dict[str, Any] = raw.unwrap() if hasattr(raw, "unwrap") else dict(raw)
        t = types.get(str(entry.get("type", "")))
        try:
            at = board.parse(str(entry.get("hex", "")))
        except ValueError:
            continue
        if t is None or not isinstance(entry.get("id"), str) or not board.contains(at):
            continue
        facing = entry.get("facing", 0)
        facing = facing if isinstance(facing, int) and 0 <= facing < 6 else 0
        out.append(
            UnitView(
                id=entry["id"],
                side=str(entry.get("side", "")),
                hex=label(at),
                concealed=bool(entry.get("concealed", False)),
                type=t.key,
                name=t.name,
                category=t.category,
                facing=facing,
                turret=facing,
                turreted=t.turret,
                has_gun=t.gun is not None,
                is_vehicle=t.category in ("afv", "vehicle"),
                bore_sight=str(entry["bore_sight"]) if entry.get("bore_sight") else None,
            )
        )
    return out


def setup_areas(doc: ScenarioDoc | dict, board: Board) -> dict[str, list[Hex]]:
    """Each side's set-up area (HX-12): the hexes where one of its units may set up, read from
    the document's units (a plain TOML table's too) as they are, so that an area shows while
    other parts of the scenario still have errors (a unit's area that cannot be read is left
    out: the validator names it)."""
    top: Any = doc.doc if isinstance(doc, ScenarioDoc) else doc
    units, sides = top.get("units", []), top.get("sides")
    known = set(sides) if isinstance(sides, dict) else set()
    col = np.arange(board.size) % board.columns
    row = np.arange(board.size) // board.columns
    masks: dict[str, np.ndarray] = {}
    for raw in units if isinstance(units, list) else []:
        entry = raw.unwrap() if hasattr(raw, "unwrap") else raw
        if not isinstance(entry, dict) or entry.get("side") not in known:
            continue  # a side the [sides] table does not name: the validator says so
        value = entry.get("setup_area")
        try:
            area = setup_area(value) if isinstance(value, dict) else None
        except (ValueError, TypeError, AttributeError):
            continue
        if area is None:
            continue
        mask = np.ones(board.size, dtype=bool)
        if area.columns:
            mask &= (area.columns[0] <= col) & (col <= area.columns[1])
        if area.rows:
            mask &= (area.rows[0] <= row) & (row <= area.rows[1])
        side = entry["side"]
        masks[side] = masks[side] | mask if side in masks else mask
    return {side: [board.hex_at(int(i)) for i in np.flatnonzero(m)] for side, m in masks.items()}


class Sketch:
    """The document as the map view reads a table: the board (a new one each stroke of the
    editor's brush), the units, a version that changes with each edit."""

    side: str | None = None
    to_act: str | None = None
    phasing: str | None = None
    phase = "edit"

    def __init__(self, doc: ScenarioDoc):
        self.doc = doc
        self.version = 0
        self.board = board_of(doc)
        self._units = unit_views(doc, self.board)
        self.areas: dict[str, list[Hex]] = {}
        """Each side's set-up area, as the document last validated gave them."""

    def units(self) -> list[UnitView]:
        return self._units

    def set_units(self, units: list[UnitView]) -> None:
        """The units read again from the document (off the frame): a new version."""
        self._units = units
        self.version += 1

    def tracking(self) -> None:
        """No vehicle is moving: nothing is in play."""
        return None

    def setup_area(self, side: str | None = None) -> list[str]:
        del side
        return []

    def setup_hexes(self, unit_id: str) -> list[str]:
        del unit_id
        return []

    # --- the map view's source (one table for every side) -----------------------------------

    def table(self, side: str | None) -> Sketch:
        del side
        return self

    def refresh(self) -> None:
        """Nothing to read again (the editor calls :meth:`reread` after each change)."""
