"""The engine in play: scripted games from fixed dice that walk through each rule."""

import pytest
from engine_helpers import c617_game, make_setup, script, to_phase

from game.engine import Game, IllegalAction, UnitSetup, Victory
from game.engine.actions import (
    BoreSight,
    ButtonUp,
    Conceal,
    CrewExposed,
    EndMove,
    EndPhase,
    Fire,
    Move,
    Pass,
    Turn,
    action_from_json,
)


def fire_data(events):
    """The data of the fire event among ``events``."""
    return next(e for e in events if e.kind == "fire").data


def cases(data):
    """Case -> (DRM, rule) of a fire event's To Hit DRM."""
    return {d["case"]: (d["value"], d["rule"]) for d in data["to_hit"]["drms"]}


def enter_w6(game):
    """The tank starts (1 MP, out of the gun's LOS) and enters the hill hex (5 MP)."""
    to_phase(game, "movement", "russian")
    events = game.apply(Move("rus-tank-1", "E2"))
    assert "ger-gun-1" in game.dff_pending
    assert any(e.kind == "dff_chance" for e in events)
    return events


# --- the phase machine --------------------------------------------------------------------


def test_rd12_phase_order_and_sides():
    g = c617_game()
    seen = [(g.phase, g.to_act)]
    g.apply(EndPhase())
    seen.append((g.phase, g.to_act))  # HX-12: the other side sets up second
    for _ in range(11):
        g.apply(EndPhase())
        seen.append((g.phase, g.phasing))
    assert seen[:8] == [
        ("setup", "german"),
        ("setup_attacker", "russian"),
        ("rally", "russian"),
        ("prep_fire", "russian"),
        ("movement", "russian"),
        ("defensive_fire", "russian"),
        ("advancing_fire", "russian"),
        ("rally", "german"),
    ]
    assert g.turn == 2 and g.phase == "rally" and g.phasing == "russian"


def test_rd13_turn_limit_ends_the_game_defender_wins_by_default():
    g = c617_game(turns=1)
    while not g.over:
        g.apply(EndPhase())
    assert g.winner == "german" and "RD-13" in g.end_reason
    with pytest.raises(IllegalAction, match="over"):
        g.apply(EndPhase())


def test_illegal_action_leaves_the_state_untouched():
    g = c617_game()
    before = g.state_hash()
    for bad in (Move("rus-tank-1", "E2"), Fire("ger-gun-1", "rus-tank-1"), Move("nobody", "A1")):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert g.state_hash() == before


def test_actions_round_trip_through_json():
    for a in (
        Move("x", "W6"),
        Fire("a", "b", "AP"),
        Fire("a", "b", None, 3.5),
        EndMove("x", True),
        Pass(),
        EndPhase(),
    ):
        assert action_from_json(a.to_json()) == a


# --- movement (RD-10) ---------------------------------------------------------------------


def test_rd10_vehicle_moves_ahead_paying_start_terrain_and_climb():
    g = c617_game()
    enter_w6(g)
    tank = g.units["rus-tank-1"]
    assert tank.mp_spent == 6 and tank.hex == g.board.parse("E2")
    budget = g.dff_budget_for(g.units["ger-gun-1"], tank)
    assert budget.mp_in_location == 5  # the start MP was spent in F2


def test_rd10_a_vehicle_moves_only_through_its_front_hexside():
    g = c617_game()
    to_phase(g, "movement", "russian")
    with pytest.raises(IllegalAction, match="front hexside"):
        g.apply(Move("rus-tank-1", "F1"))


def test_rd10_no_move_past_its_mp():
    rows = ["o o w w o o", "o o o o w o", "o o o o o o"]
    units = [
        UnitSetup("g", "pak40", "german", "A3"),
        UnitSetup("t", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=rows), 1)
    to_phase(g, "movement", "russian")
    g.apply(Move("t", "E2"))  # start 1 + woods 4
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Move("t", "D1"))  # woods 4: 9 of 10 MP
    if g.dff_pending:
        g.apply(Pass())
    with pytest.raises(IllegalAction, match="1 MP left"):
        g.apply(Move("t", "C1"))


# --- C6.17 and Case J in play --------------------------------------------------------------


def test_c6_17_example_in_play_one_shot_claiming_three_and_a_half_then_one_more():
    g = c617_game()
    enter_w6(g)
    # hit (6+2 +1 <= 10), turret, TK 5+4 = 9 vs Final 6: no effect; colored 2 <= ROF 2
    script(g, 6, 2, 5, 4, 6, 2, 5, 4)
    first = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert cases(first)["J"] == (2, "C6.1") and not {"J1", "J2"} & set(cases(first))
    second = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert cases(second)["J"] == (2, "C6.1") and not {"J1", "J2"} & set(cases(second))
    assert (first["dff_mark"], second["dff_mark"]) == (3.5, 4.5)
    assert not g.dff_budget_for(g.units["ger-gun-1"], g.units["rus-tank-1"]).can_fire
    assert g.dff_pending == ()


def test_c6_17_example_in_play_five_shots_j2_j1_j1_j_j():
    g = c617_game()
    enter_w6(g)
    script(g, *([6, 1, 5, 4] * 5))
    found = []
    for mp in (1, 2, 3, 4, 5):
        data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1", "AP", mp)))
        found.extend(c for c in cases(data) if c.startswith("J"))
    assert found == ["J2", "J1", "J1", "J", "J"]
    assert g.dff_pending == ()


def test_c6_17_a_claim_outside_the_budget_is_refused():
    g = c617_game()
    enter_w6(g)
    with pytest.raises(IllegalAction, match="C6.17"):
        g.apply(Fire("ger-gun-1", "rus-tank-1", "AP", 6))


def test_c6_17_defensive_first_fire_only_when_offered_and_pass_goes_on():
    g = c617_game()
    enter_w6(g)
    with pytest.raises(IllegalAction, match="fire or pass"):
        g.apply(Move("rus-tank-1", "D1"))
    g.apply(Pass())
    assert g.dff_pending == ()
    g.apply(Move("rus-tank-1", "D1"))


def test_c6_15_a_vehicle_that_began_its_move_in_the_los_is_case_j_only():
    rows = ["o o o o o o", "o o o o o o", "o o o o o o"]
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=rows), 1)
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "E2"))  # start 1 + open 1, all in the gun's LOS since the start
    g.apply(Pass())  # the start MP's chance in F2 (HX-5)
    script(g, 6, 2, 5, 4)
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1", "AP", 1)))
    assert cases(data)["J"] == (2, "C6.1") and "J2" not in cases(data)


# --- acquisition, bore sighting ---------------------------------------------------------


def test_c6_5_acquisition_built_in_play_then_used_then_lost_when_the_gun_fires_elsewhere():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
        UnitSetup("rus-tank-2", "t34m43", "russian", "E3", facing=3),
    ]
    g = Game(make_setup(units), 1)
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "E2"))
    script(g, 6, 2, 5, 4, 6, 2, 5, 4)
    events = g.apply(Fire("ger-gun-1", "rus-tank-1"))
    placed = [e for e in events if e.kind == "acquisition"]
    assert placed and placed[0].data["level"] == 1 and "C6.5" in placed[0].rules
    second = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert cases(second)["N"] == (-1, "C6.5")
    assert g.units["ger-gun-1"].acquisition.level == 2
    if g.dff_pending:
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", False))
    if g.dff_pending:
        g.apply(Pass())
    to_phase(g, "prep_fire", "german")
    script(g, 6, 6, 6, 6)
    g.apply(Fire("ger-gun-1", "rus-tank-2"))  # another target elsewhere: a new -1 counter
    acq = g.units["ger-gun-1"].acquisition
    assert acq.target == "rus-tank-2" and acq.level == 1


def test_c6_4_bore_sighted_shot_gets_case_m():
    g = c617_game()
    g.apply(BoreSight("ger-gun-1", "E2"))
    with pytest.raises(IllegalAction, match="C6.42"):
        g.apply(BoreSight("ger-gun-1", "E3"))
    enter_w6(g)
    script(g, 6, 2, 5, 4, 6, 2, 5, 4)
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert cases(data)["M"] == (-2, "C6.4")
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))  # now acquired -1 too
    assert cases(data)["M"] == (-2, "C6.4") and "N" not in cases(data)


def test_c6_42_bore_sight_must_be_in_los_within_16_hexes_outside_its_hex():
    g = c617_game()
    with pytest.raises(IllegalAction, match="LOS"):
        g.apply(BoreSight("ger-gun-1", "F2"))
    with pytest.raises(IllegalAction, match="outside"):
        g.apply(BoreSight("ger-gun-1", "A2"))
    with pytest.raises(IllegalAction, match="belongs to"):
        g.apply(BoreSight("rus-tank-1", "A1"))


# --- Motion and Case L ------------------------------------------------------------------

FLAT = ["o o o o o o", "o o o o o o", "o o o o o o"]


def _approach(motion: bool) -> Game:
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=1),
        UnitSetup("rus-tank-1", "kv1e", "russian", "C2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "B1"))
    while g.dff_pending:  # the start MP's chance in C2 (HX-5), then B1's
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", motion))
    if g.dff_pending:
        g.apply(Pass())
    to_phase(g, "defensive_fire")
    return g


def test_c6_3_case_l_at_one_hex_vs_a_stopped_tank_with_case_j():
    g = _approach(motion=False)
    script(g, 6, 6)
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert cases(data)["J"] == (2, "C6.1") and cases(data)["L"] == (-2, "C6.3")


def test_c6_3_no_case_l_vs_a_tank_in_motion():
    g = _approach(motion=True)
    assert g.units["rus-tank-1"].motion
    script(g, 6, 6)
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert cases(data)["J"] == (2, "C6.1") and "L" not in cases(data)


# --- Shock, immobilization, abandonment ----------------------------------------------------


def _dff_hit(g, *faces):
    enter_w6(g)
    script(g, *faces)
    events = g.apply(Fire("ger-gun-1", "rus-tank-1"))
    if g.dff_pending:
        g.apply(Pass())
    return events


def test_c7_42_a_shocked_afv_recovers_in_its_rally_phase():
    g = c617_game()
    # turret hit (2 < 6): Final 6, TK DR 3+3 = 6: Shock
    events = _dff_hit(g, 6, 2, 3, 3)
    tank = g.units["rus-tank-1"]
    assert tank.shock == "shock" and not tank.moving
    assert any(e.kind == "shock" for e in events)
    with pytest.raises(IllegalAction):
        g.apply(Move("rus-tank-1", "D1"))
    to_phase(g, "rally", "russian", fresh=True)
    script(g, 1)
    events = g.apply(EndPhase())
    assert tank.shock == "none" and any("recovers" in e.text and "C7.42" in e.rules for e in events)


def test_c7_42_a_uk_that_fails_becomes_a_wreck():
    g = c617_game()
    _dff_hit(g, 6, 2, 3, 3)
    to_phase(g, "rally", "russian", fresh=True)
    script(g, 4)
    g.apply(EndPhase())
    tank = g.units["rus-tank-1"]
    assert tank.shock == "uk"
    to_phase(g, "rally", "russian", fresh=True)
    script(g, 5)
    g.apply(EndPhase())
    assert tank.status == "wreck" and g.board.wrecks[g.board.index(tank.hex)] == 1


def test_002_an_immobilized_afv_is_abandoned_on_a_later_missed_shot():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("ger-psk-1", "ger_psk", "german", "C2"),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units), 1)
    # hull hit (colored 6 >= white 1): Final 17 - 14 = 3; TK DR 1+2 = 3: immobilized (C7.5);
    # the abandonment check at once: dr 5, the crew stays (002)
    _dff_hit(g, 1, 6, 1, 2, 5)
    tank = g.units["rus-tank-1"]
    assert tank.immobilized and tank.active
    to_phase(g, "prep_fire", "german")
    script(g, 6, 6, 2)  # the PSK misses (12 - 1 > 8); the AFV survived: abandonment dr 2
    events = g.apply(Fire("ger-psk-1", "rus-tank-1"))
    data = fire_data(events)
    assert not data["hit"] and data["outcome"] == "abandoned"
    assert data["steps"][-1] == {
        "what": "abandonment dr 2: the crew abandons it",
        "rule": "002",
        "dice": [2],
    }
    assert tank.status == "abandoned"


def test_002_an_immobilized_afv_may_not_move_or_turn():
    g = c617_game()
    _dff_hit(g, 1, 6, 1, 2, 5)
    to_phase(g, "movement", "russian", fresh=True)
    with pytest.raises(IllegalAction, match="immobilized"):
        g.apply(Turn("rus-tank-1", 2))


# --- to victory --------------------------------------------------------------------------


def test_asl_game_to_victory_by_eliminating_the_tank():
    g = c617_game(victory=[Victory("german", "eliminate", count=1)])
    events = _dff_hit(g, 6, 2, 1, 1)  # turret hit, TK DR 2 <= 6 / 2: burns
    assert g.over and g.winner == "german"
    assert any(e.kind == "game_over" and "RD-13" in e.rules for e in events)
    assert g.units["rus-tank-1"].status == "burning"


def test_chart_game_to_victory():
    g = c617_game(victory=[Victory("german", "eliminate", count=1)], to_kill="chart")
    # hit; ATFP D vs the KV-1E's front E: EN 5; DR 1+2 = 3 < 5: eliminated (002)
    events = _dff_hit(g, 6, 2, 1, 2)
    data = fire_data(events)
    assert data["elimination_number"] == 5 and data["outcome"] == "eliminated"
    assert g.over and g.winner == "german"


def test_rd13_hold_at_game_end():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    setup = make_setup(units, victory=[Victory("russian", "hold", hexes=("F2",))], turns=1)
    g = Game(setup, 1)
    while not g.over:
        g.apply(EndPhase())
    assert g.winner == "russian"


# --- hatches, concealment ----------------------------------------------------------------


def test_button_up_and_crew_exposed():
    g = c617_game()
    to_phase(g, "prep_fire", "russian")
    g.apply(CrewExposed("rus-tank-1"))
    assert g.units["rus-tank-1"].ce
    with pytest.raises(IllegalAction, match="already"):
        g.apply(CrewExposed("rus-tank-1"))
    g.apply(ButtonUp("rus-tank-1"))
    assert not g.units["rus-tank-1"].ce


def test_rd11_a_concealed_gun_loses_concealment_when_it_fires():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0, concealed=True),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units), 1)
    enter_w6(g)
    script(g, 6, 6)
    events = g.apply(Fire("ger-gun-1", "rus-tank-1"))
    assert not g.units["ger-gun-1"].concealed
    assert any("RD-11" in e.rules for e in events)


def test_002_at_fire_at_infantry_is_refused():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("sq", "rus_rifle", "russian", "C2"),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "defensive_fire")
    with pytest.raises(IllegalAction, match="Infantry"):
        g.apply(Fire("ger-gun-1", "sq"))


def test_state_hash_is_deterministic():
    a, b = c617_game(), c617_game()
    for g in (a, b):
        enter_w6(g)
        g.apply(Fire("ger-gun-1", "rus-tank-1"))
    assert a.state_hash() == b.state_hash()
    assert a.dice.draws == b.dice.draws


def test_the_state_key_made_per_class_is_the_field_by_field_reference_at_every_step():
    """The state key is read by a function made once per class (statehash._compiled); at every
    step of random games, the game's and each unit's equal the field-run-by-run reference,
    and the hash is the reference's SHA-256 (the shipped saves' hashes rest on it)."""
    import hashlib
    import random

    from game.engine.randomplay import policy, random_game
    from game.engine.statehash import encode_fields, encode_fields_by_steps

    for seed in range(3):
        game = random_game(10, 6, seed, per_side=4, turns=3)
        rng = random.Random(seed)
        while not game.over and game.actions_applied < 150:
            s = game.state
            assert encode_fields(s) == encode_fields_by_steps(s)
            for unit in s.units.values():
                assert encode_fields(unit) == encode_fields_by_steps(unit)
            units = "|".join(repr(encode_fields_by_steps(s.units[k])) for k in sorted(s.units))
            blob = repr(encode_fields_by_steps(s)) + "#" + units
            assert game.state_hash() == hashlib.sha256(blob.encode()).hexdigest()
            game.apply(policy(game, rng))


def test_an_event_is_an_immutable_value_that_copies_pickles_and_hides():
    """Events are named tuples (fast to make); one made without data shares a read-only
    empty dict that survives copies and pickling; hiding it from a side keeps the rest."""
    import copy
    import pickle

    from game.engine.events import NO_DATA, Event

    bare = Event("pass", "german passes")
    assert bare.data == {} and bare.data is NO_DATA
    with pytest.raises(TypeError):
        bare.data["x"] = 1
    with pytest.raises(AttributeError):
        bare.text = "changed"  # type: ignore[misc]
    assert copy.deepcopy(bare).data is NO_DATA and pickle.loads(pickle.dumps(bare)) == bare
    shot = Event("fire", "a shot", ("C6.1",), (3, 4), {"unit": "g"})
    seen = Event("fire", "a concealed unit fires")
    hidden = shot.hidden_from("russian", seen).hidden_from("german")
    assert hidden.seen_by("russian") == seen and hidden.seen_by("german") is None
    assert hidden.seen_by(None) is hidden and hidden[:5] == shot[:5]
    again = hidden.hidden_from("russian")  # a side hidden twice: the last word counts
    assert again.seen_by("russian") is None and again.seen_by("german") is None


def test_rd13_exit_off_the_map_edge_wins():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=0),
    ]
    setup = make_setup(units, rows=FLAT, victory=[Victory("russian", "exit", count=1, edge="east")])
    inward = make_setup(
        [units[0], UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3)],
        rows=FLAT,
        victory=[Victory("russian", "exit", count=1, edge="east")],
    )
    g = Game(inward, 1)
    to_phase(g, "movement", "russian")
    with pytest.raises(IllegalAction, match="face off the map"):
        g.apply(Move("rus-tank-1", "off"))
    g2 = Game(setup, 1)
    to_phase(g2, "movement", "russian")
    # F2 is in the last column: facing 0 (lower right) points off the east edge
    events = g2.apply(Move("rus-tank-1", "off"))
    assert g2.units["rus-tank-1"].status == "exited"
    assert g2.over and g2.winner == "russian"
    assert any(e.kind == "exit" and "east" in e.text for e in events)


def test_rd10_infantry_on_the_map_edge_may_move_along_it_as_well_as_off():
    """A unit in an edge hex may leave the map (RD-13) or move to any hex beside it (RD-10):
    the legal actions list both (they once listed only the exit)."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-sq-1", "rus_atr", "russian", "F2", facing=0),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "movement", "russian")
    moves = {a.to for a in g.legal_actions() if isinstance(a, Move) and a.unit == "rus-sq-1"}
    assert "off" in moves
    assert {"E2", "F1", "F3"} <= moves
    g.apply(Move("rus-sq-1", "E2"))
    assert g.units["rus-sq-1"].label == "E2"


def test_rd11_the_defender_may_set_up_concealed_in_woods_out_of_enemy_los():
    rows = ["w o o o o o", "o o o o o2 o", "o o o o o o"]
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A1", facing=0),
        UnitSetup("ger-gun-2", "pak38", "german", "A3", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=rows), 1)
    events = g.apply(Conceal("ger-gun-1"))
    assert g.units["ger-gun-1"].concealed and "RD-11" in events[0].rules
    with pytest.raises(IllegalAction, match="woods or a building"):
        g.apply(Conceal("ger-gun-2"))  # open ground
    with pytest.raises(IllegalAction, match="belongs to"):
        g.apply(Conceal("rus-tank-1"))


def test_c6_17_no_chance_is_offered_when_no_enemy_unit_can_fire():
    rows = ["o o o o o o", "o w o o o o", "o o o o o o"]
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=3),  # faces away: E2 off its arc
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=rows), 1)
    to_phase(g, "movement", "russian")
    events = g.apply(Move("rus-tank-1", "E2"))
    assert g.dff_pending == () and not any(e.kind == "dff_chance" for e in events)
    g.apply(Move("rus-tank-1", "D1"))  # the move goes on without asking


def test_c6_51_the_counter_stays_where_the_target_left_the_los():
    g = c617_game()
    enter_w6(g)
    script(g, 6, 2, 5, 4)
    g.apply(Fire("ger-gun-1", "rus-tank-1"))
    acq = g.units["ger-gun-1"].acquisition
    assert acq.target == "rus-tank-1" and acq.location.hex == "E2"
    g.apply(Pass())
    # back down the hill, out of the gun's LOS (E2 -> D1 is still seen; turn and go to F2)
    g.apply(Turn("rus-tank-1", 4))
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Turn("rus-tank-1", 5))
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Turn("rus-tank-1", 0))
    if g.dff_pending:
        g.apply(Pass())
    events = g.apply(Move("rus-tank-1", "F2"))
    acq = g.units["ger-gun-1"].acquisition
    assert acq.target is None and acq.location.hex == "E2"
    assert any("C6.51" in e.rules for e in events)


def test_preview_fire_gives_the_exact_odds_of_the_shot_without_rolling():
    g = c617_game()
    enter_w6(g)
    before = (g.state_hash(), g.dice.draws)
    o = g.preview_fire("ger-gun-1", "rus-tank-1")
    assert (g.state_hash(), g.dice.draws) == before
    assert abs(sum(o.p.values()) - 1) < 1e-9
    cases = {d.case for d in o.plan.drms}
    assert "J" in cases and "P" in cases  # the same DRM the shot gets (C6.1, C6.7)
    with pytest.raises(IllegalAction, match="not an enemy"):
        g.preview_fire("ger-gun-1", "ger-gun-1")


def test_view_hides_concealed_enemy_units():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0, concealed=True),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units), 1)
    russian = {u["id"]: u for u in g.view("russian")}
    german = {u["id"]: u for u in g.view("german")}
    assert russian["ger-gun-1"]["type"] == "?" and "facing" not in russian["ger-gun-1"]
    assert german["ger-gun-1"]["type"] == "pak40"


def _two_guns_and_a_t34(extra=()):
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("ger-gun-2", "pak40", "german", "B1", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "C2", facing=3),
        *extra,
    ]
    g = Game(make_setup(units), 1)
    to_phase(g, "prep_fire", "german")
    script(g, 6, 6, 6, 6)
    g.apply(Fire("ger-gun-1", "rus-tank-1"))  # a miss: gun 1 acquires the T-34 (C6.5)
    assert g.units["ger-gun-1"].acquisition.target == "rus-tank-1"
    script(g, 1, 2, 1, 1)  # gun 2: a hit, TK DR 2: it burns
    return g, g.apply(Fire("ger-gun-2", "rus-tank-1"))


def test_hx14_a_shot_that_removes_its_target_places_no_acquired_counter_and_others_go_too():
    """The log said "places -1B on T-34" of a T-34 the same shot burned, and the other Gun's
    counter stayed on it; HX-14: the counters go with the target."""
    g, events = _two_guns_and_a_t34()
    assert g.units["rus-tank-1"].status == "burning"
    assert not any("places" in e.text for e in events if e.kind == "acquisition")
    assert g.units["ger-gun-2"].acquisition is None
    assert g.units["ger-gun-1"].acquisition is None
    gone = [e for e in events if e.kind == "acquisition" and "HX-14" in e.rules]
    assert [e.data["unit"] for e in gone] == ["ger-gun-1"]
    assert "removed with it" in gone[0].text


def test_hx14_with_another_known_unit_left_in_the_location_the_counter_stays_there_c6_51():
    """C6.51: a counter left in a Location applies to the Known units there."""
    other = UnitSetup("rus-tank-2", "t34m43", "russian", "C2", facing=3)
    g, events = _two_guns_and_a_t34([other])
    acq = g.units["ger-gun-1"].acquisition
    assert acq is not None and acq.target is None and acq.location.hex == "C2"
    assert any("stays on the Location (C6.51)" in e.text for e in events)


def test_a_state_held_still_answers_units_at_as_the_plain_search_and_lets_go():
    """Listing legal actions holds the state still (only checks run) and reads the units by
    hex made once: the same answer as looking through every unit, for every hex, in unit
    order; nested holds share it, it is let go even when a check raises, and no action is
    applied while it holds."""
    game = c617_game()
    s = game.state
    plain = {h: s.units_at(h) for h in s.board.hexes}
    with s.held_still():
        with s.held_still():
            assert {h: s.units_at(h) for h in s.board.hexes} == plain
        assert s.occupancy is not None
        assert s.copy().occupancy is None  # a copy's units are its own
    assert s.occupancy is None
    with pytest.raises(IllegalAction), s.held_still():
        game.apply(EndMove("rus-tank-1", False))
    assert s.occupancy is None
    legal = game.legal_actions()[0]
    with pytest.raises(RuntimeError, match="held still"), s.held_still():
        game.apply(legal)  # a change would leave the units by hex wrong
    assert s.occupancy is None and game.actions_applied == 0
    assert any(plain.values())
