"""Issue 41, eleventh session: level 3's playouts imagined the enemy as level 2's playout player
whatever enemy it met (the hedgerow's careful Americans drove F8-E9 and along rows 9-10, out of
the German's sight, where the playouts' Americans drove down the road into it). Now the enemy's
playout player drives where the enemy's vehicles were seen to drive this game, read from the
searching side's log alone (docs/ai-experiments.md "Level 3 against the enemy it has met")."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase
from test_candidate_dff import t34_comes_round_the_woods

from game.ai import ComputerPlayer
from game.ai import opponent as opponent_module
from game.ai.candidates.dff import WAITS, DffCandidate
from game.ai.lookahead import SearchResult
from game.ai.tuning import tuning
from game.ai.valuation.objective import Objectives
from game.ai.valuation.seen import SeenObjectives, seen_routes
from game.ai.valuation.targets import shots
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndMove, Move, Pass

DFF = DffCandidate()
FIELD = [" ".join("o" for _ in range(10)) for _ in range(8)]


def _field(*victory: Victory):
    """A Panzer IV in B2 (the defender) and a T-34 in I8 that moves first, 1943, 4 turns, on
    open ground, under ``victory``."""
    return make_setup(
        [
            UnitSetup("ger-pz4-1", "pz4h", "german", "B2", facing=0),
            UnitSetup("rus-t34-1", "t34m43", "russian", "I8", facing=3),
        ],
        rows=FIELD,
        victory=list(victory),
        turns=4,
        first="russian",
        defender="german",
        year=1943,
    )


def seen_a_drive() -> tuple[Game, frozenset[str]]:
    """A Panzer IV in B2 (the defender); a T-34 that wins by leaving by the west edge (RD-13)
    drove from I8 to E8 along the south rows in its Movement Phase of turn 1 (the route
    planner's way); the game at the German Movement Phase, and the hexes it moved into."""
    game = Game(
        _field(
            Victory("russian", "exit", count=1, edge="west"),
            Victory("german", "eliminate", count=1),
        ),
        3,
    )
    to_phase(game, "movement", "russian")
    route = table_of(game, "russian").route("rus-t34-1", "E8")
    assert route is not None
    for step in route.steps:
        game.apply(step)
        while game.dff_pending:  # the Panzer lets each chance go
            game.apply(Pass())
    game.apply(EndMove("rus-t34-1", False))
    while game.dff_pending:
        game.apply(Pass())
    to_phase(game, "movement", "german")
    return game, frozenset(a.to for a in route.steps if isinstance(a, Move))


def test_issue41_the_routes_seen_are_the_hexes_the_enemy_vehicles_moved_into_by_the_log():
    game, drove = seen_a_drive()
    table = table_of(game, "german")
    assert "E8" in drove and "I8" not in drove
    assert seen_routes(table, "german") == drove
    assert seen_routes(table, "russian") == frozenset()  # the Panzer has not moved


def test_issue41_the_enemy_playout_objective_counts_the_hexes_near_its_seen_route():
    """In a hex of the seen route the T-34's objective counts ``[search] seen_weight`` more
    than its plain objective, a hex off it less, from ``seen_reach`` hexes on nothing more."""
    game, seen = seen_a_drive()
    table = table_of(game, "russian")
    plain = Objectives("russian").of(table, "rus-t34-1")
    prior = SeenObjectives("russian", seen).of(table, "rus-t34-1")
    t = tuning().search
    assert prior("E8") - plain("E8") == t.seen_weight
    assert 0 < prior("E7") - plain("E7") < t.seen_weight  # a hex off it
    assert prior("E2") == plain("E2")  # 6 hexes off it


def test_issue41_level_3s_playout_enemy_drives_where_it_was_seen(monkeypatch):
    """Level 3's plan search gives the enemy's playout player the seen routes' objective."""
    game, drove = seen_a_drive()
    got = {}

    def fake_search(table, seed, players, value, plans, budget, tanks):
        me, them = players(plans[0], 0)
        got["me"], got["them"] = me.objectives, them.objectives
        return SearchResult(plans[0], (), 0, 0, 0)

    monkeypatch.setattr(opponent_module, "search", fake_search)
    player = ComputerPlayer("german", 3, seed=1)
    player.choose(table_of(game, "german"))
    them = got["them"]
    assert isinstance(them, SeenObjectives) and them.seen == drove
    assert not isinstance(got["me"], SeenObjectives)


def test_issue41_c6_17_level_3_weighs_level_2s_choice_first_and_holding():
    """At a chance where level 2's choice is not obvious (a Case J2 shot of 36%, held by level
    2, C6.12), level 3 plays out level 2's choice first (Pass) and the best shot, and fires if
    the playouts say so (``Situation.weigh``); the words of the trial runs go to the plan, not
    to the log's line; level 2's choice kept, its words."""
    s = situation(t34_comes_round_the_woods(), "german", level=3)
    asked: list[list] = []

    def weigh(_table, options):
        asked.append(options)
        return 1, "fires: in 8 trial runs of the move it scored +60, the usual choice +10"

    s.weigh = weigh
    best = shots(s.table, "german", s.legal)[0]
    assert tuning().chance.low <= best.odds.p_kill < tuning().chance.high
    option = DFF.evaluate(s)
    assert asked == [[Pass(), best.action]]
    assert option is not None and option.decision.action == best.action
    assert "trial runs" in option.decision.plan and "trial" not in option.decision.why
    s = situation(t34_comes_round_the_woods(), "german", level=3)
    s.weigh = lambda _table, _options: (0, "holds, best")
    assert DFF.evaluate(s) is None and s.held == WAITS
    s = situation(t34_comes_round_the_woods(), "german", level=2)
    s.weigh = lambda _table, _options: (1, "")  # level 2 never asks
    assert DFF.evaluate(s) is None and s.held == WAITS


def test_issue41_c6_17_level_3_weighs_a_chance_only_once_the_enemy_was_seen_to_drive():
    """``[chance] evidence``: at the T-34's first chance of the game no earlier move of it was
    seen, so level 3 takes level 2's choice unweighed; in its next Movement Phase it weighs,
    its playouts' T-34 driving near the route it was seen to drive."""
    game, _ = seen_a_drive()
    fresh = Game(_field(Victory("russian", "exit", count=1, edge="west")), 3)
    to_phase(fresh, "movement", "russian")
    _drive_to_a_chance(fresh, "E8")
    player = ComputerPlayer("german", 3, seed=1)
    assert not player._weighs(table_of(fresh, "german"))
    to_phase(game, "movement", "russian", fresh=True)
    _drive_to_a_chance(game, "A8")
    assert player._weighs(table_of(game, "german"))
    assert not ComputerPlayer("german", 2, seed=1)._weighs(table_of(game, "german"))


def test_issue41_rd13_a_vehicle_seen_to_leave_the_map_keeps_its_route():
    """Issue 41, twelfth session: ``seen_routes`` read the moves of the enemy vehicles still in
    play alone, so a vehicle gone off the map took its route with it (and the ``[chance]
    evidence`` gate with it): on the hedgerow the first Sherman off the west edge shows the
    way the next will take. Its route stays, read from the side's log (an exit unconcealed is
    seen by both sides, RD-13); one that left as a "?" takes its route with it (what it was
    stays secret, RD-11), and so does one knocked out (its route led into the side's fire)."""
    game, drove = seen_a_drive()
    t34 = game.state.units["rus-t34-1"]
    t34.hex, t34.facing = game.board.parse("A8"), 4  # by the west edge, facing off it
    gone = game.copy()
    gone.state.units["rus-t34-1"].status = "exited"
    assert table_of(gone, "german").went_off("rus-t34-1") == "west"
    assert seen_routes(table_of(gone, "german"), "german") == drove
    assert seen_routes(table_of(gone, "german"), "german", True) == drove  # the gate
    hidden = game.copy()
    hidden.state.units["rus-t34-1"].status = "exited"
    hidden.state.units["rus-t34-1"].concealed = True
    assert seen_routes(table_of(hidden, "german"), "german") == frozenset()
    killed = game.copy()
    killed.state.units["rus-t34-1"].status = "burning"
    assert seen_routes(table_of(killed, "german"), "german") == frozenset()


def _drive_to_a_chance(game: Game, to: str) -> None:
    """The T-34 drives towards ``to`` until the German has a Defensive First Fire chance."""
    route = table_of(game, "russian").route("rus-t34-1", to)
    assert route is not None
    for step in route.steps:
        game.apply(step)
        if game.dff_pending:
            break
    assert game.dff_pending
