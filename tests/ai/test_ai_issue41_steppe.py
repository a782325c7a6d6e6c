"""Issue 41, item 2: on the open steppe the Russian T-34s drove at the Panzers' woods and lost
three AFVs by turn 2-3, most to Defensive First Fire (C6.17): a shot at a stopped T-34 as it
spent its start MP in its hex (no Case J: it had entered no new hex, C6.1), shots at T-34s that
stopped in sight of the "?" in the woods (no Case J in the enemy's Prep Fire), and every T-34
weighing its way past Panzers that had fired already as if they could fire again. An ASL
attacker draws the First Fire, then drives on under fewer guns; ends its move in Motion in the
enemy's sight; and counts the shot its start MP gives."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, script, table_of, to_phase

from game.ai.candidates.setup import spot
from game.ai.candidates.steps import end_move
from game.ai.lookahead import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.approach import enemy_way
from game.ai.valuation.danger import live_risk, removal_risk, spent_firers
from game.ai.valuation.hexes import HexScore
from game.ai.valuation.setup import SpotScore, options
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndMove, EndPhase, Fire, Move, Pass
from game.engine.setup import SetupArea

# Open ground; woods in column A (rows 1-3) and a woods screen in row 5 (B5-H5).
STEPPE = [
    "w o o o o o o o o o",
    "w o o o o o o o o o",
    "w o o o o o o o o o",
    "o o o o o o o o o o",
    "o w w w w w w w o o",
    "o o o o o o o o o o",
]


def steppe(
    germans: list[UnitSetup], t34s: list[tuple[str, str]], russian: Victory | None = None
) -> Game:
    """The Russian's Movement Phase of turn 1 of 4: ``germans`` (the scenario defender) and a
    T-34 in each hex of ``t34s`` (id, hex), facing west; the Russian wins by ``russian``
    (default: knocking out one AFV)."""
    units = [*germans] + [UnitSetup(i, "t34m43", "russian", h, facing=3) for i, h in t34s]
    setup = make_setup(
        units,
        rows=STEPPE,
        victory=[
            Victory("german", "eliminate", count=2),
            russian or Victory("russian", "eliminate", count=1),
        ],
        turns=4,
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, 5)
    to_phase(game, "movement", "russian")
    return game


def test_issue41_c617_hx8_a_panzer_that_took_its_dff_shot_counts_no_more_on_the_way():
    """The Panzer in B2 fires at the first T-34 as it enters I3; then, for the second T-34,
    the hexes in the Panzer's sight count none of its risk on the way (it may not fire again
    this phase, HX-8), while the hex it would stop in keeps it (the Panzer's next Prep Fire)."""
    game = steppe(
        [UnitSetup("ger-pz4-1", "pz4h", "german", "B2", facing=1)],
        [("rus-t34-1", "J3"), ("rus-t34-2", "J1")],
    )
    game.apply(Move("rus-t34-1", "I3"))
    shots = [a for a in game.legal_actions() if isinstance(a, Fire)]
    assert shots, "the Panzer is offered its Defensive First Fire shot (C6.17)"
    before = table_of(game, "russian")
    assert spent_firers(before, "russian") == frozenset()
    script(game, 6, 6, 6, 6)  # it misses (and keeps no Multiple ROF, RD-4)
    game.apply(shots[0])
    while game.dff_pending:
        game.apply(Pass())
    game.apply(EndMove("rus-t34-1", False))
    s = situation(game, "russian")
    assert spent_firers(s.table, "russian") == {"ger-pz4-1"}
    unit = next(u for u in s.table.units() if u["id"] == "rus-t34-2")
    score = HexScore(s, unit, STEADY, frozenset(["E2", "J1"]))
    assert removal_risk(score.threats.get("E2")) > 0.1
    assert score.risk_at("E2", stay=False) == 0.0  # on the way: the Panzer has fired
    assert score.risk_at("E2") > 0.1  # where it stays: the Panzer's next Prep Fire
    assert live_risk(score.threats.get("E2"), frozenset()) == removal_risk(score.threats.get("E2"))


def test_issue41_c61_the_start_mp_of_a_stopped_t34_in_sight_counts_on_its_way():
    """A T-34 stopped in the Panzer's sight (J3) spends its start MP there, where a Defensive
    First Fire shot has no Case J (C6.1): a route out of sight (behind the woods of row 5)
    counts that shot's risk with the way's."""
    game = steppe([UnitSetup("ger-pz4-1", "pz4h", "german", "B2", facing=1)], [("rus-t34-1", "J3")])
    s = situation(game, "russian")
    unit = next(u for u in s.table.units() if u["id"] == "rus-t34-1")
    route = s.table.route("rus-t34-1", "J6")
    assert route is not None and "J3" not in route.hexes
    score = HexScore(s, unit, STEADY, frozenset(["J3", *route.hexes]))
    start = removal_risk(score.threats.get("J3"))
    assert start > 0.1 and score.risk_at("J6") == 0.0
    way = 1.0
    for h in route.hexes[:-1]:
        way *= 1.0 - tuning().move.dff_on_the_way * score.risk_at(h, stay=False)
    goal = STEADY.objective * s.objectives.of(s.table, "rus-t34-1")("J6")
    lost = goal - score("J6", route)
    counted = score.caution * score.worth * (1.0 - way * (1.0 - start))
    assert abs(lost - counted) < 1e-9  # the start MP's shot counted with the way's
    assert lost > score.caution * score.worth * (1.0 - way) + 0.1


def test_issue41_c61_the_attacker_ends_its_move_in_motion_in_sight_of_a_concealed_unit():
    """A T-34 of the side that must act ends its move in sight of a "?" in the woods (no known
    enemy, so the threat map reads 0): in Motion, so the "?"'s Prep Fire at it takes Case J
    (C6.1). Out of every enemy's sight it stops; the scenario defender keeps ``[move] motion``.
    (The Russian's victory names the unit it must knock out: the "?" need not be an AFV, which
    might drive into sight of the hex, RD-13; ``test_ai_issue41_duel.py``.)"""
    hidden = UnitSetup("ger-pak-1", "pak40", "german", "A2", facing=1, concealed=True)
    named = Victory("russian", "eliminate", units=("ger-pak-1",))
    game = steppe([hidden], [("rus-t34-1", "F2"), ("rus-t34-2", "F6")], named)
    game.apply(Move("rus-t34-1", "E2"))
    while game.dff_pending:  # the "?" holds its fire
        game.apply(Pass())
    s = situation(game, "russian")
    assert s.table.threat_here("rus-t34-1").p_kill == 0.0
    assert end_move(s, "rus-t34-1").action == EndMove("rus-t34-1", True)
    game.apply(EndMove("rus-t34-1", True))
    while game.dff_pending:
        game.apply(Pass())
    game.apply(Move("rus-t34-2", "E6"))  # behind the woods of row 5: no "?" sees it
    while game.dff_pending:
        game.apply(Pass())
    s = situation(game, "russian")
    assert end_move(s, "rus-t34-2").action == EndMove("rus-t34-2", False)


# Open ground; woods in A1 (the "?") and a woods screen in F3-G4.
SCREEN = [
    "w o o o o o o o o o",
    "o o o o o o o o o o",
    "o o o o o w w o o o",
    "o o o o o w w o o o",
    "o o o o o o o o o o",
]


def t34_set_up() -> Game:
    """The Russian's set-up (HX-12: after the German's, the scenario defender): a concealed
    Panzer, a "?" to the Russian, in the woods of A1; a T-34 to set up in columns I-J, of
    which I1-I3, J1 and J2 lie in the "?"'s LOS, 8-9 hexes from it, and the rest behind the
    woods screen."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "A1", facing=1, concealed=True),
        UnitSetup("rus-t34-1", "t34m43", "russian", "J1", facing=3, area=SetupArea((8, 9))),
    ]
    setup = make_setup(
        units,
        rows=SCREEN,
        victory=[
            Victory("german", "eliminate", count=1),
            Victory("russian", "eliminate", count=1),
        ],
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, 4)
    while game.phase == "setup":  # the German sets up first and stands where it is
        game.apply(EndPhase())
    assert game.phase == "setup_attacker" and game.to_act == "russian"
    return game


def test_issue41_hx12_c61_rd11_a_t34_sets_up_out_of_the_sight_of_a_concealed_enemy():
    """The side that sets up second sees where the enemy's "?" stand (HX-12, RD-11); a T-34
    that sets up in the LOS of one is shot as it spends its start MP there, with no Case J
    (C6.1): on the steppe, 15-19 hexes from the Panzers' woods, in most games of turn 1. Its
    set-up counts each "?" in LOS by ``[set_up] unknown``: every hex it may draw (within
    ``[set_up] spread`` of the best) is out of the "?"'s LOS, whatever the seed."""
    game = t34_set_up()
    for seed in range(1, 6):
        s = situation(game, "russian", seed=seed)
        table, board = s.table, s.table.board
        sees = table.viewshed("A1")[0]
        seen = table.units()
        assert any(u["type"] == "?" for u in seen), "the Panzer is a '?' to the Russian"
        t34 = next(u for u in seen if u["id"] == "rus-t34-1")
        way = enemy_way(table, "russian", seen)
        eyes = [table.viewshed(u["hex"])[0] for u in seen if u["side"] != "russian"]
        choices = options(table, "russian", t34, seen)
        in_sight = {h for h in choices if sees[board.index(board.parse(h))]}
        assert in_sight and set(choices) - in_sight
        score = SpotScore(s, t34, seen, way, eyes, choices)
        top = max(score(h) for h in choices)
        pool = {h for h in choices if score(h) >= top - tuning().set_up.spread}
        assert not pool & in_sight, f"it may set up in the '?'s sight: {sorted(pool & in_sight)}"
        found = spot(s, t34, seen, way, eyes)
        assert found is not None and found[0] not in in_sight
