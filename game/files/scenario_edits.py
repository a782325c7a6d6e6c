"""The edits a scenario editor makes, each a small named operation on the TOML document as a
person wrote it (tomlkit: comments, key order and spacing kept; a map row keeps its column
alignment). An edit checks only what it needs to be written at all (the hex is on the map, the
unit exists): every other check is the validator's, run on the edited document by
:class:`~.scenario_doc.ScenarioDoc`, the same as ``hexfire validate`` runs on a file."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import tomlkit
from tomlkit.items import AoT, String, StringType, Trivia
from tomlkit.toml_document import TOMLDocument

from game.board.board import MAX_MAP_SIDE
from game.board.hexes import parse_label, to_offset

_TOKEN = re.compile(r"\S+")
UNIT_FLAGS = ("facing", "turret", "concealed", "ce", "bore_sight")
"""The keys of a unit :class:`SetUnit` sets (its hex: :class:`MoveUnit`; its area:
:class:`SetSetupArea`)."""


class EditError(ValueError):
    """An edit that cannot be written: one line, ``field.path: reason``."""


class Edit:
    """One operation on a scenario document: :meth:`apply` changes it in place (or raises
    EditError, the document untouched); :attr:`title` names it for an Undo menu."""

    title = "edit"

    def apply(self, doc: TOMLDocument) -> None:
        raise NotImplementedError


# --- the map ------------------------------------------------------------------------------


def _map(doc: TOMLDocument) -> tuple[dict, list, int, int]:
    """The map table, its rows, columns and rows, when they can be edited."""
    m = doc.get("map")
    if not isinstance(m, dict) or not isinstance(m.get("hexes"), list):
        raise EditError("map.hexes: missing (the map must have its rows to be edited)")
    cols, rows, hexes = m.get("columns"), m.get("rows"), m["hexes"]
    if not isinstance(cols, int) or not isinstance(rows, int) or len(hexes) != rows:
        raise EditError("map: columns, rows and hexes disagree (fix the map first)")
    return m, hexes, int(cols), int(rows)


def set_token(row: str, col: int, token: str) -> str:
    """``row`` with its token ``col`` replaced, every other token where it stood (one space
    at least between two)."""
    spans = [(m.start(), m.group()) for m in _TOKEN.finditer(row)]
    if not 0 <= col < len(spans):
        raise IndexError(col)
    spans[col] = (spans[col][0], token)
    return _join(spans)


def _join(spans: Iterable[tuple[int, str]]) -> str:
    out = ""
    for start, tok in spans:
        out = out.ljust(start) if len(out) < start else out + (" " if out else "")
        out += tok
    return out


def _resized_row(row: str, columns: int, fill: str) -> str:
    """A row cut or lengthened to ``columns`` tokens, new ones at the row's column pitch."""
    spans = [(m.start(), m.group()) for m in _TOKEN.finditer(row)][:columns]
    pitch = spans[-1][0] - spans[-2][0] if len(spans) > 1 else 3
    while len(spans) < columns:
        spans.append(((spans[-1][0] + pitch) if spans else 0, fill))
    return _join(spans)


@dataclass(frozen=True)
class SetHexes(Edit):
    """Set the terrain code and/or the ground level of hexes (one hex, or a brush stroke as
    one edit); a hex keeps what is not given."""

    hexes: tuple[str, ...]
    terrain: str | None = None
    level: int | None = None

    @property
    def title(self) -> str:  # type: ignore[override]
        what = " and ".join(
            x
            for x in (
                f"terrain {self.terrain}" if self.terrain is not None else "",
                f"level {self.level}" if self.level is not None else "",
            )
            if x
        )
        where = self.hexes[0] if len(self.hexes) == 1 else f"{len(self.hexes)} hexes"
        return f"{what or 'nothing'} in {where}"

    def apply(self, doc: TOMLDocument) -> None:
        if self.terrain is not None and not re.fullmatch(r"[a-z]{1,8}", self.terrain):
            raise EditError(
                f"map.hexes: terrain {self.terrain[:20]!r}: expected a code (o, w, ...)"
            )
        if self.level is not None and not (type(self.level) is int and 0 <= self.level <= 9):
            raise EditError(f"map.hexes: level {self.level!r}: expected a ground level")
        _m, hexes, cols, rows = _map(doc)
        changes: dict[int, dict[int, str]] = {}
        for text in self.hexes:
            try:
                col, row = to_offset(parse_label(text))
            except ValueError as e:
                raise EditError(f"map.hexes: {e}") from None
            if not (0 <= col < cols and 0 <= row < rows):
                raise EditError(f"map.hexes: hex {text} is off the {cols} x {rows} map")
            tokens = str(hexes[row]).split()
            if len(tokens) != cols:
                raise EditError(f"map.hexes[{row}]: expected {cols} hexes (fix the row first)")
            old = changes.get(row, {}).get(col, tokens[col])
            code = old.rstrip("0123456789")
            level = old[len(code) :] if self.level is None else str(self.level or "")
            changes.setdefault(row, {})[col] = (
                code if self.terrain is None else self.terrain
            ) + level
        for row, cells in changes.items():
            text = str(hexes[row])
            for col, token in cells.items():
                text = set_token(text, col, token)
            hexes[row] = text


@dataclass(frozen=True)
class ResizeMap(Edit):
    """Make the map ``columns`` x ``rows``: columns and rows cut at the right and the bottom,
    or added there as ``fill`` (open ground). Units off the new map are the validator's to
    report."""

    columns: int
    rows: int
    fill: str = "o"

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"resize the map to {self.columns} x {self.rows}"

    def apply(self, doc: TOMLDocument) -> None:
        m, hexes, _cols, rows = _map(doc)
        for n, key in ((self.columns, "columns"), (self.rows, "rows")):
            if not 1 <= n <= MAX_MAP_SIDE:
                raise EditError(f"map.{key}: expected 1-{MAX_MAP_SIDE}, got {n}")
        for r in range(min(rows, self.rows)):
            hexes[r] = _resized_row(str(hexes[r]), self.columns, self.fill)
        for _ in range(rows, self.rows):
            hexes.append(_resized_row(str(hexes[0]) if rows else "", self.columns, self.fill))
            hexes[-1] = set_all(str(hexes[-1]), self.fill)
        for r in range(rows - 1, self.rows - 1, -1):
            del hexes[r]
        m["columns"], m["rows"] = self.columns, self.rows


def set_all(row: str, token: str) -> str:
    """Every token of ``row`` made ``token``, the alignment kept."""
    return _join((m.start(), token) for m in _TOKEN.finditer(row))


# --- units --------------------------------------------------------------------------------


def _units(doc: TOMLDocument) -> AoT:
    units = doc.get("units")
    if not isinstance(units, AoT):
        raise EditError("units: not an array of [[units]] tables")
    return units


def _unit(doc: TOMLDocument, unit_id: str) -> tuple[int, dict]:
    for i, u in enumerate(_units(doc) if "units" in doc else []):
        if isinstance(u, dict) and u.get("id") == unit_id:
            return i, u
    raise EditError(f"units: no unit {unit_id!r}")


@dataclass(frozen=True)
class AddUnit(Edit):
    """A new ``[[units]]`` table after the others, its keys in the format's order."""

    id: str
    type: str
    side: str
    hex: str
    facing: int = 0
    concealed: bool = False

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"add {self.id} ({self.type}) in {self.hex}"

    def apply(self, doc: TOMLDocument) -> None:
        if any(isinstance(u, dict) and u.get("id") == self.id for u in doc.get("units", [])):
            raise EditError(f"units: a unit {self.id!r} exists already")
        table = tomlkit.table()
        for key in ("id", "type", "side", "hex", "facing"):
            table[key] = getattr(self, key)
        if self.concealed:
            table["concealed"] = True
        if "units" not in doc:
            doc["units"] = tomlkit.aot()
        _units(doc).append(table)


@dataclass(frozen=True)
class MoveUnit(Edit):
    """Set a unit's hex."""

    id: str
    hex: str

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"move {self.id} to {self.hex}"

    def apply(self, doc: TOMLDocument) -> None:
        _unit(doc, self.id)[1]["hex"] = self.hex


@dataclass(frozen=True)
class RemoveUnit(Edit):
    """Remove a unit's table (a victory condition or lesson step naming it is then the
    validator's to report)."""

    id: str

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"remove {self.id}"

    def apply(self, doc: TOMLDocument) -> None:
        i, _ = _unit(doc, self.id)
        del _units(doc)[i]


@dataclass(frozen=True)
class SetUnit(Edit):
    """Set a unit's facing, turret, concealed, ce or bore_sight (a hex label: the scenario
    defender's set-up Bore Sighted Location, C6.42) (``None``: the key removed, the format's
    default)."""

    id: str
    key: str
    value: int | bool | str | None

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"{self.id}: {self.key} {'default' if self.value is None else self.value}"

    def apply(self, doc: TOMLDocument) -> None:
        if self.key not in UNIT_FLAGS:
            raise EditError(f"units: {self.key!r} is not set so (expected {', '.join(UNIT_FLAGS)})")
        table = _unit(doc, self.id)[1]
        if self.value is None:
            table.pop(self.key, None)
        else:
            table[self.key] = self.value


@dataclass(frozen=True)
class SetSetupArea(Edit):
    """Set the set-up area of units (HX-12): columns like ``"A-E"`` and/or rows like
    ``"1-10"``; neither: the area removed (the units' hexes fixed)."""

    units: tuple[str, ...]
    columns: str | None = None
    rows: str | None = None

    @property
    def title(self) -> str:  # type: ignore[override]
        area = ", ".join(x for x in (self.columns or "", self.rows or "") if x) or "none"
        return f"set-up area {area} for {', '.join(self.units)}"

    def apply(self, doc: TOMLDocument) -> None:
        tables = [_unit(doc, u)[1] for u in self.units]
        for table in tables:
            if self.columns is None and self.rows is None:
                table.pop("setup_area", None)
                continue
            area = tomlkit.inline_table()
            if self.columns is not None:
                area["columns"] = self.columns
            if self.rows is not None:
                area["rows"] = self.rows
            table["setup_area"] = area


# --- the scenario's own keys --------------------------------------------------------------


@dataclass(frozen=True)
class SetTop(Edit):
    """Set a top-level key: ``id``, ``title``, ``briefing`` (written as a multi-line string
    when it has several lines), ``date`` or ``turns``."""

    key: str
    value: str | int

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"set the {self.key}"

    def apply(self, doc: TOMLDocument) -> None:
        if self.key not in ("id", "title", "briefing", "date", "turns"):
            raise EditError(f"{self.key}: not a key set so")
        value: Any = self.value
        if isinstance(value, str) and "\n" in value:
            value = multiline(value)
        doc[self.key] = value


def multiline(value: str) -> String:
    """``value`` as a multi-line string that opens on a line of its own, as the shipped
    briefings do (TOML drops that first newline)."""
    raw = tomlkit.string(value, multiline=True).as_string()[3:-3]
    return String(StringType.MLB, value, raw if raw.startswith("\n") else "\n" + raw, Trivia())


def _sides(doc: TOMLDocument, side: str) -> dict:
    sides = doc.get("sides")
    if not isinstance(sides, dict) or side not in sides or not isinstance(sides[side], dict):
        raise EditError(f"sides: no side {side!r}")
    return sides


@dataclass(frozen=True)
class SetSideFlag(Edit):
    """Make ``side`` the one that moves first (``moves_first``) or the scenario defender
    (``defender``): the flag set on it and taken off the other."""

    side: str
    flag: str = "moves_first"

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"{self.side} {'moves first' if self.flag == 'moves_first' else 'defends'}"

    def apply(self, doc: TOMLDocument) -> None:
        if self.flag not in ("moves_first", "defender"):
            raise EditError(f"sides: {self.flag!r} is not a side's flag")
        sides = _sides(doc, self.side)
        for name, table in sides.items():
            if name == self.side:
                table[self.flag] = True
            elif isinstance(table, dict):
                table.pop(self.flag, None)


@dataclass(frozen=True)
class SetRules(Edit):
    """Set the rules system: ``to_kill = "asl"`` or ``"chart"``."""

    to_kill: str

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"rules: to_kill {self.to_kill}"

    def apply(self, doc: TOMLDocument) -> None:
        if "rules" not in doc:
            doc["rules"] = tomlkit.table()
        doc["rules"]["to_kill"] = self.to_kill


@dataclass(frozen=True)
class SetVictory(Edit):
    """Add a victory condition (``index`` None), replace the one at ``index``, or remove it
    (``condition`` None). ``condition`` holds the format's keys: side, kind, count, hexes,
    units, edge."""

    index: int | None
    condition: tuple[tuple[str, Any], ...] | None = None

    @property
    def title(self) -> str:  # type: ignore[override]
        verb = "add" if self.index is None else "remove" if self.condition is None else "set"
        return f"{verb} a victory condition"

    def apply(self, doc: TOMLDocument) -> None:
        if "victory" not in doc:
            doc["victory"] = tomlkit.aot()
        conditions = doc["victory"]
        if not isinstance(conditions, AoT):
            raise EditError("victory: not an array of [[victory]] tables")
        if self.index is not None and not 0 <= self.index < len(conditions):
            raise EditError(f"victory[{self.index}]: no such condition")
        if self.condition is None:
            if self.index is None:
                raise EditError("victory: nothing to add")
            del conditions[self.index]
            return
        table = tomlkit.table()
        for key, value in self.condition:
            table[key] = list(value) if isinstance(value, tuple) else value
        if self.index is None:
            conditions.append(table)
        else:
            conditions[self.index] = table
