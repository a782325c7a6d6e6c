"""Issue 41, thirteenth session: on the large maps level 3's tanks closed in one or two at a
time and drew every Defensive First Fire shot that saw them (an enemy weapon fires once a
phase unless it keeps its Multiple ROF, RD-4, and at one target in one Location no more often
than the MP it spent there, C6.17). While fewer than ``[mass] together`` of its vehicles can
reach a firing hex this phase, none stops in an enemy's (or a "?"'s) LOS (RD-9) within 6
hexes, a hex to shoot from included; once enough can, they go together."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ai_helpers import situation
from test_ai_issue41_steppe import steppe

import game.ai.valuation.hexes as hexes
import game.ai.valuation.mass as mass
from game.ai.lookahead import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.hexes import best_hex
from game.ai.valuation.mass import Front, held_back, must_close, ready
from game.engine import Game, UnitSetup, Victory


@pytest.fixture
def large(monkeypatch):
    """The test's 10 x 6 steppe taken for a large map (``[search] max_hexes`` below its size)."""
    t = tuning()
    monkeypatch.setattr(mass, "tuning", lambda: replace(t, search=replace(t.search, max_hexes=10)))


def _hidden(kind: str = "pz4h", t34s: tuple[str, ...] = ("J3",)) -> Game:
    """A concealed German ``kind`` (a "?" to the Russian, RD-11) in the woods of A2; a T-34 in
    each hex of ``t34s``; the Russian's Movement Phase of turn 1."""
    return steppe(
        [UnitSetup("ger-1", kind, "german", "A2", facing=1, concealed=True)],
        [(f"rus-t34-{i}", h) for i, h in enumerate(t34s, 1)],
    )


def test_issue41_rd9_a_question_marks_sight_within_6_hexes_is_exposed(large):
    """E2 (4 hexes from the "?", in its LOS) and C2 (2 hexes, a hex to shoot from) are
    exposed while too few can go together; J3 (9 hexes) is not."""
    s = situation(_hidden(), "russian", level=3)
    assert next(u for u in s.table.units() if u["hex"] == "A2")["type"] == "?"
    front = Front(s.table, "russian")
    assert front.exposed("E2")
    assert front.exposed("C2") and not front.exposed("J3")


def test_issue41_c617_a_lone_t34_stops_out_of_a_question_marks_sight(large):
    """One T-34 can reach a firing hex (fewer than ``[mass] together``): level 3 weighs no
    hex where it would stop in the "?"'s sight at 3-6 hexes, and it could reach some."""
    s = situation(_hidden(), "russian", level=3)
    assert ready(s.table, "russian", Front(s.table, "russian")) == 1 < tuning().mass.together
    exposed = held_back(s.table, "russian", 3)
    assert exposed is not None
    assert any(exposed(h) for h in s.table.reachable("rus-t34-1"))
    unit = next(u for u in s.table.units() if u["id"] == "rus-t34-1")
    _, hx, _ = best_hex(s, unit, STEADY)
    assert hx is None or not exposed(hx)


def _wants_e2(monkeypatch) -> None:
    """Every vehicle's scorer likes E2 (4 hexes from the "?", in its sight) best."""
    monkeypatch.setattr(hexes.HexScore, "__call__", lambda self, hx, route=None: float(hx == "E2"))


def test_issue41_c617_a_t34_that_would_stop_alone_in_a_question_marks_sight_stays_back(
    large, monkeypatch
):
    """A lone T-34 whose scorer likes E2 best goes there at level 2, but not at level 3 on a
    large map: it stops elsewhere or stays."""
    _wants_e2(monkeypatch)
    game = _hidden()
    unit = next(u for u in situation(game, "russian").table.units() if u["id"] == "rus-t34-1")
    assert best_hex(situation(game, "russian", level=2), unit, STEADY)[1] == "E2"
    assert best_hex(situation(game, "russian", level=3), unit, STEADY)[1] != "E2"


def test_issue41_c617_three_t34s_whose_scorer_likes_e2_go_there(large, monkeypatch):
    """With three T-34s able to reach a firing hex, the first goes to E2 at level 3 too."""
    _wants_e2(monkeypatch)
    s = situation(_hidden(t34s=("J3", "J1", "J4")), "russian", level=3)
    unit = next(u for u in s.table.units() if u["id"] == "rus-t34-1")
    assert best_hex(s, unit, STEADY)[1] == "E2"


def test_issue41_c617_three_t34s_that_can_reach_a_firing_hex_go_together(large):
    """Three T-34s that can each reach a hex within 2 of the "?" this phase: none is held
    back (the "?" has one shot a phase unless it keeps its Multiple ROF, RD-4)."""
    s = situation(_hidden(t34s=("J3", "J1", "J4")), "russian", level=3)
    assert ready(s.table, "russian", Front(s.table, "russian")) == 3
    assert held_back(s.table, "russian", 3) is None


def test_issue41_the_rule_is_level_3s_on_the_large_maps_alone(large, monkeypatch):
    """Level 2 is never held back; nor is level 3 on a map of at most ``[search] max_hexes``
    hexes, nor outside its own Movement Phase."""
    s = situation(_hidden(), "russian", level=3)
    assert held_back(s.table, "russian", 2) is None
    assert held_back(s.table, "german", 3) is None
    monkeypatch.setattr(mass, "tuning", tuning)
    assert held_back(s.table, "russian", 3) is None


def test_issue41_rd13_a_side_that_wins_on_time_with_no_kills_to_make_is_not_held_back(large):
    """The Russian with a hold victory met and no elimination victory does not have to close
    in (RD-13): the rule leaves it alone; with an elimination victory it must."""
    game = steppe(
        [UnitSetup("ger-1", "pz4h", "german", "A2", facing=1, concealed=True)],
        [("rus-t34-1", "J3")],
        russian=Victory("russian", "hold", hexes=["J3"]),
    )
    s = situation(game, "russian", level=3)
    assert not must_close(s.table, "russian")
    assert held_back(s.table, "russian", 3) is None
    assert must_close(situation(_hidden(), "russian", level=3).table, "russian")


def test_issue41_rd11_what_the_question_mark_is_does_not_change_what_is_held_back(large):
    """Two games whose "?" differ (a Panzer IV, a PaK 40) hold back the same hexes and drive
    the T-34 to the same hex (RD-11: level 3 decides from what its side may know)."""
    found = []
    for kind in ("pz4h", "pak40"):
        s = situation(_hidden(kind), "russian", level=3)
        exposed = held_back(s.table, "russian", 3)
        assert exposed is not None
        reach = sorted(s.table.reachable("rus-t34-1"))
        unit = next(u for u in s.table.units() if u["id"] == "rus-t34-1")
        found.append(([h for h in reach if exposed(h)], best_hex(s, unit, STEADY)[1]))
    assert found[0] == found[1]


def test_issue41_hx11_the_defender_with_kills_to_make_is_not_held_back(large):
    """The German, the scenario defender, wins on time (HX-11) though it has an elimination
    victory too (RD-13): its enemy must come to it, so the rule leaves it alone; the Russian,
    which loses as things stand, must close in (issue 41, fourteenth session: held back too,
    the four boards' German won 10 of 24 against level 2, main's play 15)."""
    table = situation(_hidden(), "russian", level=3).table
    assert any(v.side == "german" and v.kind == "eliminate" for v in table.victory)
    assert not must_close(table, "german")
    assert must_close(table, "russian")
