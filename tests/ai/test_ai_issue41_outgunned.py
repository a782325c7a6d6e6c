"""Issue 41, thirteenth session (second try): the massed assault (``game.ai.valuation.mass``)
held back the four boards' German too, whose long 75 mm guns kill at range. It now applies
only to a side outgunned at range, from what it may know (RD-11): its own vehicles and the
enemy AFVs it sees, each side's P(kill) against the other's front at ``[mass] range`` hexes by
the rules' exact odds (RD-16; To Hit C3, To Kill C7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ai_helpers import situation
from engine_helpers import table_of, to_phase
from test_ai_issue41_steppe import steppe

import game.ai.valuation.mass as mass
from game.ai.tuning import tuning
from game.ai.valuation.mass import front_kill, held_back, outgunned
from game.engine import Game, UnitSetup
from game.engine.catalogue import unit_types
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios


@pytest.fixture
def large(monkeypatch):
    """The test's 10 x 6 steppe taken for a large map (``[search] max_hexes`` below its size)."""
    t = tuning()
    monkeypatch.setattr(mass, "tuning", lambda: replace(t, search=replace(t.search, max_hexes=10)))


def _game(concealed: bool, kind: str = "pz4h") -> Game:
    """A German ``kind`` in A2 (concealed: a "?" to the Russian) and a T-34 in J3."""
    return steppe(
        [UnitSetup("ger-1", kind, "german", "A2", facing=1, concealed=concealed)],
        [("rus-t34-1", "J3")],
    )


def test_issue41_c7_rd16_the_long_75_kills_the_t34s_front_more_often_than_its_76_the_panzers():
    """At 5 hexes, front to front: the Panzer IV H's 75L (APCR too) against the T-34's AF 11
    against the T-34's 76L against the Panzer's; the T-50's 45L gun does worse than the T-34."""
    t = unit_types()
    pz4, t34, t50 = t["pz4h"], t["t34m43"], t["t50"]
    assert front_kill(pz4, t34, 5) > front_kill(t34, pz4, 5) + tuning().mass.outgunned
    assert front_kill(t50, pz4, 5) < front_kill(t34, pz4, 5)
    assert front_kill(t34, pz4, 2) > front_kill(t34, pz4, 5)  # closing in pays (C3 range)


def test_issue41_a_t34_that_sees_a_panzer_iv_is_outgunned_and_held_back(large):
    """The Russian sees the Panzer IV (not concealed): outgunned, its lone T-34 held back;
    the German is not outgunned."""
    game = _game(concealed=False)
    s = situation(game, "russian", level=3)
    assert next(u for u in s.table.units() if u["hex"] == "A2")["type"] != "?"
    assert outgunned(s.table, "russian")
    assert held_back(s.table, "russian", 3) is not None
    assert not outgunned(table_of(game, "german"), "german")


@pytest.mark.parametrize("kind", ["pz4h", "pak40"])
def test_issue41_rd11_a_question_mark_alone_tells_nothing_so_nothing_is_held_back(large, kind):
    """A "?" (a Panzer IV or a PaK 40 under it: RD-11, the same answer) is no AFV the Russian
    sees: it cannot tell it is outgunned, and level 2's play stands."""
    s = situation(_game(concealed=True, kind=kind), "russian", level=3)
    assert not outgunned(s.table, "russian")
    assert held_back(s.table, "russian", 3) is None


@pytest.mark.parametrize(
    "name, side, expected",
    [
        ("bagration-4-boards", "russian", True),
        ("bagration-4-boards", "german", False),
        ("steppe-200", "russian", True),
        ("steppe-200", "german", False),
        ("tutorial-duel", "russian", True),
        ("tutorial-duel", "german", False),
        ("road-ambush", "russian", False),
    ],
)
def test_issue41_the_shipped_scenarios_outgunned_side(name, side, expected):
    """In its first Movement Phase: the T-34s against the long 75s (four boards, steppe, the
    duel) are outgunned, the Germans not; road-ambush's Russian has no AFV to count."""
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == name))
    game = Game(sc.setup, 5)
    to_phase(game, "movement", side)
    assert outgunned(table_of(game, side), side) is expected
