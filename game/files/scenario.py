"""Scenario files (TOML): one file is a whole scenario. The format is documented in
docs/scenario-format.md. Reading is :mod:`.scenario_read`, the schema of every table and key
:mod:`.scenario_schema` (pydantic); this module builds the set-up and checks what joins
several tables (one vehicle a hex, a unit inside its area, a victory naming a unit). Every
error is collected, each as ``file:line: field.path: what was expected``."""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from game.board import Board, MapError
from game.board.los import los
from game.engine.catalogue import unit_types
from game.engine.play.setup import BORE_SIGHT_RANGE
from game.engine.schema import problems
from game.engine.setup import EDGES, Setup, SetupArea, UnitSetup, Victory

from .lesson import Lesson, Step
from .scenario_read import MAX_SCENARIO_CHARS, Errors, ScenarioError, parse_toml, read_toml, where
from .scenario_schema import (
    DATE,
    MAX_UNITS,
    Context,
    ScenarioFile,
    Side,
    Unit,
    VictoryCondition,
    unprintable,
)

T = TypeVar("T", Unit, VictoryCondition)

__all__ = [
    "MAX_SCENARIO_CHARS",
    "MAX_UNITS",
    "Scenario",
    "ScenarioError",
    "load_board",
    "load_scenario",
    "parse_scenario",
    "parse_toml",
    "read_toml",
    "unprintable",
]


@dataclass(frozen=True)
class Scenario:
    """A loaded, valid scenario: its text (kept whole for saved games), metadata and set-up."""

    path: str
    text: str
    id: str
    title: str
    briefing: str
    date: str
    setup: Setup
    lesson: Lesson | None = None
    """Its steps for a newcomer, when the scenario is a lesson (``[lesson]``)."""

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def _month(date: object) -> int | None:
    return int(date[5:7]) if isinstance(date, str) and DATE.match(date) else None


def load_board(path: str | Path) -> Board:
    """The board of a scenario file, from its ``[map]`` table alone."""
    p = Path(path)
    data, text = read_toml(p)
    if "map" not in data:
        raise ScenarioError([f"{p}: map: missing (expected a [map] table)"])
    try:
        return Board.from_map_table(data["map"], month=_month(data.get("date")))
    except MapError as e:
        raise ScenarioError([f"{where(str(p), text, e.path)}: {e.path}: {e.message}"]) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    p = Path(path)
    _, text = read_toml(p)
    return parse_scenario(text, str(p))


def parse_scenario(text: str, name: str = "<scenario>") -> Scenario:
    """Validate a scenario's TOML text and build its :class:`Setup`; every error collected:
    the map's (the board checks its own table), then the schema's in one pass (each field,
    with the map, the catalogue and the side names as its context), then the set-up's."""
    data = parse_toml(text, name)
    err = Errors(name, text)
    board = None
    if isinstance(data.get("map"), dict):
        try:
            board = Board.from_map_table(data["map"], month=_month(data.get("date")))
        except MapError as e:
            err.add(e.path, e.message)
    date = data.get("date")
    sides = data.get("sides")
    context = Context(
        board=board,
        types=unit_types(),
        date=date if isinstance(date, str) and DATE.match(date) else None,
        sides=tuple(sides) if isinstance(sides, dict) else (),
    )
    try:
        doc = ScenarioFile.model_validate(data, context=context)
    except ValidationError as e:
        for p in problems(ScenarioFile, e):
            err.add(p.path, p.reason)
        _cross_checks(board, *_valid_parts(data, context), err)  # what joins the valid tables
        raise ScenarioError(err.items) from None
    if board is None:
        raise ScenarioError(err.items)
    defender, first, areas = _cross_checks(
        board, doc.sides, list(enumerate(doc.units)), list(enumerate(doc.victory)), err
    )
    lesson = None if doc.lesson is None else _lesson(doc, board, err)
    if err.items:
        raise ScenarioError(err.items)
    setup = Setup(
        board=board,
        sides=(doc.sides_names()[0], doc.sides_names()[1]),
        first=first,
        defender=defender,
        turns=doc.turns,
        units=tuple(
            UnitSetup(
                u.id,
                u.type,
                u.side,
                u.hex.upper(),
                u.facing,
                u.turret,
                u.concealed,
                u.ce,
                area,
                u.bore_sight.upper() if u.bore_sight else None,
            )
            for u, area in zip(doc.units, areas, strict=True)
        ),
        victory=tuple(
            Victory(
                v.side,
                v.kind,
                v.count,
                tuple(h.upper() for h in v.hexes),
                tuple(v.units),
                v.edge,
                v.only,
            )
            for v in doc.victory
        ),
        to_kill=doc.rules.to_kill,
        title=doc.title,
        year=int(doc.date[:4]),
    )
    return Scenario(name, text, doc.id, doc.title, doc.briefing, doc.date, setup, lesson)


def _lesson(doc: ScenarioFile, board: Board, err: Errors) -> Lesson:
    """The lesson, its steps checked against the units and the map (a unit an action names
    exists, a hex it names is on the map, a facing is 0-5)."""
    table = doc.lesson
    assert table is not None
    ids = {u.id for u in doc.units}
    steps = []
    for i, st in enumerate(table.steps):
        at = f"lesson.steps[{i}]"
        for key, value in (st.do or {}).items():
            if key in ("unit", "target") and value not in ids:
                err.add(f"{at}.do.{key}", f"names unit {value!r}, which does not exist")
            elif key in ("hex", "to") and value != "off":
                try:
                    board.parse(str(value))
                except ValueError as e:
                    err.add(f"{at}.do.{key}", str(e))
            elif key == "facing" and value not in range(6):
                err.add(f"{at}.do.{key}", f"expected 0-5, got {value!r}")
        if st.select is not None and st.select not in ids:
            err.add(f"{at}.select", f"names unit {st.select!r}, which does not exist")
        steps.append(
            Step(
                say=" ".join(st.say.split()),
                why=" ".join((st.why or "").split()),
                point=st.point,
                do=tuple((st.do or {}).items()),
                select=st.select,
                look=(st.look[0], st.look[1]) if st.look else None,
                phase=st.phase,
                side=st.side,
                show=st.show,
            )
        )
    return Lesson(doc.id, table.number, tuple(steps))


def _valid_parts(
    data: dict, context: Context
) -> tuple[dict[str, Side], list[tuple[int, Unit]], list[tuple[int, VictoryCondition]]]:
    """The sides, units and victory conditions of an invalid file that are valid each on its
    own (their errors are already reported): the checks that join them still run, so one
    round reports every error."""

    def each(raw: object, model: type[T]) -> list[tuple[int, T]]:
        out = []
        for i, item in enumerate(raw if isinstance(raw, list) else []):
            with contextlib.suppress(ValidationError):
                out.append((i, model.model_validate(item, context=context)))
        return out

    sides: dict[str, Side] = {}
    raw_sides = data.get("sides")
    for sname, st in (raw_sides if isinstance(raw_sides, dict) else {}).items():
        try:
            sides[sname] = Side.model_validate(st)
        except ValidationError:  # an invalid side still counts what it says is true
            flags = st if isinstance(st, dict) else {}
            sides[sname] = Side.model_construct(
                nationality="",
                defender=flags.get("defender") is True,
                moves_first=flags.get("moves_first") is True,
            )
    return sides, each(data.get("units"), Unit), each(data.get("victory"), VictoryCondition)


def _cross_checks(
    board: Board | None,
    sides: dict[str, Side],
    units: list[tuple[int, Unit]],
    victory: list[tuple[int, VictoryCondition]],
    err: Errors,
) -> tuple[str, str, list[SetupArea | None]]:
    """What joins several tables (C6.41's one defender, one vehicle or Gun a hex, a unit in
    its set-up area, a victory naming a unit), each error added to ``err``. Returns the
    defender, the side moving first and each unit's set-up area."""
    defender, first = _side_roles(sides, err)
    seen: set[str] = set()
    occupied: dict[str, str] = {}
    areas: list[SetupArea | None] = []
    for i, u in units:
        at = f"units[{i}]"
        if u.id in seen:
            err.add(f"{at}.id", f"duplicate unit id {u.id!r}")
        seen.add(u.id)
        areas.append(u.area())
        if board is not None:
            _unit_on_map(board, u, areas[-1], occupied, at, err)
            if u.bore_sight is not None:
                _bore_sight(board, u, defender, f"{at}.bore_sight", err)
    for i, v in victory:
        _victory_condition(v, seen, f"victory[{i}]", err)
    return defender, first, areas


def _side_roles(sides: dict[str, Side], err: Errors) -> tuple[str, str]:
    """The scenario defender (C6.41: the side that may Bore Sight and conceal in set-up) and
    the side moving first: one of each between two sides, and printable side names."""
    defender = first = ""
    for sname, side in sides.items():
        bad = unprintable(sname)
        if bad:  # the name is the key of its table: found by its table's line
            err.add("sides", f'the side "{sname}": {bad}')
        for flag in ("defender", "moves_first"):
            if not getattr(side, flag):
                continue
            if defender if flag == "defender" else first:
                two = "two sides are defenders" if flag == "defender" else "two sides move first"
                err.add(f"sides.{sname}.{flag}", two)
            elif flag == "defender":
                defender = sname
            else:
                first = sname
    if not defender and len(sides) == 2:
        err.add("sides", "one side must have defender = true (the scenario defender, C6.41)")
    if not first and len(sides) == 2:
        err.add("sides", "one side must have moves_first = true")
    return defender, first


def _unit_on_map(
    board: Board,
    u: Unit,
    area: SetupArea | None,
    occupied: dict[str, str],
    at: str,
    err: Errors,
) -> None:
    """A unit's hex on the map: terrain a vehicle or Gun may enter (RD-10), one vehicle or
    Gun a hex (HX-4; ``occupied`` by label, filled as units are read), inside its set-up area
    (HX-12)."""
    h = board.parse(u.hex)
    category = unit_types()[u.type].category
    terrain = board.terrain_at(h)
    if category in ("afv", "vehicle", "gun") and not terrain.enterable_by_vehicle:
        what = {"afv": "an AFV", "vehicle": "a vehicle", "gun": "a Gun"}[category]
        err.add(f"{at}.hex", f"{u.hex} is {terrain.name}: impassable to {what}")
    label = u.hex.upper()
    if category != "infantry":
        if label in occupied:
            err.add(
                f"{at}.hex",
                f"{u.hex} already holds {occupied[label]} (one vehicle or Gun a hex)",
            )
        occupied[label] = u.id
    if area is not None and not area.contains(h):
        err.add(
            f"{at}.setup_area",
            f"the unit's hex {u.hex} is outside its area ({area.describe()})",
        )


def _bore_sight(board: Board, u: Unit, defender: str, at: str, err: Errors) -> None:
    """A set-up Bore Sighted Location as the BoreSight set-up action takes one: the scenario
    defender's Gun or vehicle main armament (C6.41), outside its hex, within 16 hexes and in
    its LOS (C6.42)."""
    spot = str(u.bore_sight)
    ut = unit_types()[u.type]
    if defender and u.side != defender:
        err.add(at, f"only the scenario defender ({defender}) may Bore Sight (C6.41)")
    elif not ut.gun:
        err.add(at, f"{ut.name}: only a Gun or a vehicle's main armament may Bore Sight (C6.41)")
    else:
        a, b = board.parse(u.hex), board.parse(spot)
        if a == b:
            err.add(at, f"{spot} is the unit's own hex: Bore Sight a hex outside it (C6.42)")
        elif a.distance(b) > BORE_SIGHT_RANGE:
            err.add(at, f"{spot} is {a.distance(b)} hexes from {u.hex}: 16 at most (C6.42)")
        elif not los(board, a, b).clear:
            err.add(at, f"{spot} is not in the LOS from {u.hex} (C6.42)")


def _victory_condition(v: VictoryCondition, units: set[str], at: str, err: Errors) -> None:
    """A victory condition (RD-13) names units that exist, a hold its hexes, an eliminate /
    points / exit its count (or units), an exit its map edge."""
    for x in v.units:
        if x not in units:
            err.add(f"{at}.units", f"names unit {x!r}, which does not exist")
    if v.kind == "hold" and not v.hexes:
        err.add(f"{at}.hexes", "a hold condition names the hexes to hold")
    if v.kind in ("eliminate", "points", "exit") and not v.count and not v.units:
        err.add(f"{at}.count", f"a {v.kind} condition needs a count")
    if v.kind == "exit" and v.edge is None:
        err.add(f"{at}.edge", f"an exit condition names its map edge ({', '.join(EDGES)})")
    if v.only is not None and v.kind != "exit":
        err.add(f"{at}.only", "only an exit condition counts some units alone")
