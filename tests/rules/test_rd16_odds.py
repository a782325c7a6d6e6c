"""RD-16: every probability the game shows is the exact probability of what the engine's dice
then produce, every random step included (hit location, Critical Hit, Multiple ROF, the
chart's 90-degree die, special ammunition, the Possible Shock NTC, abandonment); and RD-17:
special ammunition is limited, its availability die drawn from the game's Dice."""

import copy
import math

import pytest
from engine_helpers import make_setup, script, to_phase

from game.engine import Game, IllegalAction, UnitSetup
from game.engine.actions import Fire
from game.engine.play.shot import build_attack
from game.rules.dice import Dice
from game.rules.facing import facing_offset
from game.rules.odds import odds

OPEN = ["o o o o o o o o"] * 6


def _game(units, to_kill="asl", year=1943) -> Game:
    g = Game(make_setup(units, rows=OPEN, to_kill=to_kill, year=year), 1)
    to_phase(g, "defensive_fire", "russian")
    return g


def _duel(target_hex="E2", facing=3, to_kill="asl", immobilized=False) -> Game:
    g = _game(
        [
            UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
            UnitSetup("rus-t", "t34m43", "russian", target_hex, facing=facing),
        ],
        to_kill,
    )
    g.state.units["rus-t"].immobilized = immobilized
    return g


# --- RD-8 / RD-16: the chart's 90-degree line ----------------------------------------------


def _on_the_line() -> Game:
    """Pz IVH in C5; a T-34 in E2 facing hexside 3, 4 hexes away, with the Pz exactly on its
    90-degree line (RD-8; found by facing_offset == 90)."""
    g = _game(
        [
            UnitSetup("ger-pz-1", "pz4h", "german", "C5", facing=0),
            UnitSetup("rus-t", "t34m43", "russian", "E2", facing=3),
        ],
        "chart",
    )
    t = g.units["rus-t"]
    assert facing_offset(t.hex, t.facing, g.units["ger-pz-1"].hex) == 90.0
    return g


def test_rd8_rd16_chart_90_degree_line_the_odds_weigh_front_and_rear_half_and_half():
    g = _on_the_line()
    firer, target = g.units["ger-pz-1"], g.units["rus-t"]
    shown = g.preview_fire("ger-pz-1", "rus-t")
    front = odds(build_attack(g.state, firer, target, "AP", False, 1))
    rear = odds(build_attack(g.state, firer, target, "AP", False, 4))
    assert front.plan.elimination_number != rear.plan.elimination_number
    for k in shown.p:
        assert shown.p[k] == pytest.approx((front.p[k] + rear.p[k]) / 2)
    assert shown.p["eliminated"] == pytest.approx(
        33 / 36 * 41 / 72
    )  # 52.2%: the front-only figure was 38.2%
    assert [b.rule for b in shown.branches] == ["RD-8", "RD-8"]
    # the threat map (RD-18) has the same figure
    t = g.knowledge("russian").threat_map("rus-t")["E2"]
    assert t.p_kill == pytest.approx(shown.p["eliminated"] + shown.p["burn"] + shown.p["abandoned"])


# --- RD-17: special ammunition --------------------------------------------------------------


def test_rd17_an_apcr_shot_first_rolls_its_availability_and_a_high_die_runs_it_out():
    g = _duel()
    script(g, 5, 6, 6)  # availability dr 5 > 4: out of APCR, fired as AP; TH 12: miss
    events = g.apply(Fire("ger-pz-1", "rus-t", "APCR"))
    ammo = next(e for e in events if e.kind == "ammo")
    assert ammo.dice == (5,) and "RD-17" in ammo.rules and not ammo.data["there"]
    fire = next(e for e in events if e.kind == "fire")
    assert fire.data["weapon"] == "AP"
    assert g.units["ger-pz-1"].ammo_out == ("APCR",)
    to_phase(g, "defensive_fire", "russian", fresh=True)  # the next Russian player turn
    with pytest.raises(IllegalAction, match="out of APCR.*RD-17"):
        g.apply(Fire("ger-pz-1", "rus-t", "APCR"))
    assert not any(getattr(a, "ammo", None) == "APCR" for a in g.legal_actions())


def test_rd17_a_low_die_fires_the_apcr_round_and_keeps_it():
    g = _duel()
    script(g, 4, 6, 6)
    events = g.apply(Fire("ger-pz-1", "rus-t", "APCR"))
    assert next(e for e in events if e.kind == "fire").data["weapon"] == "APCR"
    assert g.units["ger-pz-1"].ammo_out == ()


def test_rd17_the_odds_include_the_availability_die():
    g = _duel()
    firer, target = g.units["ger-pz-1"], g.units["rus-t"]
    shown = g.preview_fire("ger-pz-1", "rus-t", "APCR")
    apcr = odds(build_attack(g.state, firer, target, "APCR", False, None))
    ap = odds(build_attack(g.state, firer, target, "AP", False, None))
    for k in shown.p:
        assert shown.p[k] == pytest.approx(4 / 6 * apcr.p[k] + 2 / 6 * ap.p[k])
    report = g.knowledge("german").odds("ger-pz-1", "rus-t", "APCR").report
    assert [b["rule"] for b in report["branches"]] == ["RD-17", "RD-17"]


@pytest.mark.parametrize("to_kill", ["asl", "chart"])
def test_rd17_002_under_the_chart_the_odds_say_special_ammunition_gains_nothing(to_kill):
    """Under the chart the kill reads the firer's ATFP alone (002): an APCR round kills no
    better than AP, and may run out (RD-17); the odds say so (an ASL player's trial found it
    offered for nothing). Under asl (C7.32) it has its own To Kill table and says nothing."""
    g = _duel(to_kill=to_kill)
    report = g.knowledge("german").odds("ger-pz-1", "rus-t", "APCR").report
    there = report["branches"][0]["why"]
    assert there.startswith("APCR there (dr <= 4)")
    assert ("no better than AP (002)" in there) == (to_kill == "chart")
    shown = g.preview_fire("ger-pz-1", "rus-t", "APCR")
    if to_kill == "chart":
        assert shown.p == pytest.approx(g.preview_fire("ger-pz-1", "rus-t", "AP").p)


def test_rd17_every_special_ammunition_in_the_catalogue_has_a_depletion_number_each_year():
    from game.engine.catalogue import SPECIAL_AMMO, depletion_number, unit_types

    for ut in unit_types().values():
        for ammo in ut.ammo:
            if ammo in SPECIAL_AMMO:
                for year in range(1939, 1947):
                    assert 0 <= (depletion_number(ut, ammo, year) or 0) <= 6, (ut.key, ammo)


@pytest.mark.parametrize(
    "kind, year, number",
    [
        ("pz4h", 1943, 4),  # German APCR: 3, 4, 4, 3, 2 over 1941-1945
        ("pz4h", 1945, 2),
        ("pz4h", 1939, 3),  # before the table: its first year
        ("zis3", 1942, 0),  # Russian APCR not yet issued
        ("zis3", 1944, 4),
        ("firefly", 1944, 2),  # British APDS
        ("m10", 1945, 4),  # US HVAP
    ],
)
def test_rd17_the_depletion_number_is_the_nationalitys_for_the_scenarios_year(kind, year, number):
    from game.engine.catalogue import depletion_number, unit_types

    ut = unit_types()[kind]
    ammo = "APDS" if kind == "firefly" else "APCR"
    assert depletion_number(ut, ammo, year) == number


def test_rd17_ammunition_not_yet_issued_is_not_offered_and_is_refused():
    g = _game(
        [
            UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0),
            UnitSetup("rus-t", "zis3", "russian", "E2", facing=3),
        ],
        year=1942,
    )
    to_phase(g, "defensive_fire", "german")  # the Russian Gun fires in the German turn
    assert not any(getattr(a, "ammo", None) == "APCR" for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="not yet issued in 1942.*RD-17"):
        g.apply(Fire("rus-t", "ger-pz-1", "APCR"))


# --- RD-16: the shown odds against the engine's own dice ------------------------------------


SHOTS = {
    # hit location (RD-2), Critical Hit (RD-3), Multiple ROF (RD-4), the NTC (RD-5)
    "asl AP, 4 hexes": (lambda: _duel(), "AP"),
    "the chart's 90-degree die (RD-8)": (_on_the_line, "AP"),
    "APCR availability (RD-17)": (lambda: _duel(), "APCR"),
    "an immobilized target's abandonment (002)": (lambda: _duel(immobilized=True), "AP"),
    "HE at the T-34 (C7.34)": (lambda: _duel(), "HE"),
}


def _simulate(make, ammo: str, n: int) -> tuple[dict, dict[str, float], float]:
    base = make()
    shown = base.preview_fire("ger-pz-1", "rus-t", ammo)
    seen: dict[str, int] = {}
    rof = 0
    for i in range(n):
        g = copy.deepcopy(base)
        g.dice = Dice(10_000 + i)
        data = next(e for e in g.apply(Fire("ger-pz-1", "rus-t", ammo)) if e.kind == "fire").data
        seen[data["outcome"]] = seen.get(data["outcome"], 0) + 1
        rof += data["rof_kept"]
    return shown.p, {k: v / n for k, v in seen.items()}, rof / n


def _check(shown: dict, seen: dict, n: int) -> None:
    for k, p in shown.items():
        q = seen.get(k, 0.0)
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(q - p) <= 4.5 * sigma + 1e-9, (k, p, q)
    assert set(seen) <= {k for k, p in shown.items() if p > 0}


@pytest.mark.parametrize("name", list(SHOTS))
def test_rd16_the_shown_odds_are_what_the_engines_dice_do(name):
    make, ammo = SHOTS[name]
    n = 700
    shown, seen, rof = _simulate(make, ammo, n)
    _check(shown, seen, n)
    p_rof = make().preview_fire("ger-pz-1", "rus-t", ammo).p_rof
    assert abs(rof - p_rof) <= 4.5 * math.sqrt(max(p_rof * (1 - p_rof), 1e-4) / n)


@pytest.mark.long
@pytest.mark.parametrize("name", list(SHOTS))
def test_rd16_the_shown_odds_are_what_the_engines_dice_do_20000_shots(name):
    make, ammo = SHOTS[name]
    shown, seen, _ = _simulate(make, ammo, 20_000)
    _check(shown, seen, 20_000)


def test_rd17_hexfire_odds_weighs_the_availability_die_with_depletion():
    import json
    import subprocess
    import sys

    def run(*extra):
        args = ["odds", "--gun", "75L", "--ammo", "APCR", "--range", "4", "--af", "11", "--json"]
        r = subprocess.run(
            [sys.executable, "-m", "game", *args, *extra], capture_output=True, text=True
        )
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    plain, weighed = run(), run("--depletion", "4")
    assert any(n["rule"] == "RD-17" for n in plain["to_hit"]["notes"])  # says what it leaves out
    assert [b["p"] for b in weighed["branches"]] == pytest.approx([4 / 6, 2 / 6])
    assert sum(weighed["p"].values()) == pytest.approx(1.0)
    assert weighed["p"]["burn"] < plain["p"]["burn"]
