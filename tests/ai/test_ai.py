"""The computer opponent (docs/ai.md): it decides from what its side may know (two games that
differ only in the other side's secrets get the same decisions), its choices are reproducible
(a resumed game goes on as it would have), and it plays every shipped scenario to its end
against itself, every game saved and replayed to the same hash."""

from __future__ import annotations

import pytest
from engine_helpers import decide, make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.selfplay import play_game, wilson
from game.ai.tuning import tuning
from game.ai.valuation import removal_risk
from game.engine import Game, UnitSetup
from game.engine.actions import EndPhase, Pass, action_from_json
from game.files.replay import replay
from game.files.savegame import SavedGame
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios

DUEL_RISK = tuning().fire.duel_risk
STANDOFF = tuning().objective.standoff
ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o o o o o o", "o o o w o o o o"]
SMALL = ("tutorial-duel", "hedgerow-chart", "road-ambush")


def knowledge_of(game: Game, side: str):
    k = game.knowledge(side)
    return (k.units(), [e.text for e in k.events()], game.phase, game.to_act)


def decided_alike(ai: ComputerPlayer, a: Game, b: Game) -> int:
    """Play two games side by side while what the German may know is the same in both, the
    German by ``ai`` (asserting it decides the same in both), the Russian waiting; the
    decisions compared."""
    compared = 0
    for _ in range(200):
        if a.over or knowledge_of(a, "german") != knowledge_of(b, "german"):
            break
        if a.to_act == "german":
            da, db = decide(ai, a), decide(ai, b)
            assert da == db, (da, db)
            compared += 1
            action = da.action
        else:  # the Russian waits: the same in both games
            action = Pass() if a.dff_pending else EndPhase()
        a.apply(action)
        b.apply(action)
    return compared


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_computer_decides_the_same_whatever_the_other_side_hides(level):
    """The German computer faces a "?" that is a T-34 in one game and an AT rifle team in the
    other (the other "?" the other one: the order of battle is public, HX-21): while what the
    German may know is the same in both, so is every decision."""
    games = []
    for hidden, other in (("t34m43", "rus_atr"), ("rus_atr", "t34m43")):
        units = [
            UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
            UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
            UnitSetup("rus-1", hidden, "russian", "G2", facing=3, concealed=True),
            UnitSetup("rus-2", other, "russian", "H4", facing=3, concealed=True),
        ]
        games.append(Game(make_setup(units, rows=ROWS, first="german", defender="russian"), 4))
    assert decided_alike(ComputerPlayer("german", level, seed=9), *games) >= 5


@pytest.mark.parametrize("level", [1, 2, 3])
def test_rd11_the_computer_cannot_tell_which_question_mark_is_the_unit_it_must_knock_out(level):
    """The German must knock out rus-gun-1; two "?" stand on the map, and which is which is
    secret (RD-11): in the second game the two swap places. Every German decision is the
    same in both (a shot at a "?" named by the hex it stands in), so it never learns from a
    "?"'s id which one it must hunt."""
    from dataclasses import replace

    from game.engine import Victory

    swap = {"rus-gun-1": "rus-gun-2", "rus-gun-2": "rus-gun-1"}
    games = []
    for first, second in (("rus-gun-1", "rus-gun-2"), ("rus-gun-2", "rus-gun-1")):
        units = [
            UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
            UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
            UnitSetup(first, "zis3", "russian", "J1", facing=3, concealed=True),
            UnitSetup(second, "zis3", "russian", "J4", facing=3, concealed=True),
        ]
        setup = make_setup(
            units,
            rows=["o o o o o w o o o o"] * 4,  # the woods hide each from the other
            victory=[Victory("german", "eliminate", units=("rus-gun-1",))],
            first="german",
            defender="russian",
        )
        games.append(Game(setup, 4))
    a, b = games
    ai = ComputerPlayer("german", level, seed=9)

    def seen(game):  # the units as the German sees them, the "?" by hex alone
        return sorted(
            (u["hex"], u["type"], u.get("facing"), u.get("status"))
            for u in game.knowledge("german").units()
        )

    compared = 0
    for _ in range(200):
        if a.over or seen(a) != seen(b):
            break
        if a.to_act == "german":
            da, db = decide(ai, a), decide(ai, b)
            target = getattr(db.action, "target", None)
            if target in swap:
                db = replace(db, action=replace(db.action, target=swap[target]))
            assert (da.action, da.why) == (db.action, db.why)
            compared += 1
            action_a, action_b = da.action, replace(da.action)
            if getattr(da.action, "target", None) in swap:
                action_b = replace(da.action, target=swap[da.action.target])
        else:  # the Russian waits: the same in both games
            action_a = action_b = Pass() if a.dff_pending else EndPhase()
        a.apply(action_a)
        b.apply(action_b)
    assert compared >= 5


@pytest.mark.parametrize("level", [2, 3])
def test_c6_42_the_computer_decides_the_same_whatever_hex_the_enemy_bore_sighted(level):
    """The Russian Gun has Bore Sighted C2 in one game and E3 in the other (its secret,
    C6.42): while what the German may know is the same, so is every decision, the search's
    playouts included."""
    games = []
    for hx in ("C2", "E3"):
        units = [
            UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
            UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
            UnitSetup("rus-gun-1", "zis3", "russian", "G2", facing=3),
        ]
        game = Game(make_setup(units, rows=ROWS, first="german", defender="russian"), 4)
        game.state.units["rus-gun-1"].bore_sight = hx
        games.append(game)
    assert decided_alike(ComputerPlayer("german", level, seed=9), *games) >= 5


@pytest.mark.parametrize("name", ["tutorial-duel", "hedgerow-chart"])
def test_the_computers_choices_are_reproducible_and_a_resumed_game_goes_on_the_same(name):
    """Its caches (the threat maps, the objective) never change a decision: fresh players on
    a game resumed halfway play the rest as the first players did."""
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == name))
    levels = dict(zip(sc.setup.sides, (2, 1), strict=True))
    game, first = play_game(sc.setup, 21, levels)
    _, again = play_game(sc.setup, 21, levels)
    assert first.actions == again.actions and first.final_hash == again.final_hash
    # resumed halfway: new players (seeded from the game's seed), the same game to its end
    half = len(first.actions) // 2
    resumed = Game(sc.setup, 21)
    for a in first.actions[:half]:
        resumed.apply(action_from_json(a))
    players = {
        s: ComputerPlayer(s, levels[s], seed=21 * 7 + i) for i, s in enumerate(sc.setup.sides)
    }
    rest = []
    while not resumed.over:
        d = decide(players[resumed.to_act], resumed)
        resumed.apply(d.action)
        rest.append(d.action.to_json())
    assert tuple(first.actions[half:]) == tuple(rest)
    assert resumed.state_hash() == game.state_hash()


@pytest.mark.parametrize(
    "path",
    [
        p
        if p.stem in SMALL or p.stem.startswith("lesson-")
        else pytest.param(p, marks=pytest.mark.playthrough)
        for p in shipped_scenarios()
    ],
    ids=lambda p: p.stem,
)
def test_the_computer_plays_each_shipped_scenario_to_its_end_saved_and_replayed(path):
    """Level 3 (the search) against level 2 where a game is quick, each side by one of them
    in turn; level 2 on both sides on the large maps."""
    sc = load_scenario(path)
    saved = SavedGame.new(sc, 5)

    def record(game, action):
        saved.record(action, game)

    quick = path.stem in SMALL or path.stem.startswith("lesson-")
    first, second = sc.setup.sides
    turn = sum(map(ord, path.stem)) % 2  # which side the search plays, by the scenario
    levels = {first: 3 - turn, second: 2 + turn} if quick else {first: 2, second: 2}
    game, result = play_game(sc.setup, 5, levels, on_action=record)
    assert game.over and result.winner in sc.setup.sides, result.reason
    assert replay(saved).state_hash() == game.state_hash() == result.final_hash


def test_the_win_rates_95_percent_interval_is_wilsons():
    lo, hi = wilson(19, 20)
    assert 0.75 < lo < 0.77 and 0.99 < hi <= 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 20)
    assert lo == pytest.approx(1 - hi)


def test_a_level_outside_0_3_is_refused():
    with pytest.raises(ValueError, match="level 4"):
        ComputerPlayer("german", 4)


def squad_exiting_west(gun_hex: str, squad_hex: str, rows: list[str], turns: int = 3) -> Game:
    """A Russian Infantry squad with an exit victory by the west edge (RD-13) against one
    German Gun, at the Russian's first Movement Phase."""
    from game.engine import Victory

    units = [
        UnitSetup("ger-gun-1", "pak40", "german", gun_hex, facing=0 if gun_hex == "A1" else 3),
        UnitSetup("rus-sq-1", "rus_atr", "russian", squad_hex),
    ]
    setup = make_setup(
        units,
        rows=rows,
        victory=[Victory("russian", "exit", count=1, edge="west")],
        turns=turns,
        first="russian",
        defender="german",
    )
    game = Game(setup, 3)
    while game.phase != "movement" or game.to_act != "russian":
        game.apply(EndPhase())
    return game


def russian_moves(game: Game, ai: ComputerPlayer) -> list:
    """The computer's decisions for the rest of the Russian Movement Phase, applied."""
    decisions = []
    while game.phase == "movement" and game.to_act == "russian" and not game.dff_pending:
        decisions.append(decide(ai, game))
        game.apply(decisions[-1].action)
    return decisions


def test_rd13_the_computer_leaves_by_the_edge_its_victory_names_and_walks_its_infantry_on():
    """An exit victory by the west edge: the Infantry squad standing on the east edge is
    never led off it there (it would not count, RD-13); it walks west, more than one hex a
    Movement Phase while its MF last (RD-10)."""
    game = squad_exiting_west("A1", "H2", ROWS)
    assert game.exit_edge("rus-sq-1") == "east"
    for decision in russian_moves(game, ComputerPlayer("russian", 2, seed=1)):
        assert not (decision.action.type == "move" and decision.action.to == "off")
    assert game.units["rus-sq-1"].hex.distance(game.board.parse("H2")) >= 2


def test_002_rd13_infantry_heads_for_its_exit_edge_from_the_first_turn():
    """Infantry is slow and AT fire cannot stop it (002): with an exit victory (RD-13) it walks
    for the edge from the first of ten turns, not towards the enemy it cannot harm there."""
    game = squad_exiting_west("N2", "G2", [" ".join(["o"] * 14)] * 6, turns=10)
    start = game.units["rus-sq-1"].hex
    russian_moves(game, ComputerPlayer("russian", 2, seed=1))
    west = game.board.parse("A2")
    assert game.units["rus-sq-1"].hex.distance(west) <= start.distance(west) - 2


@pytest.mark.parametrize("level", [1, 2])
def test_002_rd13_infantry_takes_a_hold_hex_at_once_and_keeps_it(level):
    """AT fire cannot harm Infantry (002) and no unit enters an enemy's hex, so a hold hex an
    Infantry unit takes it keeps to the end, when a hold counts (RD-13): from the first turn
    of eight, and away from the enemy, the Russian squad walks into the nearer hex its side
    must hold, the German squad into the other (denying the hold), and the German keeps it."""
    from game.engine import Victory

    units = [
        UnitSetup("ger-sq-1", "ger_psk", "german", "A5"),
        UnitSetup("ger-gun-1", "pak40", "german", "A1", facing=0),
        UnitSetup("rus-sq-1", "rus_atr", "russian", "F2"),
        UnitSetup("rus-gun-1", "zis3", "russian", "E6", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o " * 11 + "o"] * 6,
        victory=[Victory("russian", "hold", hexes=("J1", "J5"))],
        turns=8,
        first="russian",
        defender="german",
    )
    game = Game(setup, 5)
    players = {s: ComputerPlayer(s, level, seed=3) for s in ("german", "russian")}
    took = set()
    while game.turn <= 5 and not game.over:
        unit_moves = game.phase == "movement" and not game.dff_pending
        action = decide(players[game.to_act], game).action if unit_moves else None
        if action is None or action.type == "fire":
            action = Pass() if game.dff_pending else EndPhase()  # no shots: only the walk
        game.apply(action)
        if game.units["rus-sq-1"].label == "J1":
            took.add(game.turn)
        if game.turn >= 4:  # three Movement Phases of 4 MF each (RD-10)
            assert game.units["ger-sq-1"].label == "J5"
    assert min(took) == 1  # in its first Movement Phase, when no hold counts yet


@pytest.mark.parametrize("seed", range(100, 112))
def test_c617_a_computer_vehicle_never_drives_in_circles_within_one_move(seed):
    """The route is weighed again after every step; a vehicle never comes back to a hex and
    facing it already stood in during the same move (turning back and forth spends MP in the
    enemy's sight for nothing, C6.17): the duel at the top level against random play."""
    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel"))
    been: dict[str, set] = {}

    def watch(game, action):
        if action.type not in ("move", "turn") or game.moving_unit is None:
            if game.moving_unit is None:
                been.clear()
            return
        unit = game.units[action.unit]
        where = (unit.label, unit.facing)
        assert where not in been.setdefault(unit.id, set()), (unit.id, where)
        been[unit.id].add(where)

    play_game(sc.setup, seed, {"german": 3, "russian": 3}, on_action=watch)


def test_hx11_the_scenario_defender_waits_for_the_enemy_and_faces_it():
    """The scenario defender wins when time runs out (HX-11): at set-up its tank turns to face
    the enemy it knows of (its front armor towards the shots, RD-8), and in its Movement
    Phases it closes with the enemy beyond the woods, which waits too, to its shooting range
    and no nearer (the side that must act closes to 3 hexes)."""
    from game.engine import Victory
    from game.engine.setup import SetupArea
    from game.rules.facing import facing_offset

    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=3, area=SetupArea(columns=(0, 2))),
        UnitSetup("rus-tank-1", "t34m43", "russian", "L2", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o o o o o w w o o o o o"] * 4,  # woods between: out of each other's LOS
        victory=[Victory("german", "eliminate", count=1), Victory("russian", "eliminate", count=1)],
        turns=4,
        first="russian",
        defender="german",
    )
    game = Game(setup, 7)
    ai = ComputerPlayer("german", 2, seed=5)
    while game.turn <= 3 and not game.over:
        if game.to_act == "german":
            action = decide(ai, game).action
            if action.type == "fire":
                action = EndPhase()  # only where it stands and how it faces is looked at
        else:
            action = Pass() if game.dff_pending else EndPhase()
        game.apply(action)
        tank, enemy = game.units["ger-pz-1"], game.units["rus-tank-1"]
        if game.phase == "setup_attacker":  # its set-up done
            assert facing_offset(tank.hex, tank.facing, enemy.hex) <= 60  # its front
        assert tank.hex.distance(enemy.hex) >= STANDOFF


def test_rd10_a_vehicle_whose_front_hex_holds_an_enemy_turns_and_drives_on():
    """No unit enters an enemy's hex, and a vehicle leaves only through its front hexside
    (RD-10): the tank whose front hex holds the enemy squad can still act (it must turn
    first), so it is listed among the units that can act (the green dots) and the computer
    turns it and drives off by the edge its exit victory names (RD-13), instead of standing
    until time runs out (the squad here holds its fire)."""
    from game.engine import Victory

    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "E2", facing=3),  # facing west, the squad ahead
        UnitSetup("ger-gun-1", "pak40", "german", "H4", facing=3),  # it may pivot: no move
        UnitSetup("rus-sq-1", "rus_atr", "russian", "D1"),
    ]
    setup = make_setup(
        units,
        rows=["o " * 7 + "o"] * 4,
        victory=[Victory("german", "exit", count=1, edge="west")],
        turns=4,
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    while game.phase != "movement" or game.to_act != "german":
        game.apply(EndPhase())
    assert game.board.parse("D1") == game.units["ger-pz-1"].hex.neighbor(3)
    assert not game.move_costs("ger-pz-1")  # it may not go ahead
    assert game.can_act() == ["ger-pz-1"]  # not the Gun, whose only move is a pivot
    ai = ComputerPlayer("german", 2, seed=1)
    first = decide(ai, game).action
    assert first.type == "turn"
    while not game.over:
        if game.to_act == "german" and not game.dff_pending:
            game.apply(decide(ai, game).action)
        else:
            game.apply(Pass() if game.dff_pending else EndPhase())
    assert game.state.winner == "german" and game.turn <= 2


def german_to(phase: str, units, victory, defender: str, columns: int, rows: int) -> Game:
    """A four-turn game on open ground, ``columns`` x ``rows``, the German moving first, at
    the German ``phase``."""
    setup = make_setup(
        units,
        rows=["o " * (columns - 1) + "o"] * rows,
        victory=[victory],
        turns=4,
        first="german",
        defender=defender,
    )
    game = Game(setup, 3)
    to_phase(game, phase, "german")
    return game


def prep_fire_at_a_gun(victory) -> Game:
    """A Pz IV three hexes from the west edge in its Prep Fire Phase, a Russian 45 mm Gun in
    its sights (a Gun hit by AT fire is eliminated, 002: 72% to knock it out)."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "E2", facing=3),
        UnitSetup("rus-gun-1", "m1937", "russian", "H2", facing=3),
    ]
    return german_to("prep_fire", units, victory, "russian", 10, 4)


@pytest.mark.parametrize("level", [2, 3])
def test_rd12_rd13_a_vehicle_that_can_exit_this_turn_keeps_its_move_for_a_fair_shot(level):
    """A Prep Fire shot costs the firer its Movement Phase (RD-12): with an exit victory by
    the west edge (RD-13) the tank that can leave this turn holds a fair shot at an unnamed
    Gun and drives; with an elimination victory instead it takes the same shot."""
    from game.engine import Victory

    exits = prep_fire_at_a_gun(Victory("german", "exit", count=1, edge="west"))
    decision = decide(ComputerPlayer("german", level, seed=1), exits)
    assert decision.action == EndPhase()
    assert "RD-13" in decision.why
    kills = prep_fire_at_a_gun(Victory("german", "eliminate", count=1))
    decision = decide(ComputerPlayer("german", level, seed=1), kills)
    assert decision.action.type == "fire" and decision.action.target == "rus-gun-1"


def test_rd8_rd18_a_vehicle_that_stays_turns_its_front_to_the_enemy_behind_it():
    """The Panzer holds D2 (RD-13) with a T-34 three hexes behind it: its rear armor (4)
    would meet the T-34's AP (a 78% chance of being knocked out, the threat map's exact odds,
    RD-18); the computer pivots in its hex until its front (11, RD-8 aspects) faces the
    enemy, and the chance falls below half of that."""
    from game.engine import Victory

    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "D2", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", "A2", facing=0),
    ]
    game = german_to("movement", units, Victory("german", "hold", hexes=("D2",)), "german", 8, 6)
    before = game.knowledge("german").threat_here("ger-pz-1").p_kill
    ai = ComputerPlayer("german", 2, seed=1)
    first = decide(ai, game)
    assert first.action.type == "turn" and "front to the enemy" in first.why
    while game.phase == "movement" and game.phasing == "german":
        game.apply(Pass() if game.dff_pending else decide(ai, game).action)
    pz = game.units["ger-pz-1"]
    assert pz.label == "D2" and pz.facing in (3, 4)
    assert game.knowledge("german").threat_here("ger-pz-1").p_kill < before / 2


def concealed_t34_in_defensive_fire(target: str, facing: int) -> Game:
    """A concealed T-34 in B2 in its Defensive Fire Phase, brush between it and a German
    ``target`` in H2 (a To Hit of 58% either way)."""
    from game.engine import Victory

    units = [
        UnitSetup("rus-1", "t34m43", "russian", "B2", facing=0, concealed=True),
        UnitSetup("ger-1", target, "german", "H2", facing=facing),
    ]
    setup = make_setup(
        units,
        rows=["o o br br br o o o o o o o"] * 3,
        victory=[Victory("russian", "eliminate", count=1)],
        turns=4,
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    to_phase(game, "defensive_fire", "german")
    return game


@pytest.mark.parametrize("level", [2, 3])
def test_rd11_rd18_a_concealed_tank_shoots_first_at_a_danger_and_stays_hidden_from_the_rest(level):
    """A shot gives a concealed vehicle away (RD-11): the T-34 holds a fair shot at a PaK 40
    whose Covered Arc it is out of (no danger to it, RD-18), and takes a poor one (7% to knock
    it out) at a Pz IV whose shot could remove it: in a duel the first shot counts more."""
    gun = concealed_t34_in_defensive_fire("pak40", 0)
    assert removal_risk(gun.knowledge("russian").threat_here("rus-1")) == 0.0
    assert decide(ComputerPlayer("russian", level, seed=1), gun).action == EndPhase()
    tank = concealed_t34_in_defensive_fire("pz4h", 3)
    assert removal_risk(tank.knowledge("russian").threat_here("rus-1")) > DUEL_RISK
    decision = decide(ComputerPlayer("russian", level, seed=1), tank)
    assert decision.action.type == "fire" and decision.action.target == "ger-1"


def test_hx4_rd18_a_hex_an_own_vehicle_leaves_gets_its_threat_figure_in_the_kept_map():
    """The computer keeps a vehicle's threat map while the enemies stand still, made over the
    hexes it weighs; a hex its other tank stood in had no figure (it may not enter it, HX-4):
    once that tank has driven off, the hex is made and has the whole map's figure (RD-18),
    not the "no threat" of a hex no enemy sees."""
    from game.engine import Victory

    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "C2", facing=0),
        UnitSetup("ger-pz-2", "pz4h", "german", "B2", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", "G2", facing=3),
    ]
    game = german_to("movement", units, Victory("german", "eliminate", count=1), "russian", 8, 4)
    ai = ComputerPlayer("german", 2, seed=1)
    hexes = frozenset({"B2", "C2"})
    assert "C2" not in ai.maps.threats(table_of(game, "german"), "ger-pz-2", hexes)
    move = next(a for a in game.legal_actions() if a.type == "move" and a.unit == "ger-pz-1")
    game.apply(move)
    while game.dff_pending:  # the T-34 sees its start (HX-5): it holds its fire
        game.apply(Pass())
    table = table_of(game, "german")
    kept = ai.maps.threats(table, "ger-pz-2", hexes)
    fresh = table.threat_map("ger-pz-2", ["C2"])["C2"]
    assert fresh.p_kill > 0 and kept["C2"] == fresh


@pytest.mark.parametrize("level", [2, 3])
def test_c6_42_hx12_the_computers_randomness_ignores_the_other_sides_secret_set_up_actions(level):
    """The Russian's set-up choices are secret (HX-12, C6.42): in one game it turns its Gun
    and back and Bore Sights C2, in the other it only ends its set-up. What the German may
    know is the same in both, and so is every German decision, level 3's search included: its
    random source counts the events its side may read, never the actions applied or the dice
    drawn (docs/ai.md "Reproducible")."""
    from game.engine.actions import BoreSight, Place
    from game.engine.setup import SetupArea

    games = []
    for secret in (True, False):
        units = [
            UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
            UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
            UnitSetup("rus-gun-1", "zis3", "russian", "G2", facing=3, area=SetupArea((6, 7))),
        ]
        game = Game(make_setup(units, rows=ROWS, first="german", defender="russian"), 4)
        if secret:
            game.apply(Place("rus-gun-1", "G2", 2))
            game.apply(Place("rus-gun-1", "G2", 3))
            game.apply(BoreSight("rus-gun-1", "C2"))
        game.apply(EndPhase())
        games.append(game)
    a, b = games
    assert a.actions_applied != b.actions_applied and a.units["rus-gun-1"].bore_sight == "C2"
    assert decided_alike(ComputerPlayer("german", level, seed=9), a, b) >= 5


def set_up_by_the_computer(name: str, seed: int, level: int = 2):
    """The set-up phases of a shipped scenario played by the computer on both sides (each
    placement checked to be among the legal actions, in its unit's set-up area); the game and
    each unit's (hex, facing, concealed) once both sides are set up."""
    from game.engine.actions import Place

    sc = load_scenario(next(p for p in shipped_scenarios() if p.stem == name))
    game = Game(sc.setup, 1)
    players = {s: ComputerPlayer(s, level, seed=seed) for s in sc.setup.sides}
    while game.phase in ("setup", "setup_attacker"):
        side = game.to_act
        action = decide(players[side], game).action
        if isinstance(action, Place):
            assert action in game.legal_actions()
            assert action.hex in game.setup_hexes(action.unit)
            assert action.hex in game.setup_area(side)
        game.apply(action)
    where = {u.id: (u.label, u.facing, u.concealed) for u in game.units.values()}
    return sc, game, where


@pytest.mark.parametrize("name", ["road-ambush", "hedgerow-chart"])
def test_hx12_rd11_the_computer_sets_up_by_its_own_reasoning_varied_by_its_seed(name):
    """HX-12: the computer's set-up is chosen from its set-up area by its own reasoning, never
    kept on the scenario file's hexes (anyone may read the file: a "?" left there is no
    secret, RD-11): over several seeds its concealed units are not where the file puts them,
    the set-ups differ, the same seed gives the same set-up, a concealed unit stands in woods
    or a building, and a defending Gun faces the enemy's way in (its Covered Arc, C6.42)."""
    from game.rules.facing import facing_offset

    setups = set()
    for seed in range(6):
        sc, game, where = set_up_by_the_computer(name, seed)
        defender = sc.setup.defender
        file = {u.id: u.hex for u in sc.setup.units}
        hidden = {
            uid: hx
            for uid, (hx, _, concealed) in where.items()
            if concealed and uid in game.state.areas and game.units[uid].side == defender
        }
        assert hidden, "no concealed unit with a set-up area"
        assert any(file[uid] != hx for uid, hx in hidden.items()), (seed, hidden)
        for uid, hx in hidden.items():
            terrain = game.board.terrain_at(game.board.parse(hx)).key
            assert terrain in ("woods", "wooden_building", "stone_building"), (uid, hx)
        board = game.board  # the enemy's way in: the road along row 5, to the west edge
        road = [board.parse(f"{chr(ord('A') + c)}5") for c in range(board.columns)]
        for uid, unit in game.units.items():  # a Gun's Covered Arc on the road it sees
            if unit.side == defender and unit.type.category == "gun" and uid in game.state.areas:
                clear = game.viewshed(unit.label)[0]
                seen = [h for h in road if clear[board.index(h)] and h != unit.hex]
                assert not seen or any(
                    facing_offset(unit.hex, unit.facing, h) <= 30 for h in seen
                ), (uid, unit.label, unit.facing)
        setups.add(tuple(sorted(where.items())))
        assert set_up_by_the_computer(name, seed)[2] == where  # the same seed, the same one
    assert len(setups) >= 3


def test_hx12_a_game_resumed_in_the_middle_of_the_computers_set_up_goes_on_the_same():
    """The set-up is a function of the game and the player's seed (a unit its side's log shows
    placed is done): a fresh player on a game resumed after two set-up actions goes on as the
    first did."""
    sc, game, where = set_up_by_the_computer("road-ambush", 3)
    resumed = Game(sc.setup, 1)
    first = {s: ComputerPlayer(s, 2, seed=3) for s in sc.setup.sides}
    for _ in range(2):
        resumed.apply(decide(first[resumed.to_act], resumed).action)
    fresh = {s: ComputerPlayer(s, 2, seed=3) for s in sc.setup.sides}
    while resumed.phase in ("setup", "setup_attacker"):
        resumed.apply(decide(fresh[resumed.to_act], resumed).action)
    assert {u.id: (u.label, u.facing, u.concealed) for u in resumed.units.values()} == where


# --- issue 37: the computer reads only its seat's table -----------------------------------------

AI_PLAYER_MODULES = (
    "__init__.py",
    "decision.py",
    "lookahead.py",
    "opponent.py",
    "situation.py",
    "tuning.py",
    "candidates/__init__.py",
    "candidates/base.py",
    "candidates/dff.py",
    "candidates/fire.py",
    "candidates/move.py",
    "candidates/pass_.py",
    "candidates/randomplay.py",
    "candidates/setup.py",
    "candidates/steps.py",
    "valuation/__init__.py",
    "valuation/approach.py",
    "valuation/danger.py",
    "valuation/exits.py",
    "valuation/hexes.py",
    "valuation/maps.py",
    "valuation/objective.py",
    "valuation/playout.py",
    "valuation/reach.py",
    "valuation/seen.py",
    "valuation/setup.py",
    "valuation/targets.py",
)
"""game/ai/ but the referee (``selfplay.py``: it owns the self-play game, as the session does)."""
AI_GAME_MEMBERS = {
    "_game",
    "actions_applied",
    "apply",
    "copy",
    "dice",
    "game",
    "history",
    "knowledge",
    "preview_fire",
    "setup",
    "side_view",
    "state",
    "state_hash",
}
"""What only a Game (or its state) has: the computer's table answers none of these."""


def test_issue37_the_computer_reads_no_game():
    """The computer player's modules never hold or read a game: no import of the game, its
    state, its knowledge door or the copy a side imagines (the table makes those); no name
    ``game``; no member only a game has; ``.units`` only as the table's question
    (``table.units()``, never ``game.units[...]``) or a victory condition's (``v.units``, the
    units it names); ``.seed`` only its own (``self.seed``)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "game" / "ai"
    found_modules = {p.relative_to(root).as_posix() for p in root.rglob("*.py")}
    found_modules = {m for m in found_modules if not m.startswith("sparring/")}  # test_sparring
    # the referee's: selfplay.py plays the games, balance.py runs them in worker processes
    assert found_modules == {*AI_PLAYER_MODULES, "selfplay.py", "balance.py"}
    found = []
    for name in AI_PLAYER_MODULES:
        tree = ast.parse((root / name).read_text())
        calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                ("game.engine.game", "game.engine.state", "game.engine.knowledge")
            ):
                found.append(f"{where}: imports {node.module}")
            if isinstance(node, ast.ImportFrom) and node.module == "game.engine.imagine":
                found.append(f"{where}: imports {node.module}")
            if isinstance(node, ast.ImportFrom | ast.Import) and any(
                a.name in ("Game", "GameState", "UnitState", "Knowledge", "determinize")
                for a in node.names
            ):
                found.append(f"{where}: imports {[a.name for a in node.names]}")
            if isinstance(node, ast.Name | ast.arg):
                ident = node.id if isinstance(node, ast.Name) else node.arg
                if ident == "game":
                    found.append(f"{where}: a name 'game'")
            if not isinstance(node, ast.Attribute):
                continue
            if node.attr in AI_GAME_MEMBERS:
                found.append(f"{where}: .{node.attr}")
            victory = isinstance(node.value, ast.Name) and node.value.id == "v"  # its names
            if node.attr == "units" and id(node) not in calls and not victory:
                found.append(f"{where}: .units not asked (a game's units)")
            if node.attr == "seed" and not (
                isinstance(node.value, ast.Name) and node.value.id == "self"
            ):
                found.append(f"{where}: .seed of another (a game's seed)")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_issue37_twin_games_the_computers_side_cannot_tell_apart_get_the_same_decisions(level):
    """Two games that differ only in what the German may not know: what each "?" is (a 76 mm
    Gun and a T-34 in one, a T-34 and a 76 mm Gun in the other: the order of battle is public,
    HX-21), which "?" is the
    unit the German must knock out (rus-gun-1 and rus-gun-2 swap hexes), and a secret Bore
    Sighted Location (C6.42) in one of them. Each German player reads its table alone: while
    the two views are equal, every decision is the same value, its action (a "?" by its
    alias), its words and its plan."""
    from game.engine import Victory
    from game.engine.table import Table

    games = []
    for first, second, kinds, bore in (
        ("rus-gun-1", "rus-gun-2", ("zis3", "t34m43"), "C2"),
        ("rus-gun-2", "rus-gun-1", ("t34m43", "zis3"), None),
    ):
        units = [
            UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
            UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
            UnitSetup(first, kinds[0], "russian", "G2", facing=3, concealed=True),
            UnitSetup(second, kinds[1], "russian", "H4", facing=3, concealed=True),
        ]
        setup = make_setup(
            units,
            rows=ROWS,  # both "?" in the German tanks' sight: a playout meets them
            victory=[Victory("german", "eliminate", units=("rus-gun-1",))],
            first="german",
            defender="russian",
        )
        game = Game(setup, 4)
        if bore is not None:
            game.state.units[first].bore_sight = bore
        games.append(game)
    a, b = games
    players = (ComputerPlayer("german", level, seed=9), ComputerPlayer("german", level, seed=9))
    compared = 0
    for _ in range(200):
        ta, tb = (Table(g, "german", g.actions_applied) for g in (a, b))
        if a.over or ta.view != tb.view:
            break
        if ta.to_act == "german":
            da, db = players[0].choose(ta), players[1].choose(tb)
            assert da == db, (da, db)
            compared += 1
            a.apply(ta.engine_action(da.action))
            b.apply(tb.engine_action(db.action))
        else:  # the Russian waits: the same in both games
            action = Pass() if a.dff_pending else EndPhase()
            a.apply(action)
            b.apply(action)
    assert compared >= 4  # up to the first shot that reveals a "?"
