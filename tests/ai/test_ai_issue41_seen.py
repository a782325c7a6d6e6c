"""Issue 41: on the Orel road (road-ambush) the careful Russian beat level 3's German column 13
games of 20 (main at e7fc0d9, seeds 100-119). Traced from the event logs: most of the
column's vehicles were knocked out in its Movement Phase by the Guns' Defensive First Fire at
1-8 hexes, and in most games a Gun that had fired (and so was seen, RD-11) and lived regained
its concealment at the end of the player turn, out of every German LOS, in its woods. To the
computer it was then any "?" again, the prior's 5% within 6 hexes (``[risk] unknown``), and
the column drove up to it: a StuG knocked out at 2 hexes by the ZiS-3 it had seen in E2 (seed
106), a Panzer IV fired at by it at 2 hexes (seed 104). A Gun cannot move, and the line of
the log that says it regained its concealment names the unit and its hex, and both sides read
it: the "?" in that hex is that Gun. Now it counts as one (``[risk] seen_gun``), and a shot at
it is worth what knocking out that Gun is worth (any hit by AT fire eliminates a Gun, 002)."""

from __future__ import annotations

from engine_helpers import make_setup, table_of, to_phase
from test_ai_issue41_column import ROAD, column_game

from game.ai.tuning import tuning
from game.ai.valuation.danger import seen_guns, unknown_risk
from game.ai.valuation.targets import shots
from game.engine import Game, UnitSetup, Victory

VEHICLES = {"ger-pz4-1": ("pz4h", "P7"), "ger-stug-1": ("stug3g", "R6")}


def hid_again(seen: bool) -> Game:
    """The column's game in the German's next player turn; the ZiS-3 in E2 seen in the first
    (``seen``: it fired and lost its concealment, RD-11) and, out of every German LOS in its
    woods at the end of that player turn, concealed again; or never seen."""
    game = column_game(VEHICLES, exits=3, kills=3)
    if seen:
        game.units["rus-gun-1"].concealed = False
    to_phase(game, "prep_fire", "german", fresh=True)
    return game


def test_issue41_rd11_a_gun_that_hid_again_where_it_was_seen_is_known_to_be_that_gun():
    """The ZiS-3 seen and concealed again in E2: the German reads the "?" in E2 as the Gun
    rus-gun-1 (the log's line of its concealment, which both sides read); a Gun never seen is
    any "?"."""
    seen = hid_again(True)
    assert seen.units["rus-gun-1"].concealed  # a "?" again (RD-11)
    table = table_of(seen, "german")
    assert any(u["hex"] == "E2" and u["type"] == "?" for u in table.units())
    assert seen_guns(table, "german") == {"E2": "rus-gun-1"}
    assert seen_guns(table_of(hid_again(False), "german"), "german") == {}


def test_issue41_rd11_a_question_mark_seen_to_be_a_gun_is_as_deadly_as_that_gun():
    """In E2's LOS, three and five hexes off (F4, G6), the "?" known to be the ZiS-3 counts
    ``[risk] seen_gun`` (before: the 3-5% of any "?", while a known ZiS-3's shot there knocks a
    StuG out about half the time); the same hexes beside a ZiS-3 never seen read the prior
    alone."""
    risk = tuning().risk
    seen = unknown_risk(table_of(hid_again(True), "german"), "german")
    unseen = unknown_risk(table_of(hid_again(False), "german"), "german")
    for hx in ("F4", "G6"):
        assert seen(hx) >= risk.seen_gun[0][1] > unseen(hx) + 0.1, hx


def test_issue41_002_a_shot_at_a_gun_it_has_seen_is_worth_that_gun():
    """A shot at the "?" known to be the ZiS-3, which the German must knock out (an eliminate
    victory names it, RD-13), is worth its To Hit times that Gun's worth (any hit by AT fire
    eliminates a Gun, 002), not a "?"'s To Hit x ``[targets] concealed_hit``."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "P7", facing=3),
        UnitSetup("rus-gun-1", "zis3", "russian", "E2", facing=5),  # seen: it fired (RD-11)
        UnitSetup("rus-gun-2", "m1937", "russian", "C8", facing=2, concealed=True),
    ]
    named = Victory("german", "eliminate", units=("rus-gun-1", "rus-gun-2"))
    setup = make_setup(
        units, rows=ROAD, victory=[named], turns=4, first="german", defender="russian", year=1943
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    to_phase(game, "prep_fire", "german", fresh=True)  # E2 out of P7's sight: a "?" again
    game.units["ger-pz4-1"].hex = game.board.parse("G6")  # now five hexes off, in its LOS
    table = table_of(game, "german")
    assert seen_guns(table, "german") == {"E2": "rus-gun-1"}
    t = tuning().targets
    at_gun = [
        s for s in shots(table, "german", table.actions()) if table.where(s.action.target) == "E2"
    ]
    assert at_gun, 'a shot at the "?" in E2'
    best = at_gun[0]
    assert best.odds.p_kill is None  # a "?" to the German: no To Kill shown (RD-11)
    assert best.value >= best.odds.p_hit * t.other * t.named
    assert best.value > best.odds.p_hit * t.concealed_hit + 0.1
