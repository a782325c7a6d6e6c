"""Issue 41, item 1 again: a lone defender stood still while the enemy worked round its flank.
It weighed only the threat of the enemies where they stand (RD-18), so with none of them in its
sight it neither turned nor moved, and in tutorial-duel the T-34s it had not seen drove round
and shot it from the side in their Advancing Fire. Now a vehicle weighs the threat after the
enemy's next move too (``Table.threat_ahead``: each enemy at the hex of its reach whence its
shot is deadliest), and keeps its front to it or moves where its flanks are covered. And its
shots go first at the enemy about to fire at it (``game.ai.valuation.targets.dangers``)."""

from __future__ import annotations

from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.valuation.hexes import ahead_risk
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase, Fire, Move, Place, Turn
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios

WALL = [  # two T-34s east of a woods wall (column F) with gaps in rows 4 and 1-2 west of it
    "o o o o o w o o",
    "o o o o o w o o",
    "o w o o o w o o",
    "o w o o o o o o",
    "o o o o o w o o",
    "o o o o o w o o",
    "o o o o o w o o",
]


def behind_the_wall(hx: str, facing: int) -> Game:
    """A Panzer IV in ``hx`` at its Movement Phase, no enemy in its sight; two T-34s behind the
    woods wall that could drive round it in their next Movement Phase (17 MP, RD-10)."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", hx, facing=facing),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H2", facing=4),
        UnitSetup("rus-t34-2", "t34m43", "russian", "H6", facing=4),
    ]
    setup = make_setup(
        units,
        rows=WALL,
        victory=[Victory("german", "eliminate", count=2), Victory("russian", "eliminate", count=1)],
        turns=4,
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    return game


def test_issue41_rd18_the_threat_ahead_counts_the_enemy_that_could_drive_round():
    """The premise: no enemy sees A1 now (the threat map's figure 0), but after their next
    move the T-34s could shoot at it; least where the Panzer keeps its front to the way they
    come (RD-8: its rear is thinner), most with its back to them."""
    game = behind_the_wall("A1", 3)
    table = table_of(game, "german")
    assert table.threat_here("ger-pz4-1").p_kill == 0.0
    ahead = table.threat_ahead("ger-pz4-1", ["A1"])["A1"]
    best = min(ahead, key=lambda f: ahead[f].p_kill)
    assert ahead[best].p_kill < 0.5 < ahead[3].p_kill
    assert ahead_risk(ahead) < ahead_risk(ahead, 3)


def test_issue41_next_reach_goes_round_the_wall_not_through_it():
    """A T-34's reach in its next Movement Phase (its 17 MP, RD-10): round the woods wall by
    the gap, to the Panzer's side of it; a hex of the wall itself it may enter (woods)."""
    from game.board.hexes import label
    from game.engine.play.paths import next_reach

    game = behind_the_wall("A1", 3)
    reach = {label(h) for h in next_reach(game.state, "rus-t34-1")}
    assert {"H2", "E4", "C4"} <= reach
    assert "A1" not in reach  # the Panzer's own hex (HX-4)


def test_issue41_rd8_a_vehicle_no_enemy_sees_turns_its_front_to_the_way_they_will_come():
    """The Panzer in the corner A1 with its back to the T-34s behind the wall: none sees it,
    so it stood as it was (before: End Phase); now it turns towards them."""
    game = behind_the_wall("A1", 3)
    decision = ComputerPlayer("german", 2, seed=1).choose(table_of(game, "german"))
    assert isinstance(decision.action, Turn), decision
    assert decision.action.facing in (2, 4)
    assert "front" in decision.why


def test_issue41_a_vehicle_in_the_open_moves_where_the_enemy_cannot_reach_its_flank():
    """In A4, open on every side but the map edge, both T-34s could reach its side or rear
    next turn; it moves (or turns to move) to a hex where that threat is lower (before: End
    Phase, no enemy in sight)."""
    game = behind_the_wall("A4", 3)
    table = table_of(game, "german")
    decision = ComputerPlayer("german", 2, seed=1).choose(table)
    assert isinstance(decision.action, (Move, Turn)), decision
    goal = decision.why.split()[-1]
    ahead = table.threat_ahead("ger-pz4-1", ["A4", goal])
    assert ahead_risk(ahead[goal]) < ahead_risk(ahead["A4"])


def test_issue41_a_shot_goes_first_at_the_enemy_about_to_fire():
    """tutorial-duel, the German Prep Fire: a Shocked T-34 in E5 (69% to knock it out, no
    shot of its own, C7.42) and a T-34 beside the Panzer in E2 (65%; its shot at the Panzer
    73%). Before, the Panzer shot the Shocked one and the other shot it; now the one beside."""
    setup = load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel")).setup
    game = Game(setup, 1)
    game.apply(Place("ger-pz4-1", "D3", 0))
    while game.phase in ("setup", "setup_attacker"):
        game.apply(EndPhase())
    for uid, hx, facing, shock in (
        ("rus-t34-1", "E5", 3, "shock"),
        ("rus-t34-2", "E2", 4, "none"),
        ("rus-t34-3", "L8", 3, "none"),
    ):
        unit = game.state.units[uid]
        unit.hex, unit.facing, unit.turret, unit.shock = game.board.parse(hx), facing, facing, shock
    to_phase(game, "prep_fire", "german")
    table = table_of(game, "german")
    assert table.odds("ger-pz4-1", "rus-t34-1").p_kill > table.odds("ger-pz4-1", "rus-t34-2").p_kill
    decision = ComputerPlayer("german", 2, seed=1).choose(table)
    assert isinstance(decision.action, Fire) and decision.action.target == "rus-t34-2"


# --- item 4 again: a Gun whose Covered Arc holds one hex of the lane ------------------------

LANE = [  # the Gun in B5 sees F3, F4 and F5 of the lane (column F) through the gap, no more
    "w w w w w o w",
    "w w w w w o w",
    "w w w w w o w",
    "w w o o o o w",
    "o o o o o o w",
    "w w w w w o w",
    "w w w w w o w",
    "w w w w w o w",
    "w w w w w o w",
]


def test_issue41_c6_17_hx2_a_gun_fires_before_the_mover_leaves_its_covered_arc():
    """A Russian 45 mm Gun in B5 facing 0: of the lane it sees (F3-F5) only F5 lies in its
    Covered Arc (HX-2; it may not turn in the enemy's Movement Phase). A Panther drives up the
    lane: at F5 the shot is at Case J2 with MP left and the hex ahead (F4) stays in LOS, so
    level 2 held it, and F4 was out of its arc: no shot at all. Now it fires in F5."""
    from game.engine.actions import Pass

    units = [
        UnitSetup("rus-gun-1", "m1937", "russian", "B5", facing=0),
        UnitSetup("ger-pz5-1", "pz5g", "german", "F9", facing=2),
    ]
    setup = make_setup(
        units,
        rows=LANE,
        victory=[Victory("russian", "eliminate", count=1)],
        turns=3,
        first="german",
        defender="russian",
        year=1943,
    )
    game = Game(setup, 5)
    to_phase(game, "movement", "german")
    ai = ComputerPlayer("russian", 2, seed=2)
    chances = []
    for hx in ("F8", "F7", "F6", "F5", "F4", "F3", "F2"):
        game.apply(Move("ger-pz5-1", hx))
        while game.dff_pending and not game.over:
            table = table_of(game, "russian")
            action = table.engine_action(ai.choose(table).action)
            chances.append((hx, action.type))
            game.apply(action if isinstance(action, Fire) else Pass())
        if game.over:
            break
    assert chances[0] == ("F5", "fire"), chances
