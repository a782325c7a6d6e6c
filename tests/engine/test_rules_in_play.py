"""The rules where play once departed from the seeds (docs/rules.md: RD-10, RD-11, RD-12,
C6.1, C6.17, C6.43, C6.5, C7.22, C7.346, 002): each test names its rule and failed before its
fix."""

import json
import subprocess
import sys

import pytest
from engine_helpers import make_setup, script, to_phase

from game.board.hexes import Hex, label, parse_label, to_offset
from game.engine import Game, IllegalAction, UnitSetup
from game.engine.actions import BoreSight, EndMove, EndPhase, Fire, Move, Pass, Turn
from game.engine.play.shot import build_attack
from game.rules.attack import plan

FLAT = ["o o o o o o", "o o o o o o", "o o o o o o"]


def rows_with(columns: int, rows: int, codes: dict[str, str]) -> list[str]:
    """Map rows of open ground with the hexes of ``codes`` (label -> token) set."""
    grid = [["o"] * columns for _ in range(rows)]
    for hex_label, code in codes.items():
        h = parse_label(hex_label)
        col, row = to_offset(h)
        grid[row][col] = code
    return [" ".join(r) for r in grid]


def gun_and_tank() -> Game:
    """A PaK 40 in A2 facing E2, where a T-34 stands facing back, on open ground."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "E2", facing=3),
    ]
    return Game(make_setup(units, rows=FLAT), 1)


def fire_data(events):
    return next(e for e in events if e.kind == "fire").data


def cases(data):
    return {d["case"]: (d["value"], d["rule"]) for d in data["to_hit"]["drms"]}


def ahead(hex_label: str, facing: int, n: int = 1) -> str:
    h: Hex = parse_label(hex_label)
    for _ in range(n):
        h = h.neighbor(facing)
    return label(h)


# --- RD-10: a road costs 1/2 MP only along the road -----------------------------------------


def test_rd10_a_road_hex_entered_from_open_ground_costs_one_mp_and_half_along_the_road():
    first, second = ahead("F2", 3), ahead("F2", 3, 2)
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A3", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=3),
    ]
    rows = rows_with(6, 3, {first: "r", second: "r"})
    g = Game(make_setup(units, rows=rows), 1)
    to_phase(g, "movement", "russian")
    assert g.move_costs("rus-tank-1")[first] == 2  # start 1 + road from open ground 1
    events = g.apply(Move("rus-tank-1", first))
    if g.dff_pending:
        g.apply(Pass())
    assert g.units["rus-tank-1"].mp_spent == 2 and "Road 1" in events[0].text
    events = g.apply(Move("rus-tank-1", second))
    assert g.units["rus-tank-1"].mp_spent == 2.5 and "along the road 0.5" in events[0].text


# --- C6.17: MP counted per Target Facing, resumed on turning back ---------------------------


def test_c6_17_a_vehicle_turning_back_resumes_its_facings_mp_and_the_firer_fires_again():
    # A3 sees the whole flat map; range 13 -> To Hit Number 8 (RD-1)
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "N2", facing=3),
    ]
    rows = ["o " * 13 + "o"] * 3
    g = Game(make_setup(units, rows=rows), 1)
    to_phase(g, "movement", "russian")
    into = ahead("N2", 3)
    g.apply(Move("rus-tank-1", into))  # start 1 in N2: its chance there (HX-5)
    g.apply(Pass())  # then 1 MP in the new hex
    gun, tank = g.units["ger-gun-1"], g.units["rus-tank-1"]
    assert g.dff_budget_for(gun, tank).shots_left == 1
    script(g, 6, 1)  # 7 + 2 (Case J) = 9 > 8: a miss; colored 1 <= ROF 2: ROF kept
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert not data["hit"] and data["rof_kept"] and data["dff_mark"] == 1
    assert not g.dff_budget_for(gun, tank).can_fire
    g.apply(Turn("rus-tank-1", 2))  # away: 1 MP in facing 2
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Turn("rus-tank-1", 3))  # back: facing 3 now has 2 MP, one shot at mark 2 left
    budget = g.dff_budget_for(gun, tank)
    assert budget.mp_in_location == 2 and budget.shots_left == 1
    assert "ger-gun-1" in g.dff_pending


# --- C6.1: no Case J at a vehicle that only pivots ------------------------------------------


def test_c6_1_no_case_j_at_a_vehicle_that_only_pivots_in_dff_or_after_its_stop():
    g = gun_and_tank()
    to_phase(g, "movement", "russian")
    g.apply(Turn("rus-tank-1", 4))  # start 1 + 1 MP, in the gun's LOS, no new hex
    assert "ger-gun-1" in g.dff_pending
    script(g, 6, 6, 6, 6)
    data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
    assert not {"J", "J1", "J2"} & set(cases(data))
    if g.dff_pending:
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", False))  # the stop MP: another chance
    if "ger-gun-1" in g.dff_pending:
        script(g, 6, 6, 6, 6)
        data = fire_data(g.apply(Fire("ger-gun-1", "rus-tank-1")))
        assert not {"J", "J1", "J2"} & set(cases(data))
    odds = g.preview_fire("ger-gun-1", "rus-tank-1") if g.dff_pending else None
    assert odds is None or not {d.case for d in odds.plan.drms} & {"J", "J1", "J2"}


# --- C6.5 / C6.43: what a pivot keeps -------------------------------------------------------


def _acquired_pz4_game():
    """A German Pz IVH that acquired a T-34 in the Defensive Fire Phase of the Russian turn,
    now in its own Movement Phase."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "E2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "defensive_fire", "russian")
    script(g, 6, 6)  # a miss; the Acquired -1 counter is placed all the same (C6.5)
    g.apply(Fire("ger-pz-1", "rus-tank-1"))
    assert g.units["ger-pz-1"].acquisition is not None
    to_phase(g, "movement", "german")
    return g


def test_c6_5_a_turreted_afvs_hull_pivot_keeps_its_acquired_counter():
    g = _acquired_pz4_game()
    turret = g.units["ger-pz-1"].turret
    events = g.apply(Turn("ger-pz-1", 1))
    pz = g.units["ger-pz-1"]
    assert pz.turret == turret  # the turret (its CA) stayed where it was
    assert pz.acquisition is not None and pz.acquisition.target == "rus-tank-1"
    assert not any(e.kind == "acquisition" for e in events)


def test_c6_5_a_gun_that_turns_changes_its_ca_and_loses_its_acquired_counter():
    g = gun_and_tank()
    to_phase(g, "defensive_fire", "russian")
    script(g, 6, 6)
    g.apply(Fire("ger-gun-1", "rus-tank-1"))
    to_phase(g, "movement", "german")
    g.apply(Turn("ger-gun-1", 1))
    assert g.units["ger-gun-1"].acquisition is None


def test_c6_43_a_gun_that_turns_keeps_its_bore_sight():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    g.apply(BoreSight("ger-gun-1", "E2"))
    to_phase(g, "movement", "german")
    g.apply(Turn("ger-gun-1", 1))
    g.apply(EndPhase())
    g.apply(EndPhase())
    to_phase(g, "movement", "german", fresh=True)
    g.apply(Turn("ger-gun-1", 0))
    assert g.units["ger-gun-1"].bore_sight == "E2"


def test_c6_43_a_vehicles_hull_pivot_loses_its_bore_sight_for_good():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    g.apply(BoreSight("ger-pz-1", "E2"))
    to_phase(g, "movement", "german")
    g.apply(Turn("ger-pz-1", 1))
    assert g.units["ger-pz-1"].bore_sight is None
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Turn("ger-pz-1", 0))  # back to its set-up facing: still lost (C6.43)
    assert g.units["ger-pz-1"].bore_sight is None


# --- RD-11: a pivot is a move --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pz4h", "pak40"])
def test_rd11_a_concealed_unit_that_pivots_in_enemy_los_loses_concealment(kind):
    units = [
        UnitSetup("ger-1", kind, "german", "A2", facing=0, concealed=True),
        UnitSetup("rus-gun-1", "zis3", "russian", "E2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "movement", "german")
    assert g.units["ger-1"].concealed
    events = g.apply(Turn("ger-1", 1))
    assert not g.units["ger-1"].concealed
    assert any(e.kind == "concealment" and "RD-11" in e.rules for e in events)


def test_rd11_a_concealed_vehicle_that_stops_in_enemy_los_loses_concealment():
    units = [
        UnitSetup("ger-1", "pz4h", "german", "A2", facing=0, concealed=True),
        UnitSetup("rus-gun-1", "zis3", "russian", "E2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "movement", "german")
    g.state.units["ger-1"].moving = True  # as in the middle of its move, before any MP here
    g.state.moving_unit = "ger-1"
    g.apply(EndMove("ger-1", False))
    assert not g.units["ger-1"].concealed


# --- 002 / RD-8: an abandoned AFV is removed, no wreck --------------------------------------


def test_002_an_abandoned_afv_leaves_no_wreck_and_no_hindrance():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units), 1)
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", "E2"))
    # hull hit: Final 17 - 14 = 3; TK DR 1+2 = 3: immobilized (C7.5); abandonment dr 1 (002)
    script(g, 1, 6, 1, 2, 1)
    events = g.apply(Fire("ger-gun-1", "rus-tank-1"))
    tank = g.units["rus-tank-1"]
    assert tank.status == "abandoned"
    assert g.board.wrecks[g.board.index(tank.hex)] == 0
    assert not any(e.kind == "wreck" for e in events)


# --- RD-12: Prep Fire, then no Advancing Fire -----------------------------------------------


def test_rd12_a_unit_that_prep_fired_may_not_fire_in_the_advancing_fire_phase():
    g = gun_and_tank()
    to_phase(g, "prep_fire", "russian")
    script(g, 6, 6)
    g.apply(Fire("rus-tank-1", "ger-gun-1"))
    to_phase(g, "advancing_fire", "russian")
    with pytest.raises(IllegalAction, match="Prep Fire.*RD-12"):
        g.apply(Fire("rus-tank-1", "ger-gun-1"))


# --- C7.22 Case B and C7.346 in play and in hexfire odds ------------------------------------


def _odds_json(*args):
    r = subprocess.run(
        [sys.executable, "-m", "game", "odds", *args, "--json"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_c7_22_case_b_a_mol_from_higher_at_a_ce_pz4h_has_final_tk_10():
    args = ["--firer", "sw", "--weapon", "MOL", "--range", "1", "--ce", "--af", "4"]
    flat = _odds_json(*args, "--location", "hull")
    high = _odds_json(*args, "--location", "hull", "--elevation-advantage")
    assert flat["to_kill"]["final"] == 9 and high["to_kill"]["final"] == 10
    assert any(m["case"] == "B" and m["rule"] == "C7.22" for m in high["to_kill"]["modifications"])


def test_c7_22_case_b_in_play_a_mol_thrown_from_a_hill():
    rows = rows_with(6, 3, {"B2": "o1"})
    units = [
        UnitSetup("rus-mol-1", "rus_mol", "russian", "B2"),
        UnitSetup("ger-pz-1", "pz4h", "german", ahead("B2", 0), facing=3, ce=True),
    ]
    g = Game(make_setup(units, rows=rows), 1)
    firer, target = g.units["rus-mol-1"], g.units["ger-pz-1"]
    p = plan(build_attack(g.state, firer, target, None, dff=False, chart_die=None))
    assert p.tk[("hull", False)].final == 10


def test_c7_346_a_dc_from_higher_gets_case_b_on_its_position_dr_and_plus_1_in_the_afph():
    rows = rows_with(6, 3, {"B2": "o1"})
    units = [
        UnitSetup("ger-dc-1", "ger_pioneer", "german", "B2"),
        UnitSetup("rus-tank-1", "t34m43", "russian", ahead("B2", 0), facing=3),
    ]
    g = Game(make_setup(units, rows=rows, first="german"), 1)
    firer, target = g.units["ger-dc-1"], g.units["rus-tank-1"]
    to_phase(g, "prep_fire", "german")
    prep = plan(build_attack(g.state, firer, target, None, dff=False, chart_die=None))
    assert ("B", -1, "C7.22") in {(d.case, d.value, d.rule) for d in prep.drms}
    assert prep.to_hit_rule == "C7.346"
    to_phase(g, "advancing_fire", "german")
    afph = plan(build_attack(g.state, firer, target, None, dff=False, chart_die=None))
    assert afph.drm_total == prep.drm_total + 1
    assert any(d.why == "Thrown in the AFPh" for d in afph.drms)


def test_c7_346_hexfire_odds_expresses_the_afph_dc_throw_and_cites_c7_346():
    args = ["--firer", "sw", "--weapon", "DC", "--range", "1", "--af", "8", "--worst-af", "8"]
    fire = _odds_json(*args)
    afph = _odds_json(*args, "--phase", "advancing")
    assert afph["to_hit"]["drm_total"] == fire["to_hit"]["drm_total"] + 1
    r = subprocess.run(
        [sys.executable, "-m", "game", "odds", *args], capture_output=True, text=True, check=True
    )
    head = r.stdout.splitlines()[0]
    assert "C7.346" in head and "002" not in head


# --- found in review: C6.17 counts per vehicle, per visit, per AFV facing -------------------


def test_c6_17_the_next_vehicle_starts_its_count_from_zero():
    """A KV-1E spends 9 MP stopping in F2; then a T-34 pivots 1 MP in C2: the PaK may fire at
    the T-34 once, not ten times (the count is the moving vehicle's own)."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-kv", "kv1e", "russian", "F2", facing=3),
        UnitSetup("rus-t34", "t34m43", "russian", "C2", facing=4),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "movement", "russian")
    g.apply(Turn("rus-kv", 4))
    for _ in range(3):
        if g.dff_pending:
            g.apply(Pass())
    g.apply(EndMove("rus-kv", False))
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Turn("rus-t34", 3))
    budget = g.dff_budget_for(g.units["ger-gun-1"], g.units["rus-t34"])
    assert budget.mp_in_location == 1 and budget.shots_left == 1  # its turn, in facing 3


def test_c6_17_an_unarmored_vehicle_counts_every_mp_in_its_location_together():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-truck", "gaz_aa", "russian", "E2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "movement", "russian")
    g.apply(Turn("rus-truck", 4))  # start 1 + 1
    if g.dff_pending:
        g.apply(Pass())
    g.apply(Turn("rus-truck", 3))  # +1: three MP in E2, whatever the facing
    budget = g.dff_budget_for(g.units["ger-gun-1"], g.units["rus-truck"])
    assert budget.mp_in_location == 3


def test_c6_43_a_lost_bore_sight_is_not_told_to_the_other_side():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    g.apply(BoreSight("ger-pz-1", "E2"))
    to_phase(g, "movement", "german")
    g.apply(Turn("ger-pz-1", 1))
    assert any(e.kind == "bore_sight" for e in g.knowledge("german").events())
    assert not any(e.kind == "bore_sight" for e in g.knowledge("russian").events())


def test_002_an_eliminated_unarmored_vehicle_leaves_no_wreck():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-truck", "gaz_aa", "russian", "E2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "defensive_fire", "russian")
    script(g, 1, 1, 1, 1, 1, 1)  # a hit; TK DR 2 < the Final TK#: eliminated
    events = g.apply(Fire("ger-gun-1", "rus-truck"))
    assert g.units["rus-truck"].status in ("eliminated", "burning")
    assert g.board.wrecks[g.board.index(g.units["rus-truck"].hex)] == 0
    assert not any(e.kind == "wreck" for e in events)


def test_rd11_the_start_mp_spent_in_enemy_los_loses_concealment():
    """The Gun in E1 sees A2 but not B2 (the woods in C2): the Pz IVH spends its start MP in
    A2, in the Gun's view, then moves out of it: the start MP reveal it."""
    units = [
        UnitSetup("ger-1", "pz4h", "german", "A2", facing=0, concealed=True),
        UnitSetup("rus-gun-1", "zis3", "russian", "E1", facing=3),
    ]
    g = Game(make_setup(units, rows=rows_with(6, 3, {"C2": "w"})), 1)
    gun = g.units["rus-gun-1"]
    assert g.state.hex_sees(gun.hex, parse_label("A2"))
    assert not g.state.hex_sees(gun.hex, parse_label("B2"))
    to_phase(g, "movement", "german")
    events = g.apply(Move("ger-1", "B2"))
    assert not g.units["ger-1"].concealed
    lost = [e for e in events if e.kind == "concealment"]
    assert lost and "RD-11" in lost[0].rules


def test_rd18_a_hex_holding_friendly_infantry_is_still_on_the_threat_map():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
        UnitSetup("ger-sq", "ger_pf", "german", "C2"),
        UnitSetup("ger-gun", "pak40", "german", "A3", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=3),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    threats = g.knowledge("german").threat_map("ger-pz-1")
    assert "C2" in threats  # a vehicle may share a hex with its own infantry
    assert "A3" not in threats and "F2" not in threats  # its own Gun's (HX-4), the enemy's


# --- found in an ASL expert's read (rules 38) -----------------------------------------------


def _moved_question_mark(kind: str) -> Game:
    """A PaK 40 in A2; a concealed Russian ``kind`` in E2 that entered E2 this player turn,
    still a "?" to the German, who may fire at it in the Defensive Fire Phase."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-1", kind, "russian", "E2", facing=3, concealed=True),
    ]
    g = Game(make_setup(units, rows=FLAT), 1)
    to_phase(g, "defensive_fire", "russian")
    g.state.units["rus-1"].entered_new_hex = True
    return g


def test_c6_1_no_case_j_at_a_concealed_infantry_unit_that_moved():
    """C6.1 is for a moving or Motion vehicular target: the dice at a "?" that is Infantry add
    no Case J; the German reads the shot as at any "?" that moved (a vehicle's Case J), so the
    log and the odds never tell it what the "?" is (RD-11)."""
    g = _moved_question_mark("rus_atr")
    script(g, 6, 6)  # a miss
    events = g.apply(Fire("ger-gun-1", "rus-1"))
    assert "J" not in cases(fire_data(events)) and "K" in cases(fire_data(events))
    seen = {}
    for kind in ("rus_atr", "t34m43"):
        other = _moved_question_mark(kind)
        odds = other.knowledge("german").odds("ger-gun-1", "rus-1")
        shown = {d["case"]: d["value"] for d in odds.report["to_hit"]["drms"]}
        script(other, 6, 6)
        other.apply(Fire("ger-gun-1", "rus-1"))
        read = [e for e in other.knowledge("german").events() if e.kind == "fire"][-1]
        seen[kind] = (shown, read.text, read.data["to_hit"]["drms"])
    assert seen["rus_atr"] == seen["t34m43"]
    assert seen["rus_atr"][0]["J"] == 2


def test_c6_1_a_vehicle_in_motion_cannot_stop_in_place():
    """HX-16: a vehicle in Motion enters a new hex before it may stop; pivoting in its hex and
    stopping there is refused (it may stay in Motion)."""
    g = gun_and_tank()
    to_phase(g, "movement", "russian")
    g.apply(Move("rus-tank-1", ahead("E2", 3)))
    while g.dff_pending:
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", True))
    while g.dff_pending:
        g.apply(Pass())
    to_phase(g, "movement", "russian", fresh=True)
    tank = g.units["rus-tank-1"]
    assert tank.motion
    g.apply(Turn("rus-tank-1", 4))  # no start MP: it is in Motion
    while g.dff_pending:
        g.apply(Pass())
    assert "HX-16" in (g.check(EndMove("rus-tank-1", False)) or "")
    assert g.check(EndMove("rus-tank-1", True)) is None
    g.apply(Move("rus-tank-1", ahead(tank.label, 4)))
    while g.dff_pending:
        g.apply(Pass())
    g.apply(EndMove("rus-tank-1", False))
    assert not tank.motion


def test_c6_17_the_start_mp_in_enemy_los_open_defensive_first_fire_before_it_leaves():
    """HX-5, RD-12: a stopped T-34 in A2, in the PaK's LOS, starts and drives into B2, out of
    it (the woods in C2): its start MP, spent in A2, give the PaK its chance there, before it
    leaves, with no Case J (it has entered no new hex, C6.1); then it enters B2."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "E1", facing=4),
        UnitSetup("rus-tank-1", "t34m43", "russian", "A2", facing=0),
    ]
    g = Game(make_setup(units, rows=rows_with(6, 3, {"C2": "w"})), 1)
    gun, tank = g.units["ger-gun-1"], g.units["rus-tank-1"]
    assert g.state.hex_sees(gun.hex, parse_label("A2"))
    assert not g.state.hex_sees(gun.hex, parse_label("B2"))
    to_phase(g, "movement", "russian")
    events = g.apply(Move("rus-tank-1", "B2"))
    assert tank.label == "A2" and g.dff_pending == ("ger-gun-1",)
    assert [e.kind for e in events][:1] == ["start"] and tank.mp_spent == 1
    assert g.dff_budget_for(gun, tank).shots_left == 1
    script(g, 6, 6)  # a miss
    events = g.apply(Fire("ger-gun-1", "rus-tank-1"))
    data = fire_data(events)
    assert data["dff_mark"] == 1 and not {"J", "J1", "J2"} & set(cases(data))
    assert tank.label == "B2" and tank.mp_spent == 2 and not g.dff_pending
    assert any(e.kind == "move" and e.data["to"] == "B2" for e in events)


def test_c6_17_a_start_no_enemy_sees_drives_on_at_once():
    """HX-5: with no enemy to answer the start MP, a Move from stopped is one step, as before."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "E1", facing=4),
        UnitSetup("rus-tank-1", "t34m43", "russian", "B2", facing=3),
    ]
    g = Game(make_setup(units, rows=rows_with(6, 3, {"C2": "w"})), 1)
    to_phase(g, "movement", "russian")
    events = g.apply(Move("rus-tank-1", "A2"))
    assert g.units["rus-tank-1"].label == "A2" and events[0].kind == "move"
    assert "start 1" in events[0].text
