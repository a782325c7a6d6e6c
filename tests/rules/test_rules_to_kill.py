"""To Kill, the asl system (C7): tables, Cases A-D, AF, the AFV Destruction Table, and the
seed's worked examples."""

import pytest

from game.rules.destruction import dc_position, dc_position_drms, destruction
from game.rules.drm import RuleError
from game.rules.outcomes import abandoned, ntc_fails, recovery, shock_again
from game.rules.to_kill import aerial_af, basic_tk, final_tk


def mods(r):
    return {m.case: m.value for m in r.modifications}


def test_c7_24_example_50l_at_kv1e_rear_at_25_hexes():
    """C7.24 EX: Basic 13, Case A +1, Case D -2, Modified 12, AF 8, Final 4."""
    r = final_tk("AP", gun="50L", range_hexes=25, aspect="rear", af=8)
    assert (r.table, r.basic, r.basic_rule) == ("AP", 13, "C7.31")
    assert mods(r) == {"A": 1, "D": -2}
    assert [m.rule for m in r.modifications] == ["C7.21", "C7.24"]
    assert (r.modified, r.af, r.final) == (12, 8, 4)


def test_c7_12_example_t50_aerial_af_is_2():
    """C7.12 EX: the worst AF of a Russian T-50 is 3, so its Aerial AF is 2."""
    assert aerial_af(3) == 2
    assert aerial_af(0) == 0
    assert aerial_af(26) == 18
    with pytest.raises(RuleError):
        aerial_af(5)


def test_c7_31_example_russian_76l_is_13_not_17():
    assert basic_tk("AP", "76L", nationality="russian")[1] == 13
    assert basic_tk("AP", "76L", nationality="german")[1] == 17
    assert basic_tk("AP", "76L")[1] == 17


def test_c7_31_example_red_atr_6_for_russian_finnish_japanese_italian_else_5():
    for nation in ("russian", "finnish", "japanese", "italian", "allied_minor"):
        assert basic_tk("AP", "ATR", nationality=nation)[1] == 6
    assert basic_tk("AP", "ATR", nationality="british")[1] == 5
    assert basic_tk("AP", weapon="ATR", nationality="russian")[1] == 6


def test_c7_31_other_colored_entries():
    assert basic_tk("AP", "76LL", nationality="russian")[1] == 16
    assert basic_tk("AP", "76LL", nationality="american")[1] == 23
    assert basic_tk("AP", "75", variant="grant")[1] == 13
    assert basic_tk("AP", "75", nationality="american")[1] == 14
    assert basic_tk("AP", "88", nationality="british")[1] == 13
    assert basic_tk("AP", "90L", nationality="italian")[1] == 20
    assert basic_tk("AP", "90L", nationality="american")[1] == 21


@pytest.mark.parametrize(
    "gun, tk",
    [
        ("12.7", 5),
        ("20L", 6),
        ("37*", 7),
        ("37", 8),
        ("37L", 9),
        ("40L", 10),
        ("50", 11),
        ("76", 12),
        ("75", 14),
        ("57L", 15),
        ("75L", 17),
        ("88L", 20),
        ("90L", 21),
        ("75LL", 23),
        ("122L", 25),
        ("88LL", 27),
        ("150L", 28),
        ("140L", 32),
        ("128L", 33),
    ],
)
def test_c7_31_ap_table(gun, tk):
    assert basic_tk("AP", gun)[1] == tk


def test_c7_31_a_gun_not_on_the_table_is_refused():
    with pytest.raises(RuleError, match="not on the AP"):
        basic_tk("AP", "99L")


def test_c7_32_german_28ll_and_40ll_always_use_apcr():
    assert basic_tk("AP", "28LL")[:2] == ("APCR", 12)
    assert basic_tk("AP", "40LL")[:2] == ("APCR", 14)
    assert basic_tk("HE", "40LL")[0] == "HE"


def test_c7_32_apcr_and_apds_entries():
    assert basic_tk("APCR", "50L")[1] == 17
    assert basic_tk("APCR", "76L", nationality="russian")[1] == 14
    assert basic_tk("APCR", "76L", nationality="us")[1] == 22
    assert basic_tk("APCR", "76L")[1] == 20
    assert basic_tk("APCR", "76LL", nationality="russian")[1] == 18
    assert basic_tk("APDS", "57L")[1] == 18
    assert basic_tk("APDS", "76LL")[1] == 25
    with pytest.raises(RuleError):
        basic_tk("APCR", "57L")


def test_c7_33_heat_ignores_barrel_length_and_has_no_case_d():
    assert basic_tk("HEAT", "75L")[1] == basic_tk("HEAT", "75*")[1] == 13
    assert basic_tk("HEAT", weapon="PSK")[1] == 26
    assert basic_tk("HEAT", weapon="PF")[1] == 31
    assert basic_tk("HEAT", weapon="PIAT")[1] == 15
    assert "D" not in mods(final_tk("HEAT", gun="75", range_hexes=40, af=8))


def test_c7_34_example_76l_he_is_7_or_12():
    """C7.34 EX: a 76L firing HE has a Basic TK# of 7 (armored) or 12 (unarmored), "70+"."""
    assert basic_tk("HE", "76L")[1] == 7
    assert final_tk("HE", gun="76L", armored=False).final == 12
    assert basic_tk("HE", "150")[1] == 16
    assert basic_tk("HE", "20L")[1] == 3
    with pytest.raises(RuleError):
        basic_tk("HE", "12.7")


def test_c7_341_he_has_no_case_d():
    assert "D" not in mods(final_tk("HE", gun="75", range_hexes=40, af=8))


@pytest.mark.parametrize(
    "gun, final",
    [("20L", 7), ("ATR", 7), ("37", 8), ("57L", 8), ("75", 9), ("88L", 10), ("122L", 11)],
)
def test_c7_311_ap_vs_unarmored_by_caliber(gun, final):
    r = final_tk("AP", gun=gun, armored=False, range_hexes=30)
    assert r.final == final and r.af is None and r.basic_rule == "C7.311"
    assert final_tk("AP", gun=gun, armored=False, critical_hit=True).final == 2 * final


def test_c7_321_apcr_vs_unarmored_uses_the_ap_figure():
    r = final_tk("APCR", gun="50L", armored=False)
    assert r.final == 8 and r.basic_rule == "C7.321"


def test_c7_331_heat_vs_unarmored_is_11_or_22_on_a_ch():
    assert final_tk("HEAT", gun="75", armored=False).final == 11
    assert final_tk("HEAT", weapon="BAZ43", armored=False, critical_hit=True).final == 22


def test_c7_23_case_c_doubles_the_basic_before_the_others():
    r = final_tk("AP", gun="50L", range_hexes=25, aspect="rear", af=8, critical_hit=True)
    assert mods(r) == {"C": 13, "A": 1, "D": -2}
    assert r.modified == 26 + 1 - 2 and r.final == 17


def test_c7_21_case_a_rear_plus_1_side_none():
    assert mods(final_tk("AP", gun="75L", range_hexes=5, aspect="rear", af=8)) == {"A": 1}
    assert mods(final_tk("AP", gun="75L", range_hexes=5, aspect="side", af=8)) == {}


def test_c7_22_case_b_mol_from_higher_plus_1_or_2_vs_ot():
    assert mods(final_tk("MOL", weapon="MOL", elevation_advantage=True, af=4))["B"] == 1
    r = final_tk("MOL", weapon="MOL", elevation_advantage=True, open_topped=True, af=4)
    assert r.modifications[-1].value == 2 and r.modifications[-1].rule == "C7.22"


def test_c7_22_case_b_for_aircraft_hits():
    r = final_tk("HE", gun="100", af=3, aerial=True)
    assert mods(r) == {"A": 1, "B": 1}
    assert r.af_rule == "C7.12"


def test_c7_24_case_d_na_refuses_the_shot():
    with pytest.raises(RuleError, match="NA"):
        final_tk("AP", gun="20L", range_hexes=49, af=1)
    with pytest.raises(RuleError, match="NA"):
        final_tk("APCR", gun="50L", range_hexes=31, af=1)


def test_c7_24_case_d_rows_and_the_project_rows_for_26_36_and_58_64mm():
    assert mods(final_tk("AP", gun="20L", range_hexes=1, af=1)) == {"D": 2}
    assert mods(final_tk("AP", gun="37L", range_hexes=1, af=1)) == {"D": 1}
    assert mods(final_tk("AP", gun="88L", range_hexes=73, af=1)) == {"D": -5}
    assert mods(final_tk("AP", gun="25LL", range_hexes=43, af=1)) == {"D": -5}
    # 26-36 mm: the <= 25mm row; 58-64 mm: the 37-57mm row (hexfire)
    assert final_tk("AP", gun="37*", range_hexes=1, af=1).modified == 7 + 1
    assert mods(final_tk("APDS", gun="76LL", range_hexes=1, af=1)) == {"D": 1}
    assert mods(final_tk("APCR", gun="75L", range_hexes=13, af=1)) == {"D": -1}
    assert mods(final_tk("APCR", gun="50L", range_hexes=13, af=1)) == {"D": -2}


def test_c7_344_ft_no_af_ce_and_ot_both_no_cases_c_d():
    r = final_tk(
        "FT", weapon="FT", ce=True, open_topped=True, range_hexes=1, af=11, critical_hit=True
    )
    assert mods(r) == {"CE": 1, "OT": 2}
    assert r.af is None and r.final == 16 + 3
    assert any(n.rule == "C7.344" for n in r.notes)


def test_c7_344_ft_halved_at_long_range():
    r = final_tk("FT", weapon="FT", range_hexes=2, af=8)
    assert r.modified == 8


def test_c7_344_mol_takes_only_one_of_ce_and_ot():
    r = final_tk("MOL", weapon="MOL", ce=True, open_topped=True, af=8)
    assert mods(r) == {"OT": 2} and r.final == 10


def test_c7_346_dc_uses_af_and_its_position_dr():
    assert dc_position(5, 0)[0] == "optimal"
    assert dc_position(6, 0)[0] == "success"
    assert dc_position(8, 0)[0] == "success"
    assert dc_position(9, 0)[0] == "poor"
    assert dc_position(10, 2)[0] == "none"
    d = dc_position_drms(non_stopped_or_concealed=True, thrown=True, aspect="front", ce=True)
    assert sum(x.value for x in d) == 2 + 2 + 1 + 1
    d = dc_position_drms(aspect="rear", immobile=True, open_topped=True, elevation_advantage=True)
    assert sum(x.value for x in d) == -1 - 2 - 2 - 2


# --- the AFV Destruction Table (C7.7) ------------------------------------------------------


def test_c7_35_original_12_is_a_dud():
    assert destruction(20, 12) == ("dud", "C7.35")
    assert destruction(20, 12, armored=False)[0] == "dud"


def test_c7_6_dr_at_most_half_the_final_tk_burns():
    assert destruction(8, 4)[0] == "burn"
    assert destruction(8, 5)[0] == "eliminated"
    assert destruction(7, 3)[0] == "burn"
    assert destruction(7, 4)[0] == "eliminated"


def test_c7_7_red_cs_minus_1_for_burn_determination():
    assert destruction(8, 5, red_cs=True)[0] == "burn"


def test_c7_7_dr_below_the_final_tk_eliminates():
    assert destruction(10, 9) == ("eliminated", "C7.7")


def test_c7_5_dr_equal_final_hull_hit_immobilizes():
    assert destruction(6, 6, location="hull") == ("immobilized", "C7.5")


def test_c7_41_dr_equal_final_turret_hit_shocks():
    assert destruction(6, 6, location="turret") == ("shock", "C7.41")


def test_c7_41_non_he_one_over_is_possible_shock():
    assert destruction(6, 7) == ("possible_shock", "C7.41")
    assert destruction(6, 8) == ("no_effect", "C7.7")


def test_c7_5_he_one_over_immobilizes_a_hull_hit_and_shocks_a_turret_hit():
    assert destruction(6, 7, he=True, location="hull") == ("immobilized", "C7.5")
    assert destruction(6, 7, he=True, location="turret") == ("shock", "C7.41")


def test_c7_5_ft_mol_dr_equal_eliminates_without_burning_and_below_burns():
    assert destruction(10, 10, column="ftmol") == ("eliminated", "C7.5")
    assert destruction(10, 9, column="ftmol") == ("burn", "C7.6")
    assert destruction(10, 11, column="ftmol")[0] == "no_effect"


def test_c7_7_dc_column_one_over_as_he():
    assert destruction(6, 7, column="dc", location="hull")[0] == "immobilized"


def test_unarmored_vehicle_is_immobilized_on_dr_equal_and_never_shocked():
    assert destruction(9, 9, armored=False, location="turret")[0] == "immobilized"
    assert destruction(9, 10, armored=False)[0] == "no_effect"


# --- what follows --------------------------------------------------------------------------


def test_rd5_possible_shock_ntc_fails_above_morale():
    assert ntc_fails(9) and not ntc_fails(8)
    assert ntc_fails(8, morale=7)


def test_002_abandonment_on_1_or_2():
    assert [abandoned(d) for d in range(1, 7)] == [True, True, False, False, False, False]


def test_c7_42_shock_and_uk_recovery():
    assert recovery("shock", 2) == ("none", "C7.42")
    assert recovery("shock", 3) == ("uk", "C7.42")
    assert recovery("uk", 3) == ("none", "C7.42")
    assert recovery("uk", 4) == ("wreck", "C7.42")
    with pytest.raises(ValueError):
        recovery("ok", 1)


@pytest.mark.parametrize(
    "column, equal, he_over, non_he_over",
    [
        ("direct", ("immobilized", "shock"), ("immobilized", "shock"), "possible_shock"),
        ("dc", ("immobilized", "shock"), ("immobilized", "shock"), "immobilized"),
        ("indirect", ("immobilized", "shock"), ("immobilized", "shock"), "no_effect"),
        ("ifemg", ("stun", "stun"), ("no_effect", "no_effect"), "no_effect"),
        ("cc", ("immobilized", "immobilized"), ("no_effect", "no_effect"), "no_effect"),
    ],
)
def test_c7_7_afv_destruction_table_every_column(column, equal, he_over, non_he_over):
    final = 8
    assert destruction(final, 4, column=column)[0] == "burn"
    assert destruction(final, 7, column=column)[0] == "eliminated"
    for loc, want in zip(("hull", "turret"), equal, strict=True):
        assert destruction(final, 8, column=column, location=loc)[0] == want
    for loc, want in zip(("hull", "turret"), he_over, strict=True):
        assert destruction(final, 9, column=column, location=loc, he=True)[0] == want
    assert destruction(final, 9, column=column, location="hull")[0] == non_he_over
    assert destruction(final, 12, column=column)[0] == "dud"


def test_c7_42_a_shock_result_on_a_uk_flips_it_back_to_shock():
    assert shock_again() == ("shock", "C7.42")


def test_c7_7_red_cs_burns_a_kill_only_never_a_dr_equal_to_the_final_tk():
    """HX-17: the red CS# -1 is for Burn determination only; DR 2 against a Final TK# of 2 is
    equal to it as rolled (C7.5 / C7.41): immobilized on a hull hit, Shock on a turret hit."""
    assert destruction(2, 2, red_cs=True) == ("immobilized", "C7.5")
    assert destruction(2, 2, location="turret", red_cs=True) == ("shock", "C7.41")
    assert destruction(3, 2, red_cs=True)[0] == "burn"  # 2 < 3 kills; 2 - 1 <= 1.5 burns
    assert destruction(2, 3, he=True, red_cs=True)[0] == "immobilized"  # HE one over


def test_c7_7_red_cs_odds_of_a_final_tk_of_2():
    """``hexfire odds --gun 37 --range 3 --af 6 --red-cs``: the red CS# moves no immobilization
    into burn (it was 0.15% immobilized / 3.63% burn)."""
    from game.rules.attack import Attack
    from game.rules.odds import odds

    def shot(red_cs):
        a = Attack(
            rules="asl",
            firer="gun",
            gun="37",
            ammo="AP",
            range=3,
            aspect="front",
            target="afv",
            af_hull=6,
            af_turret=6,
            worst_af=6,
            red_cs=red_cs,
        )
        return odds(a).p

    plain, red = shot(False), shot(True)
    assert red["immobilized"] + red["abandoned"] == pytest.approx(
        plain["immobilized"] + plain["abandoned"]
    )
    assert plain["burn"] < red["burn"] < 0.02  # a Critical Hit's kills burn more; was 3.63%
