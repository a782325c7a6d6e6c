"""The computer's tuning table (game/ai/data/tuning.toml, game/ai/tuning.py): loaded once and
checked on load, every figure the code reads and none it does not, a malformed table refused
with one line naming the key."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from importlib import resources
from pathlib import Path

import pytest

from game.ai.lookahead import PLANS, STEADY, Budget
from game.ai.tuning import Tuning, TuningError, parse, tuning

SHIPPED = resources.files("game.ai").joinpath("data/tuning.toml").read_text("utf-8")
AI = Path(__file__).resolve().parents[2] / "game" / "ai"


def test_the_shipped_table_loads_once_and_the_search_reads_it():
    assert tuning() is tuning()
    t = tuning()
    assert [p.name for p in PLANS] == [p.name for p in t.plans] and t.plans[0] == STEADY
    assert (Budget().rounds, Budget().work, Budget().max_hexes) == (
        t.search.rounds,
        t.search.work,
        t.search.max_hexes,
    )
    assert parse(SHIPPED) == t


def test_every_figure_of_the_table_is_read_by_the_computer():
    """No figure is dead: each key of each section is read as an attribute somewhere in
    game/ai/ (a figure left in the table but no longer read would mislead a tuner)."""
    read = set()
    for path in AI.rglob("*.py"):
        if path.name == "tuning.py":
            continue
        tree = ast.parse(path.read_text())
        read |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    unread = []
    for section in fields(Tuning):
        if section.name == "plans":
            continue
        cls = type(getattr(tuning(), section.name))
        unread += [f"{section.name}.{f.name}" for f in fields(cls) if f.name not in read]
    assert not unread, unread


def changed(old: str, new: str, count: int = 1) -> str:
    text = SHIPPED.replace(old, new, count)
    assert text != SHIPPED, old
    return text


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("duel_risk = 0.1", "duel_risk = '0.1'", r"^fire\.duel_risk: expected a number"),
        ("duel_risk = 0.1", "duel_risk = true", r"^fire\.duel_risk: expected a number"),
        ("duel_risk = 0.1", "duel_risk = 1.5", r"^fire\.duel_risk: a share, expected at most 1"),
        ("exit_now = 50.0", "exit_now = -1.0", r"^move\.exit_now: expected a figure of at least"),
        ("standoff = 8", "standoff = 8.5", r"^objective\.standoff: expected a whole number"),
        ("duel_risk = 0.1", "duel_risk = 0.1\nduel_rsik = 0.2", r"^fire: unknown key 'duel_rsik'"),
        ("duel_risk = 0.1\n", "", r"^fire\.duel_risk: missing"),
        ("[dff]", "[dfff]", r"^unknown section 'dfff'"),
        ("unknown = [[6, 0.05], [12, 0.03]]", "unknown = [[12, 0.05], [6, 0.03]]", r"must rise"),
        ("unknown = [[6, 0.05], [12, 0.03]]", "unknown = [[6, 1.25]]", r"a share"),
        ("unknown = [[6, 0.05], [12, 0.03]]", "unknown = [6, 12]", r"a \[range, chance\] pair"),
        ('name = "bold"', 'name = "steady"', r"^plans: a name twice"),
        (
            "caution = 1.0\naggression = 1.0\nmoves = true",
            "caution = 2.0\naggression = 1.0\nmoves = true",
            r"^plans\[0\] \(steady\): level 2's own plays by weights 1",
        ),
        ("moves = true", "moves = 1", r"^plans\[0\]\.moves: expected a bool"),
        ("[search]", "[search", r"^not TOML"),
        (
            "seen_reach = 3",
            "seen_reach = 0",
            r"^search\.seen_reach: expected a figure of at least 1",
        ),
        ("rounds = 8 ", "rounds = 0 ", r"^chance\.rounds: expected a figure of at least 1"),
        (
            "confirm = 4\n",
            "confirm = 1\n",
            r"^chance\.confirm: expected 0 \(no check\) or at least 2",
        ),
        ("low = 0.05 ", "low = 0.7 ", r"^chance\.low: expected at most chance\.high"),
    ],
)
def test_a_malformed_table_is_refused_with_one_line_naming_the_key(old, new, message):
    with pytest.raises(TuningError, match=message) as caught:
        parse(changed(old, new))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name", ["ai.md", "ai-experiments.md"])
def test_the_table_names_its_figures_in_the_docs(name):
    """docs/ai.md names the tuning keys it explains (``[section] key``), and so does issue 41's
    log of experiments, docs/ai-experiments.md: each exists (a key tried and not kept is
    named otherwise there, "the branch's ``[vehicle]`` key")."""
    doc = (AI.parents[1] / "docs" / name).read_text()
    named = re.findall(r"`\[(\w+)\] (\w+)`", doc)
    assert len(named) >= 10
    t = tuning()
    missing = [f"[{s}] {k}" for s, k in named if not hasattr(getattr(t, s, None), k)]
    assert not missing, missing
