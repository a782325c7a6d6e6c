"""Issue 41, eleventh session: on the large maps (the four boards, the steppe) level 3's Russian
won its kills by closing to 1-2 hexes and lost as many AFVs on the way, most in its own Movement
Phases to the German's Defensive First Fire at 1-5 hexes, often from a "?" in woods (C6.17,
RD-11; docs/ai.md, tenth session). Level 3 weighs there a plan that closes in out of the
enemy's sight, "?" included (``stalk``): a hex where it would stop in the LOS of an enemy at
3-6 hexes counts against it (one at 1-2, which it shoots at, counts none), and so does each hex
of its way in an enemy's sight; the small maps' portfolio is as it was."""

from __future__ import annotations

from dataclasses import replace

from ai_helpers import situation
from test_ai_issue41_steppe import steppe

import game.ai.opponent as opponent
from game.ai.lookahead import PLANS, STEADY
from game.ai.opponent import portfolio
from game.ai.tuning import tuning
from game.ai.valuation.hexes import HexScore, watched
from game.engine import Game, UnitSetup

STALK = next(p for p in PLANS if p.name == "stalk")


def _hidden_panzer() -> Game:
    """A concealed Panzer IV (a "?" to the Russian, RD-11) in the woods of A2; a T-34 in J3."""
    return steppe(
        [UnitSetup("ger-pz4-1", "pz4h", "german", "A2", facing=1, concealed=True)],
        [("rus-t34-1", "J3")],
    )


def test_issue41_rd11_stalk_counts_a_question_marks_sight_where_it_stops_at_3_to_6_hexes():
    """Where the T-34 would stop 4 hexes from the "?" in its LOS (E2) ``stalk`` counts the
    plan's ``sight`` x its worth against it; 2 hexes from it (C2, whence it shoots at that
    range) and out of its sight within 6 (J3) nothing; level 2's own plan (``steady``) counts
    none."""
    game = _hidden_panzer()
    s = situation(game, "russian")
    unit = next(u for u in s.table.units() if u["id"] == "rus-t34-1")
    assert next(u for u in s.table.units() if u["hex"] == "A2")["type"] == "?"
    board = s.table.board
    mid, near, seen = watched(s.table, "russian")
    e2, c2, j3 = (board.index(board.parse(h)) for h in ("E2", "C2", "J3"))
    assert (mid[e2], near[e2]) == (1, False) and near[c2] and not seen[j3]
    within = frozenset(["J3", "E2", "C2"])
    stalk = HexScore(s, unit, STALK, within)
    steady = HexScore(s, unit, STEADY, within)
    assert steady.watched is None
    assert stalk.sight_cost("E2", None) == STALK.sight > 0.0
    assert stalk.sight_cost("C2", None) == 0.0 == stalk.sight_cost("J3", None)
    # the same scorer otherwise (objective, risk), its aggression scaled
    gap = (steady("E2") - steady.aggression * steady.offense("E2")) - (
        stalk("E2") - stalk.aggression * stalk.offense("E2")
    )
    assert abs(gap - stalk.worth * STALK.sight) < 1e-9


def test_issue41_rd11_stalk_counts_each_hex_of_its_way_in_an_enemys_sight():
    """A way to E2 past hexes the "?" sees within 6 costs ``way_sight`` for each such hex of
    it (the hex it stops in counted by ``sight``)."""
    game = _hidden_panzer()
    s = situation(game, "russian")
    unit = next(u for u in s.table.units() if u["id"] == "rus-t34-1")
    route = s.table.route("rus-t34-1", "E2")
    assert route is not None
    board = s.table.board
    _, _, seen = watched(s.table, "russian")
    way = sum(1 for h in route.hexes[:-1] if seen[board.index(board.parse(h))])
    assert way >= 1
    stalk = HexScore(s, unit, STALK, frozenset(["J3", *route.hexes]))
    cost = stalk.sight_cost("E2", route)
    assert abs(cost - (STALK.sight + STALK.way_sight * way)) < 1e-9


def test_issue41_stalk_is_weighed_on_the_large_maps_alone_second_after_level_2s_own(
    monkeypatch,
):
    """On a map of at most ``[search] max_hexes`` hexes the portfolio is as it was (no
    ``stalk``); on a larger one ``stalk`` comes second, after level 2's own, so that the large
    maps' budget (two or three playouts in the early turns) gives it a trial run."""
    game = _hidden_panzer()
    table = situation(game, "russian").table
    small = [p.name for p in portfolio(table, "russian")]
    assert "stalk" not in small and small[0] == "steady"
    t = tuning()
    tiny = replace(t, search=replace(t.search, max_hexes=table.board.size - 1))
    monkeypatch.setattr(opponent, "tuning", lambda: tiny)
    large = [p.name for p in portfolio(table, "russian")]
    assert large[:3] == ["steady", "stalk", "bold"]
    assert [n for n in large if n != "stalk"] == small
