"""Issue 41: on the Orel road (road-ambush) the German wins by knocking out the ZiS-3 and the
first 45 mm Gun (rus-gun-1, rus-gun-2), or by driving three units off the west edge (RD-13).
Traced (level 3 against the careful player, seeds 100-119, main at 26ec040): the column knocked
out one of the two named Guns in most games and lost most of those with the other alive, while
a shot at it, the last unit of the elimination victory, counted as any named Gun's (2), below
a T-34's. Its removal meets the victory and the game is won at once (RD-13): now it is worth
``[targets] wins`` times more."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase
from test_ai_issue41_column import ROAD

from game.ai.candidates.fire import FireCandidate
from game.ai.tuning import tuning
from game.ai.valuation.targets import last_named, shots
from game.engine import Game, UnitSetup, Victory


def named_guns(second_gone: bool) -> Game:
    """The German Prep Fire of a later player turn: a Panzer IV in G6; the ZiS-3 it saw fire
    (RD-11) concealed again in E2, five hexes off, out of every German LOS at the end of the
    last player turn (the log's line names it: a seen Gun); a T-34 in the open in I7; the
    45 mm Gun rus-gun-2, which the victory also names, knocked out (``second_gone``, a removal
    both sides see, HX-13) or a "?" in C8."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "P7", facing=3),
        UnitSetup("rus-gun-1", "zis3", "russian", "E2", facing=5),
        UnitSetup("rus-gun-2", "m1937", "russian", "C8", facing=2, concealed=True),
        UnitSetup("rus-t34-1", "t34m44", "russian", "I7", facing=0),
    ]
    victory = [
        Victory("german", "eliminate", units=("rus-gun-1", "rus-gun-2")),
        Victory("german", "exit", count=3, edge="west"),
        Victory("russian", "eliminate", count=3),
    ]
    setup = make_setup(
        units, rows=ROAD, victory=victory, turns=4, first="german", defender="russian", year=1943
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    to_phase(game, "prep_fire", "german", fresh=True)  # E2 out of P7's sight: a "?" again
    if second_gone:
        game.units["rus-gun-2"].status = "eliminated"
    game.units["ger-pz4-1"].hex = game.board.parse("G6")
    return game


def test_issue41_rd13_the_last_named_gun_is_worth_the_game():
    """With rus-gun-2 knocked out, the ZiS-3 is the last unit the German's elimination victory
    names (:func:`last_named`): a shot at the "?" seen to be it is worth its To Hit times
    ``[targets] wins`` times a named Gun's worth (any hit by AT fire eliminates a Gun, 002);
    with rus-gun-2 in play, a named Gun's alone."""
    t = tuning().targets
    assert t.wins > 1.0
    values = {}
    for gone in (True, False):
        table = table_of(named_guns(gone), "german")
        assert last_named(table, "german", "rus-gun-1") is gone
        at_gun = [s for s in shots(table, "german", table.actions())]
        at_gun = [s for s in at_gun if table.where(s.action.target) == "E2"]
        assert at_gun, 'a shot at the "?" in E2'
        values[gone] = at_gun[0].value / at_gun[0].odds.p_hit
    assert values[False] < t.other * t.named + 0.1
    assert values[True] > t.other * t.named * t.wins


def test_issue41_rd13_a_panzer_fires_at_the_gun_that_wins_before_a_t34():
    """In its Prep Fire the Panzer in G6 sees the T-34 in I7 and the "?" it knows to be the
    ZiS-3: while rus-gun-2 lives it fires at the T-34 (an AFV's worth, 2, at better odds);
    once the ZiS-3 is the last Gun the victory names, at the ZiS-3 (RD-13: the game won)."""
    for gone, hx in ((True, "E2"), (False, "I7")):
        s = situation(named_guns(gone), "german")
        chosen = FireCandidate().evaluate(s)
        assert chosen is not None
        assert s.table.where(chosen.decision.action.target) == hx, gone
