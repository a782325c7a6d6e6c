"""To Hit: the To Hit Number (002, RD-1), Cases J-R (C6), RD-2..4. Dice: one seeded source."""

import pytest

from game.rules.dice import DR, Dice, FixedDice
from game.rules.drm import RuleError
from game.rules.to_hit import (
    Situation,
    hit_location,
    is_critical_hit,
    keeps_rof,
    to_hit_drms,
    to_hit_number,
)


def drms(**kw):
    found, notes = to_hit_drms(Situation(**kw))
    return {d.case: (d.value, d.rule) for d in found}, notes


# --- dice --------------------------------------------------------------------------------


def test_dice_are_reproducible_from_the_seed_and_count_draws():
    a, b = Dice(42), Dice(42)
    rolls = [a.roll() for _ in range(50)]
    assert rolls == [b.roll() for _ in range(50)]
    assert a.draws == 100
    assert all(1 <= r.white <= 6 and 1 <= r.colored <= 6 for r in rolls)
    resumed = Dice(42)
    for _ in range(100):
        resumed.die()
    assert resumed.roll() == a.roll()


def test_fixed_dice_play_back_and_run_out_loudly():
    d = FixedDice([3, 5, 1])
    assert d.roll() == DR(3, 5)
    assert d.die() == 1
    with pytest.raises(IndexError):
        d.die()
    with pytest.raises(ValueError):
        FixedDice([7])


# --- To Hit Number ---------------------------------------------------------------------------


def test_002_sw_to_hit_number_is_8_within_its_range():
    assert to_hit_number("sw", 4, sw_range=4) == (8, "002")


def test_002_sw_beyond_its_range_is_refused():
    with pytest.raises(RuleError, match="within its range"):
        to_hit_number("sw", 5, sw_range=4)


@pytest.mark.parametrize("r", [0, 1, 10])
def test_002_gun_to_hit_number_is_10_at_0_to_10_hexes(r):
    assert to_hit_number("gun", r) == (10, "002")
    assert to_hit_number("afv", r) == (10, "002")


@pytest.mark.parametrize("r", [11, 19])
def test_rd1_gun_to_hit_number_is_8_at_11_to_19_hexes(r):
    assert to_hit_number("gun", r) == (8, "RD-1")


@pytest.mark.parametrize("r", [20, 60])
def test_002_gun_to_hit_number_is_6_at_20_hexes_and_more(r):
    assert to_hit_number("afv", r) == (6, "002")


# --- Case J -----------------------------------------------------------------------------


def test_c6_1_case_j_moving_target_plus_2():
    assert drms(moving=True, range=5)[0]["J"] == (2, "C6.1")


def test_c6_1_case_j_motion_target_plus_2():
    assert drms(motion=True, range=5)[0]["J"] == (2, "C6.1")


@pytest.mark.parametrize("mp", [0.5, 1])
def test_c6_12_case_j2_limited_aim_plus_4(mp):
    assert drms(dff_mp=mp, range=5)[0] == {"J2": (4, "C6.12")}


@pytest.mark.parametrize("mp", [1.5, 3])
def test_c6_11_case_j1_restricted_aim_plus_3(mp):
    assert drms(dff_mp=mp, range=5)[0] == {"J1": (3, "C6.11")}


def test_c6_1_dff_after_more_than_three_mp_is_case_j():
    assert drms(dff_mp=3.5, range=5)[0] == {"J": (2, "C6.1")}


def test_c6_15_began_its_move_in_the_los_is_case_j_only():
    found, notes = drms(dff_mp=0.5, dff_exempt=True, range=5)
    assert found == {"J": (2, "C6.1")}
    assert notes[0].rule == "C6.15"


def test_c6_13_c6_14_cases_j3_j4_vs_moving_infantry():
    found, _ = drms(
        infantry_target=True, dff_mp=1, infantry_non_assault=True, infantry_in_open=True, range=5
    )
    assert found == {"J3": (-1, "C6.13"), "J4": (-1, "C6.14")}


# --- Cases K, L ------------------------------------------------------------------------


def test_c6_2_case_k_concealed_target_plus_2():
    assert drms(concealed=True, range=5)[0]["K"] == (2, "C6.2")


def test_c6_2_case_k_smoke_exception():
    # SMOKE at a hex with a Known unit: no Case K
    assert "K" not in drms(concealed=True, smoke_ammo=True, known_units_in_target_hex=1)[0]
    assert "K" in drms(concealed=True, smoke_ammo=True, known_units_in_target_hex=0)[0]
    many = drms(concealed=True, smoke_ammo=True, non_hidden_units_in_target_hex=2)[0]
    assert "K" not in many


def test_c6_3_case_l_point_blank_minus_2_at_one_hex_minus_1_at_two():
    assert drms(range=1)[0]["L"] == (-2, "C6.3")
    assert drms(range=2)[0]["L"] == (-1, "C6.3")
    assert "L" not in drms(range=3)[0]
    assert "L" not in drms(range=0)[0]


def test_c6_3_case_l_applies_to_a_moving_but_stopped_target():
    found, _ = drms(range=1, moving=True)
    assert found["L"] == (-2, "C6.3") and found["J"] == (2, "C6.1")


@pytest.mark.parametrize(
    "kw",
    [
        {"firer": "sw"},
        {"motion": True},
        {"dff_mp": 4, "non_stopped": True},
        {"non_stopped": True},
        {"firer_non_stopped": True},
        {"area_target_type": True},
    ],
)
def test_c6_3_case_l_does_not_apply(kw):
    found, notes = drms(range=1, **kw)
    assert "L" not in found
    assert any(n.rule == "C6.3" for n in notes)


# --- Cases M, N, O -------------------------------------------------------------------


def test_c6_4_case_m_bore_sighted_minus_2():
    assert drms(bore_sighted=True, range=5)[0]["M"] == (-2, "C6.4")


def test_c6_5_case_n_acquired_minus_1_minus_2():
    assert drms(acquired=1, range=5)[0]["N"] == (-1, "C6.5")
    assert drms(acquired=2, range=5)[0]["N"] == (-2, "C6.5")


def test_c6_4_cases_m_and_n_the_better_one_never_both():
    found, notes = drms(bore_sighted=True, acquired=1, range=5)
    assert found.get("M") == (-2, "C6.4") and "N" not in found
    assert notes[0].rule == "C6.4"
    found, _ = drms(bore_sighted=True, acquired=2, range=5)
    assert sum(v for v, _ in found.values()) == -2


def test_c6_41_a_latw_neither_bore_sights_nor_acquires():
    with pytest.raises(RuleError):
        to_hit_drms(Situation(firer="sw", bore_sighted=True))
    with pytest.raises(RuleError):
        to_hit_drms(Situation(firer="sw", acquired=1))


def test_c6_6_case_o_hazardous_minus_2_never_with_j():
    assert drms(hazardous=True, range=5)[0]["O"] == (-2, "C6.6")
    found, notes = drms(hazardous=True, moving=True, range=5)
    assert "O" not in found and notes[-1].rule == "C6.6"


# --- Cases P, Q, R ---------------------------------------------------------------------


def test_c6_7_case_p_target_size():
    assert drms(size=-2, range=5)[0]["P"] == (-2, "C6.7")
    assert drms(size=1, range=5)[0]["P"] == (1, "C6.7")
    with pytest.raises(RuleError):
        to_hit_drms(Situation(size=3))


def test_c6_8_case_q_tem_not_vs_area_target_type():
    assert drms(tem=3, range=5)[0]["Q"] == (3, "C6.8")
    assert "Q" not in drms(tem=3, range=5, area_target_type=True)[0]


def test_c6_9_case_r_hindrance():
    assert drms(hindrance=2, range=5)[0]["R"] == (2, "C6.9")


def test_c6_drm_are_cumulative():
    found, _ = drms(moving=True, concealed=True, size=1, tem=1, hindrance=1, range=5)
    assert sum(v for v, _ in found.values()) == 2 + 2 + 1 + 1 + 1


# --- after the roll ------------------------------------------------------------------


def test_rd2_turret_hit_when_colored_die_below_white():
    for w in range(1, 7):
        for c in range(1, 7):
            assert hit_location(DR(w, c)) == ("turret" if c < w else "hull")


def test_rd3_critical_hit_is_a_hit_on_an_original_2():
    assert is_critical_hit(DR(1, 1), hit=True)
    assert not is_critical_hit(DR(1, 1), hit=False)
    assert not is_critical_hit(DR(1, 2), hit=True)


def test_rd4_multiple_rof_on_the_colored_die():
    assert keeps_rof(DR(6, 2), rof=2)
    assert not keeps_rof(DR(1, 3), rof=2)
    assert not keeps_rof(DR(6, 1), rof=1, phase_allows=False)  # not in the AFPh
    assert not keeps_rof(DR(6, 1), rof=0)
