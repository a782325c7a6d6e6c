"""Scenario files (TOML): one file is a whole scenario. The format is documented in
docs/scenario-format.md. Validation collects every error, each as
``file:line: field.path: what was expected``."""

from __future__ import annotations

import hashlib
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from game.board import Board, MapError
from game.board.hexes import column_index
from game.engine.catalogue import unit_types
from game.engine.setup import EDGES, VICTORY_KINDS, Setup, SetupArea, UnitSetup, Victory

from .text import printable, read_regular
from .tomlsource import line_of

TOP_KEYS = {"id", "title", "briefing", "date", "turns", "rules", "map", "sides", "units", "victory"}
SIDE_KEYS = {"nationality", "defender", "moves_first"}
UNIT_KEYS = {"id", "type", "side", "hex", "facing", "turret", "concealed", "ce", "setup_area"}
VICTORY_KEYS = {"side", "kind", "count", "hexes", "units", "edge"}
_DATE = re.compile(r"^(19[3-4]\d)-(0[1-9]|1[0-2])$")


MAX_SCENARIO_CHARS = 2 * 1024 * 1024
"""The largest scenario file read (2 MiB of text)."""
MAX_UNITS = 200
"""The most units a scenario has (the largest shipped has 32): legal actions check every firer
against every target, some 0.1 s an action with 200 units on a 200 x 200 map."""


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


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

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def read_toml(path: str | Path) -> tuple[dict, str]:
    """Parse a TOML file; ScenarioError (file:line: reason) when unreadable or malformed."""
    p = Path(path)
    try:
        data = read_regular(p, MAX_SCENARIO_CHARS)
        if len(data) > MAX_SCENARIO_CHARS:
            raise ScenarioError(
                [f"{p}:1: larger than {MAX_SCENARIO_CHARS // 1024} KiB (the limit)"]
            )
        text = data.decode("utf-8")
    except OSError as e:
        raise ScenarioError([f"{p}: cannot read: {e.strerror or e}"]) from None
    except UnicodeDecodeError:
        raise ScenarioError([f"{p}: not a UTF-8 text file"]) from None
    return parse_toml(text, str(p)), text


def parse_toml(text: str, name: str) -> dict:
    if len(text) > MAX_SCENARIO_CHARS:
        raise ScenarioError([f"{name}:1: larger than {MAX_SCENARIO_CHARS // 1024} KiB (the limit)"])
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ScenarioError([f"{name}:1: not valid TOML: nested too deeply"]) from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column \d+\)|\(at end of document\)", str(e))
        msg = str(e)[: m.start()].strip() if m else str(e)
        if m and m.group(1):
            line = m.group(1)
        else:
            line = str(max(1, text.count("\n") + (0 if text.endswith("\n") else 1)))
        raise ScenarioError([f"{name}:{line}: not valid TOML: {msg}"]) from None


def load_board(path: str | Path) -> Board:
    """The board of a scenario file, from its ``[map]`` table alone."""
    p = Path(path)
    data, text = read_toml(p)
    if "map" not in data:
        raise ScenarioError([f"{p}: map: missing (expected a [map] table)"])
    date = data.get("date")
    month = int(date[5:7]) if isinstance(date, str) and _DATE.match(date) else None
    try:
        return Board.from_map_table(data["map"], month=month)
    except MapError as e:
        raise ScenarioError([f"{_where(str(p), text, e.path)}: {e.path}: {e.message}"]) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file."""
    p = Path(path)
    _, text = read_toml(p)
    return parse_scenario(text, str(p))


def unprintable(value: str, allow: str = "") -> str | None:
    """Why ``value`` may not be a name, an id or a title (None: it may): it holds a control or
    format character (a NUL, an escape, a bidirectional override) or a lone surrogate, other
    than those in ``allow`` (a briefing's newlines and tabs)."""
    for ch in value:
        if ch in allow:
            continue
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            shown = ch.encode("unicode_escape", "backslashreplace").decode("ascii")
            return f"a control character ({shown}) is not allowed here"
    return None


def _where(name: str, text: str, field: str) -> str:
    line = line_of(text, field)
    return f"{name}:{line}" if line else name


class _Errors:
    def __init__(self, name: str, text: str):
        self.name, self.text = name, text
        self.items: list[str] = []

    def add(self, field: str, message: str) -> None:
        """One error, located; a field path or message holding text from the file is shown
        with its control characters escaped (a NUL would crash the window's text)."""
        where = _where(self.name, self.text, field)
        self.items.append(printable(f"{where}: {field}: {message}"))

    def unknown_keys(self, table: dict, allowed: set[str], where: str) -> None:
        """Every key of ``table`` that the format does not know is an error (no silent typo)."""
        for key in table:
            if key not in allowed:
                field = f"{where}.{key}" if where else key
                self.add(field, f"unknown key (expected one of {', '.join(sorted(allowed))})")


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_scenario(text: str, name: str = "<scenario>") -> Scenario:
    """Validate a scenario's TOML text and build its :class:`Setup`; every error collected."""
    data = parse_toml(text, name)
    err = _Errors(name, text)
    err.unknown_keys(data, TOP_KEYS, "")

    def need_str(key: str) -> str:
        v = data.get(key)
        if not isinstance(v, str) or not v.strip():
            err.add(key, f"expected a non-empty string, got {v!r}")
            return ""
        bad = unprintable(v, allow="\n\t" if key == "briefing" else "")
        if bad:
            err.add(key, bad)
            return ""
        return v

    sid, title, briefing = need_str("id"), need_str("title"), need_str("briefing")
    date = need_str("date")
    if date and not _DATE.match(date):
        err.add("date", f"expected YYYY-MM (1930-1949), got {date!r}")
    turns = data.get("turns")
    if not _is_int(turns) or not 1 <= turns <= 99:
        err.add("turns", f"expected an integer 1-99, got {turns!r}")
        turns = 1
    assert isinstance(turns, int)

    rules = data.get("rules", {})
    to_kill = "asl"
    if not isinstance(rules, dict):
        err.add("rules", "expected a table")
    else:
        err.unknown_keys(rules, {"to_kill"}, "rules")
        to_kill = rules.get("to_kill", "asl")
        if to_kill not in ("asl", "chart"):
            err.add("rules.to_kill", f'expected "asl" or "chart", got {to_kill!r}')
            to_kill = "asl"

    month = int(date[5:7]) if date and _DATE.match(date) else None
    board = None
    if "map" not in data:
        err.add("map", "missing (expected a [map] table)")
    else:
        try:
            board = Board.from_map_table(data["map"], month=month)
        except MapError as e:
            err.add(e.path, e.message)

    sides_t = data.get("sides")
    side_names: list[str] = []
    defender = first = None
    if not isinstance(sides_t, dict) or len(sides_t) != 2:
        err.add("sides", "expected two [sides.NAME] tables")
    else:
        for sname, st in sides_t.items():
            side_names.append(sname)
            where = f"sides.{sname}"
            bad = unprintable(sname)
            if bad:  # the name is the key of its table: found by its table's line
                err.add("sides", f'the side "{sname}": {bad}')
            if not isinstance(st, dict):
                err.add(where, "expected a table")
                continue
            err.unknown_keys(st, SIDE_KEYS, where)
            if not isinstance(st.get("nationality"), str):
                err.add(f"{where}.nationality", "expected a string")
            for flag in ("defender", "moves_first"):
                v = st.get(flag, False)
                if not isinstance(v, bool):
                    err.add(f"{where}.{flag}", f"expected true or false, got {v!r}")
                elif v and flag == "defender":
                    if defender is not None:
                        err.add(f"{where}.defender", "two sides are defenders")
                    defender = defender or sname
                elif v:
                    if first is not None:
                        err.add(f"{where}.moves_first", "two sides move first")
                    first = first or sname
        if defender is None:
            err.add("sides", "one side must have defender = true (the scenario defender, C6.41)")
        if first is None:
            err.add("sides", "one side must have moves_first = true")

    types = unit_types()
    units: list[UnitSetup] = []
    seen_ids: set[str] = set()
    occupied: dict[str, str] = {}
    units_t = data.get("units")
    if not isinstance(units_t, list) or not units_t:
        err.add("units", "expected [[units]] tables")
        units_t = []
    elif len(units_t) > MAX_UNITS:
        err.add(
            "units",
            f"{len(units_t):,} units: a scenario has at most {MAX_UNITS} (every action checks "
            "each firer against each target; docs/scenario-format.md)",
        )
        units_t = []
    for i, ut in enumerate(units_t):
        where = f"units[{i}]"
        if not isinstance(ut, dict):
            err.add(where, "expected a table")
            continue
        err.unknown_keys(ut, UNIT_KEYS, where)
        uid = ut.get("id")
        if not isinstance(uid, str) or not uid:
            err.add(f"{where}.id", f"expected a string, got {uid!r}")
            uid = f"?{i}"
        elif uid in seen_ids:
            err.add(f"{where}.id", f"duplicate unit id {uid!r}")
        elif unprintable(uid):
            err.add(f"{where}.id", str(unprintable(uid)))
        seen_ids.add(uid)
        utype = ut.get("type")
        if not isinstance(utype, str) or utype not in types:
            err.add(f"{where}.type", f"unknown catalogue type {utype!r}")
            utype = None
        elif date and _DATE.match(date) and (types[utype].available or "") > date:
            err.add(
                f"{where}.type",
                f"{types[utype].name} is not available before {types[utype].available} "
                f"(the scenario is dated {date})",
            )
        side = ut.get("side")
        if side not in side_names:
            err.add(f"{where}.side", f"expected one of {', '.join(side_names)}, got {side!r}")
        facing = ut.get("facing", 0)
        if not _is_int(facing) or not 0 <= facing <= 5:
            err.add(f"{where}.facing", f"expected 0-5, got {facing!r}")
            facing = 0
        turret = ut.get("turret")
        if turret is not None and (not _is_int(turret) or not 0 <= turret <= 5):
            err.add(f"{where}.turret", f"expected 0-5, got {turret!r}")
            turret = None
        for flag in ("concealed", "ce"):
            if not isinstance(ut.get(flag, False), bool):
                err.add(f"{where}.{flag}", f"expected true or false, got {ut.get(flag)!r}")
        area: SetupArea | str | None = None
        if ut.get("setup_area") is not None:
            area = _setup_area(ut["setup_area"])
            if isinstance(area, str):
                err.add(f"{where}.setup_area", area)
        hex_label = ut.get("hex")
        if not isinstance(hex_label, str):
            err.add(f"{where}.hex", f'expected a hex label like "W6", got {hex_label!r}')
        elif board is not None:
            try:
                h = board.parse(hex_label)
            except ValueError as e:
                err.add(f"{where}.hex", str(e))
            else:
                terrain = board.terrain_at(h)
                if (
                    utype
                    and types[utype].category in ("afv", "vehicle", "gun")
                    and not terrain.enterable_by_vehicle
                ):
                    err.add(
                        f"{where}.hex",
                        f"{hex_label} is {terrain.name}: impassable to a {types[utype].category}",
                    )
                if utype and types[utype].category != "infantry":
                    if hex_label.upper() in occupied:
                        err.add(
                            f"{where}.hex",
                            f"{hex_label} already holds {occupied[hex_label.upper()]} "
                            "(one vehicle or Gun a hex)",
                        )
                    occupied[hex_label.upper()] = uid
                if isinstance(area, SetupArea) and not area.contains(h):
                    err.add(
                        f"{where}.setup_area",
                        f"the unit's hex {hex_label} is outside its area ({area.describe()})",
                    )
        if utype and isinstance(hex_label, str) and side in side_names:
            units.append(
                UnitSetup(
                    uid,
                    utype,
                    side,
                    hex_label.upper(),
                    facing,
                    turret,
                    bool(ut.get("concealed", False)),
                    bool(ut.get("ce", False)),
                    area if isinstance(area, SetupArea) else None,
                )
            )

    victory: list[Victory] = []
    vic_t = data.get("victory")
    if not isinstance(vic_t, list) or not vic_t:
        err.add("victory", "expected [[victory]] tables (RD-13)")
        vic_t = []
    for i, vt in enumerate(vic_t):
        where = f"victory[{i}]"
        if not isinstance(vt, dict):
            err.add(where, "expected a table")
            continue
        err.unknown_keys(vt, VICTORY_KEYS, where)
        side, kind = vt.get("side"), vt.get("kind")
        if side not in side_names:
            err.add(f"{where}.side", f"expected one of {', '.join(side_names)}, got {side!r}")
        if kind not in VICTORY_KINDS:
            err.add(f"{where}.kind", f"expected one of {', '.join(VICTORY_KINDS)}, got {kind!r}")
        count = vt.get("count", 0)
        if not _is_int(count) or count < 0:
            err.add(f"{where}.count", f"expected a whole number, got {count!r}")
            count = 0
        hexes = vt.get("hexes", [])
        if not isinstance(hexes, list) or not all(isinstance(x, str) for x in hexes):
            err.add(f"{where}.hexes", "expected a list of hex labels")
            hexes = []
        elif board is not None:
            for x in hexes:
                try:
                    board.parse(x)
                except ValueError as e:
                    err.add(f"{where}.hexes", str(e))
        vunits = vt.get("units", [])
        if not isinstance(vunits, list):
            err.add(f"{where}.units", "expected a list of unit ids")
            vunits = []
        for x in vunits:
            if not isinstance(x, str) or x not in seen_ids:
                err.add(f"{where}.units", f"names unit {x!r}, which does not exist")
        edge = vt.get("edge")
        if kind == "hold" and not hexes:
            err.add(f"{where}.hexes", "a hold condition names the hexes to hold")
        if kind in ("eliminate", "points", "exit") and not count and not vunits:
            err.add(f"{where}.count", f"a {kind} condition needs a count")
        if kind == "exit" and edge not in EDGES:
            err.add(f"{where}.edge", f"expected one of {', '.join(EDGES)}, got {edge!r}")
        if side in side_names and kind in VICTORY_KINDS:
            victory.append(
                Victory(side, kind, count, tuple(h.upper() for h in hexes), tuple(vunits), edge)
            )

    if err.items:
        raise ScenarioError(err.items)
    assert board is not None and defender and first
    setup = Setup(
        board=board,
        sides=(side_names[0], side_names[1]),
        first=first,
        defender=defender,
        turns=turns,
        units=tuple(units),
        victory=tuple(victory),
        to_kill=to_kill,
        title=title,
        year=int(date[:4]) if date and _DATE.match(date) else None,
    )
    return Scenario(name, text, sid, title, briefing, date, setup)


def _setup_area(area: object) -> SetupArea | str:
    """A set-up area table ``{columns = "A-E", rows = "1-10"}`` (either may be left out), or
    what is wrong with it."""
    if not isinstance(area, dict) or not area or set(area) - {"columns", "rows"}:
        return 'expected a table like {columns = "A-E", rows = "1-10"}'
    try:
        columns = rows = None
        if "columns" in area:
            lo, _, hi = str(area["columns"]).partition("-")
            columns = (column_index(lo), column_index(hi or lo))
        if "rows" in area:
            lo, _, hi = str(area["rows"]).partition("-")
            rows = (int(lo) - 1, int(hi or lo) - 1)
    except ValueError as e:
        return f"bad set-up area: {e}"
    return SetupArea(columns, rows)
