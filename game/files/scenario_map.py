"""A new ``[map]`` put into a scenario that exists (``hexfire convert MAP.tmx OUT.toml --into
SCENARIO.toml``, docs/tiled.md): the scenario kept as written (its tomlkit document: comments,
key order and spacing), only its ``[map]`` table replaced, refused in one located line when a
unit, a Bore Sighted Location or a set-up area would fall off the new map, or the scenario
would not validate on it."""

from __future__ import annotations

import tomlkit

from game.board.hexes import parse_label, to_offset

from .scenario import ScenarioError, parse_scenario
from .scenario_doc import ScenarioDoc
from .scenario_read import parse_toml, where
from .scenario_schema import Area


def _off_map(data: dict, columns: int, rows: int) -> tuple[str, str] | None:
    """The first unit field (its path and why) that falls off a ``columns`` x ``rows`` map."""
    units = data.get("units")
    for i, u in enumerate(units if isinstance(units, list) else []):
        if not isinstance(u, dict):
            continue
        for key in ("hex", "bore_sight"):
            text = u.get(key)
            if not isinstance(text, str):
                continue
            try:
                col, row = to_offset(parse_label(text))
            except ValueError:
                continue  # not a hex: the validator's to say
            if not (0 <= col < columns and 0 <= row < rows):
                return f"units[{i}].{key}", f"{text} is off the new {columns} x {rows} map"
        area = u.get("setup_area")
        if not isinstance(area, dict):
            continue
        try:
            a = Area.model_validate(area).area()
        except (ValueError, TypeError):
            continue
        if (a.columns and a.columns[1] >= columns) or (a.rows and a.rows[1] >= rows):
            return (
                f"units[{i}].setup_area",
                f"{a.describe()} falls off the new {columns} x {rows} map",
            )
    return None


def map_into(text: str, name: str, map_text: str) -> str:
    """The scenario ``text`` (file ``name``) with its ``[map]`` table replaced by the one of
    ``map_text`` (a ``[map]`` table as :func:`.tiled.map_toml` writes it), every other byte
    kept. ScenarioError with one located line when it cannot be."""
    doc = ScenarioDoc(text, name)
    data = parse_toml(text, name)
    new = tomlkit.parse(map_text)["map"]
    columns, rows = int(new["columns"]), int(new["rows"])
    off = _off_map(data, columns, rows)
    if off is not None:
        raise ScenarioError([f"{where(name, text, off[0])}: {off[0]}: {off[1]}"])
    if "map" in doc.doc:
        doc.doc["map"] = new
    else:
        doc.doc.append("map", new)
    out = doc.text
    try:
        parse_scenario(out, name)
    except ScenarioError as e:
        more = f" (and {len(e.errors) - 1} more)" if len(e.errors) > 1 else ""
        raise ScenarioError([f"{e.errors[0]}: with the new map{more}"]) from None
    return out
