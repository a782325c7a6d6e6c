"""The computer's tuning figures (game/ai/data/tuning.toml), loaded once and checked on load:
every section and key the dataclasses below name and no other, each value of its kind (a
float field takes any number, an int field a whole one), every figure at least 0 and a share
at most 1. ``tuning()`` is the one table the candidates and the valuation read; a table of
one's own (a test's) is checked by :func:`parse`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from typing import Any, get_type_hints


class TuningError(ValueError):
    """tuning.toml is malformed (the message names the key and what was expected)."""


@dataclass(frozen=True)
class Random:
    fire: float


@dataclass(frozen=True)
class Targets:
    afv: float
    other: float
    named: float
    wins: float
    on_our_hold: float
    on_their_hold: float
    concealed_hit: float
    danger: float
    hit: float


@dataclass(frozen=True)
class Fire:
    least: float
    prep_least: float
    hidden_shot: float
    duel_risk: float
    exit_shot: float


@dataclass(frozen=True)
class Dff:
    least: float
    sure_kill: float
    wait_mp: int


@dataclass(frozen=True)
class Risk:
    immobilized: float
    unknown: tuple[tuple[int, float], ...]
    unknown_beyond: float
    unknown_soft: float
    seen_gun: tuple[tuple[int, float], ...]
    seen_gun_beyond: float
    unknown_afv: tuple[tuple[int, float], ...]
    unknown_afv_beyond: float
    way_unknown: tuple[tuple[int, float], ...]
    way_unknown_beyond: float
    ahead: float


@dataclass(frozen=True)
class Objective:
    urgency: float
    urgency_late: float
    stand: float
    stand_last: float
    depth: float
    hold_away: float
    take_and_keep: float
    infantry_away: float
    edge_away: float
    infantry_edge: float
    closing: float
    close_to: int
    standoff: int
    stake_close_to: int
    stake_share: float
    retake_phases: int
    watch_exit: float
    watch_range: int
    watch_slack: int
    watch_pace: float


@dataclass(frozen=True)
class Move:
    caution: float
    defender_caution: float
    attacker_caution: float
    early_caution: float
    defender_aggression: float
    attacker_aggression: float
    late_aggression: float
    last_chance_caution: float
    other_shots: float
    exit_now: float
    dff_on_the_way: float
    mp_cost: float
    better_by: float
    jitter: float
    hidden_stays: float
    ahead_hexes: int
    motion_reach: int
    motion: float
    attacker_motion: float
    face_gain: float
    infantry_step: float


@dataclass(frozen=True)
class SetUp:
    cover: float
    caution: float
    sight: float
    gun_objective: float
    sight_near: float
    sight_best: float
    sight_far: float
    sight_beyond: float
    sight_from: int
    sight_to: int
    sight_far_to: int
    infantry_way: float
    crowd: float
    spread: float
    way_in_seen: int
    bore_hold: float
    bore_way: float
    bore_range: float
    unknown: tuple[tuple[int, float], ...]
    unknown_beyond: float


@dataclass(frozen=True)
class Playout:
    win: float
    mp_per_hex: float
    exit_near: float


@dataclass(frozen=True)
class Search:
    rounds: int
    work: int
    max_hexes: int
    large_rounds: int
    large_work: int
    large_confirm: float
    playout_hexes: int
    confirm: int
    per_playout: int
    margin: float
    sure: float
    seen_weight: float
    seen_reach: int


@dataclass(frozen=True)
class Chance:
    low: float
    high: float
    shots: int
    rounds: int
    work: int
    confirm: int
    seen: bool
    evidence: bool


@dataclass(frozen=True)
class Plan:
    """One way to play the Movement Phase (level 3's portfolio, game.ai.lookahead): level 2's
    scorer with its weights scaled. ``objective``: the weight of the victory conditions' hexes
    and edges; ``caution``: of the risk of being knocked out (RD-18); ``aggression``: of the
    shots a hex would give; ``moves``: False to keep every vehicle where it stands (an exit by
    the victory's edge still goes)."""

    name: str
    words: str
    objective: float
    caution: float
    aggression: float
    moves: bool


@dataclass(frozen=True)
class Tuning:
    random: Random
    targets: Targets
    fire: Fire
    dff: Dff
    risk: Risk
    objective: Objective
    move: Move
    set_up: SetUp
    playout: Playout
    search: Search
    chance: Chance
    plans: tuple[Plan, ...]


SHARES = {
    "random.fire",
    "targets.concealed_hit",
    "targets.hit",
    "fire.least",
    "fire.prep_least",
    "fire.duel_risk",
    "dff.least",
    "dff.sure_kill",
    "risk.immobilized",
    "risk.unknown_beyond",
    "risk.seen_gun_beyond",
    "risk.unknown_afv_beyond",
    "risk.way_unknown_beyond",
    "set_up.unknown_beyond",
    "risk.ahead",
    "move.dff_on_the_way",
    "move.motion",
    "move.attacker_motion",
    "move.face_gain",
    "playout.exit_near",
    "chance.low",
    "chance.high",
}
"""The figures that are chances or shares of one: at most 1."""
AT_LEAST_ONE = {"search.seen_reach", "chance.rounds"}
"""The figures that divide or count what must happen at least once: at least 1."""


def _number(value: Any, kind: type, where: str) -> float | int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TuningError(f"{where}: expected a number, got {value!r}")
    if kind is int and not isinstance(value, int):
        raise TuningError(f"{where}: expected a whole number, got {value!r}")
    if value < 0:
        raise TuningError(f"{where}: expected a figure of at least 0, got {value!r}")
    if where in AT_LEAST_ONE and value < 1:
        raise TuningError(f"{where}: expected a figure of at least 1, got {value!r}")
    if where in SHARES and value > 1:
        raise TuningError(f"{where}: a share, expected at most 1, got {value!r}")
    return int(value) if kind is int else float(value)


def _unknown(value: Any, where: str) -> tuple[tuple[int, float], ...]:
    """The "?" prior's rows: [range, chance] pairs, the ranges rising."""
    if not isinstance(value, list) or not value:
        raise TuningError(f"{where}: expected a list of [range, chance] pairs")
    rows: list[tuple[int, float]] = []
    for i, row in enumerate(value):
        if not isinstance(row, list) or len(row) != 2:
            raise TuningError(f"{where}[{i}]: expected a [range, chance] pair, got {row!r}")
        reach = _number(row[0], int, f"{where}[{i}] range")
        chance = _number(row[1], float, f"{where}[{i}] chance")
        if chance > 1:
            raise TuningError(f"{where}[{i}] chance: a share, expected at most 1, got {chance}")
        if rows and reach <= rows[-1][0]:
            raise TuningError(f"{where}[{i}]: the ranges must rise, {reach} after {rows[-1][0]}")
        rows.append((int(reach), float(chance)))
    return tuple(rows)


def _section(cls: type, raw: Any, where: str) -> Any:
    """``cls`` made from the TOML table ``raw``: exactly its fields, each of its kind."""
    if not isinstance(raw, dict):
        raise TuningError(f"{where}: expected a table")
    hints = get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(raw) - set(names))
    if unknown:
        raise TuningError(f"{where}: unknown key {unknown[0]!r} (expected {', '.join(names)})")
    values: dict[str, Any] = {}
    for name in names:
        key = f"{where}.{name}"
        if name not in raw:
            raise TuningError(f"{key}: missing")
        kind, value = hints[name], raw[name]
        if kind in (str, bool):
            if type(value) is not kind:
                raise TuningError(f"{key}: expected a {kind.__name__}, got {value!r}")
            values[name] = value
        elif kind in (int, float):
            values[name] = _number(value, kind, key)
        else:  # the "?" prior
            values[name] = _unknown(value, key)
    return cls(**values)


def _plans(raw: Any) -> tuple[Plan, ...]:
    if not isinstance(raw, list) or not raw:
        raise TuningError("plans: expected [[plans]] tables, the first level 2's own")
    rows = tuple(_section(Plan, row, f"plans[{i}]") for i, row in enumerate(raw))
    names = [r.name for r in rows]
    if len(set(names)) != len(names):
        raise TuningError(f"plans: a name twice in {names}")
    first = rows[0]
    if (first.objective, first.caution, first.aggression, first.moves) != (1.0, 1.0, 1.0, True):
        raise TuningError(f"plans[0] ({first.name}): level 2's own plays by weights 1, moving")
    return rows


def parse(text: str) -> Tuning:
    """A tuning table from TOML text, checked (``TuningError`` names what is wrong)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TuningError(f"not TOML: {e}") from None
    hints = get_type_hints(Tuning)
    sections = [f.name for f in fields(Tuning)]
    unknown = sorted(set(raw) - set(sections))
    if unknown:
        raise TuningError(f"unknown section {unknown[0]!r} (expected {', '.join(sections)})")
    values: dict[str, Any] = {}
    for name in sections:
        if name not in raw:
            raise TuningError(f"[{name}]: missing")
        if name == "plans":
            values[name] = _plans(raw[name])
        else:
            values[name] = _section(hints[name], raw[name], name)
    chance = values["chance"]
    if chance.low > chance.high:
        raise TuningError(
            f"chance.low: expected at most chance.high ({chance.high}), got {chance.low}"
        )
    if chance.confirm == 1:  # a plan is kept on two rounds at least (lookahead._kept)
        raise TuningError("chance.confirm: expected 0 (no check) or at least 2, got 1")
    return Tuning(**values)


@cache
def tuning() -> Tuning:
    """The shipped table (game/ai/data/tuning.toml), read and checked once."""
    text = resources.files("game.ai").joinpath("data/tuning.toml").read_text("utf-8")
    return parse(text)
