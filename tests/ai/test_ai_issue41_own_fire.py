"""Issue 41, thirteenth session: level 3 weighed by playouts its Defensive First Fire chances
only; its own Prep Fire (a unit that fires may not move, RD-12), Defensive Fire and Advancing
Fire (a concealed unit that fires is revealed, RD-11) were level 2's fixed thresholds. Now,
where level 2's choice is not obvious, level 2's choice, the best other shot and holding are
played out on the search's copies (docs/ai.md "Level 3's own fire weighed by playouts")."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.candidates.fire import WEIGHED, FireCandidate
from game.ai.lookahead import finish_moves
from game.ai.tuning import tuning
from game.ai.valuation.targets import shots
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase, Fire

FIRE = FireCandidate()
FIELD = [" ".join("o" for _ in range(10)) for _ in range(8)]


def duel(hidden: str | None = None, t34: str = "E5") -> Game:
    """A Panzer IV in B2 and a T-34 in ``t34`` on open ground, 1943, 4 turns, each side winning
    by knocking the other out (RD-13); with ``hidden``, a concealed Russian unit of that type in
    I1 (a "?" to the German, RD-11); the game at the German Prep Fire Phase of turn 1."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "B2", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", t34, facing=3),
    ]
    if hidden is not None:
        units.append(UnitSetup("rus-x-1", hidden, "russian", "I1", facing=3, concealed=True))
    setup = make_setup(
        units,
        rows=FIELD,
        victory=[
            Victory("german", "eliminate", count=1),
            Victory("russian", "eliminate", count=1),
        ],
        turns=4,
        first="german",
        defender="russian",
        year=1943,
    )
    game = Game(setup, 3)
    to_phase(game, "prep_fire", "german")
    return game


def test_issue41_rd12_level_3_weighs_a_prep_fire_shot_against_holding_its_move():
    """A Prep Fire shot keeps the Panzer from moving (RD-12): level 3 plays out level 2's
    choice first and holding (End Phase), and holds when the playouts say so, the trial runs'
    words in the plan; level 2 never asks."""
    game = duel()
    s = situation(game, "german", level=3)
    asked: list[list] = []

    def weigh(_table, options):
        asked.append(options)
        return len(options) - 1, "holds: in 6 trial runs of the move it scored +40"

    s.weigh = weigh
    found = shots(s.table, "german", s.legal)
    assert found and isinstance(found[0].action, Fire)
    option = FIRE.evaluate(s)
    assert len(asked) == 1 and isinstance(asked[0][-1], EndPhase)
    assert asked[0][0] == FIRE._usual(situation(game, "german", level=2)).decision.action
    assert option is not None and isinstance(option.decision.action, EndPhase)
    assert option.decision.why == WEIGHED and "trial runs" in option.decision.plan
    s = situation(game, "german", level=3)
    s.weigh = lambda _table, _options: (0, "fires, best")
    option = FIRE.evaluate(s)
    assert option is not None and option.decision.action == asked[0][0]
    assert option.decision.plan == "fires, best"
    s = situation(game, "german", level=2)
    s.weigh = lambda _table, _options: (1, "")  # level 2 never asks
    assert FIRE.evaluate(s) == FIRE._usual(situation(game, "german", level=2))


def test_issue41_a_seen_firer_that_may_not_move_takes_a_near_certain_shot_unweighed():
    """In the Advancing Fire Phase a seen Panzer's shot costs it nothing (no move left, no
    concealment to lose): a near-certain one (``[own_fire] high``) is taken unweighed."""
    game = duel(t34="C3")
    to_phase(game, "advancing_fire", "german")
    s = situation(game, "german", level=3)
    s.weigh = lambda _table, _options: (_ for _ in ()).throw(AssertionError("weighed"))
    best = shots(s.table, "german", s.legal)[0]
    assert best.odds.p_kill >= tuning().own_fire.high
    option = FIRE.evaluate(s)
    assert option is not None and option.decision.action == best.action


def test_issue41_rd12_a_prep_fire_choice_is_played_out_through_the_enemys_answering_moves():
    """The horizon (``finish_moves``): from Prep Fire through ``[own_fire] prep_moves`` (2)
    Movement Phases, the German's own and the Russian's answer, each with the Defensive Fire
    after it; from Advancing Fire through the Russian's next Movement Phase and the German's
    Defensive Fire at it: both end as the Russian's Advancing Fire begins (or with the game,
    a tank knocked out on the way)."""
    own = tuning().own_fire
    for phase, moves in (("prep_fire", own.prep_moves), ("advancing_fire", own.moves)):
        ends = set()
        for dice in range(6):
            game = duel(t34="J8")
            to_phase(game, phase, "german")
            copy = table_of(game, "german").imagined(dice)
            me, them = ComputerPlayer("german", 2, seed=1), ComputerPlayer("russian", 2, seed=2)
            finish_moves(copy, "german", me, them, 2000, moves)
            end = copy.table("german")
            ends.add("over" if end.over else (end.turn, end.phasing, end.phase))
        assert (1, "russian", "advancing_fire") in ends and len(ends - {"over"}) == 1, ends


def test_issue41_rd11_level_3s_own_fire_choice_is_the_same_whatever_its_question_marks_are():
    """What the weighing keeps and its figures come from what the German may know: two games
    whose "?" in I1 differ (a Gun, an anti-tank rifle team) weigh alike (RD-11), and a game
    resumed at the choice weighs the same (its seed from the player's seed and the side's
    view)."""
    results = []
    for hidden in ("zis3", "rus_atr", "zis3"):
        game = duel(hidden)
        table = table_of(game, "german")
        assert any(u["type"] == "?" for u in table.units())
        s = situation(game, "german", level=2)
        usual = FIRE._usual(s)
        assert usual is not None
        options = [usual.decision.action, EndPhase()]
        player = ComputerPlayer("german", 3, seed=11)
        kept, words = player._weigh_chance(table, options)
        assert player.last_chance is not None
        results.append((kept, words, player.last_chance.means, player.last_chance.rounds))
    assert results[0] == results[1] == results[2]
    assert results[0][3] >= 2
