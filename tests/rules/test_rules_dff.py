"""The Defensive First Fire budget (C6.17) and Case J subcases (C6.11, C6.12, C6.15)."""

from game.rules.dff import case_j_for, dff_budget


def test_c6_17_example_one_shot_claiming_three_and_a_half_mp_then_one_more_case_j():
    """C6.17 EX: a tank spends five MP to enter W6, in the AT Gun's LOS for the first time."""
    first = dff_budget(5, 5)
    assert first.shots_left == 5
    claim = next(o for o in first.options if o.drm.case == "J")
    assert claim.mark == 3.5  # "the minimum MP expenditure in LOS to void J1 and J2"
    second = dff_budget(5, 5, marks=(3.5,))
    assert second.shots_left == 1  # "it can fire only one more time"
    assert {o.drm.case for o in second.options} == {"J"}
    third = dff_budget(5, 5, marks=(3.5, second.options[0].mark))
    assert not third.can_fire


def test_c6_17_example_five_shots_j2_j1_j1_j_j():
    marks: tuple[float, ...] = ()
    cases = []
    while (b := dff_budget(5, 5, marks)).can_fire:
        o = b.earliest
        cases.append(o.drm.case)
        marks = (*marks, o.mark)
    assert cases == ["J2", "J1", "J1", "J", "J"]
    assert marks == (1, 2, 3, 4, 5)


def test_c6_17_no_more_shots_than_mp_spent_in_the_location():
    assert dff_budget(2, 2).shots_left == 2
    assert dff_budget(1.5, 1.5).shots_left == 1
    assert dff_budget(0, 0).shots_left == 0


def test_c6_17_half_an_mp_still_allows_one_shot():
    b = dff_budget(0.5, 0.5)
    assert b.shots_left == 1 and b.best.drm.case == "J2"


def test_c6_17_mp_in_los_before_the_location_count_for_the_subcase():
    # 3 MP in the LOS before entering this hex, 1 MP here: 4 MP in the continuous LOS
    b = dff_budget(1, 4)
    assert b.best.drm.case == "J"


def test_c6_17_best_option_is_the_smallest_drm_at_the_earliest_mark():
    b = dff_budget(2, 2)
    assert b.best.mark == 1.5 and b.best.drm.case == "J1"
    assert b.option_at(2).drm.case == "J1"
    assert b.option_at(1).drm.case == "J2"
    assert b.option_at(2.5) is None


def test_c6_15_a_vehicle_that_began_its_move_in_the_los_is_case_j_only():
    assert dff_budget(1, 1, exempt=True).best.drm.case == "J"
    assert case_j_for(0.5, exempt=True).rule == "C6.15"


def test_c6_11_c6_12_thresholds():
    assert case_j_for(1).case == "J2"
    assert case_j_for(1.5).case == "J1"
    assert case_j_for(3).case == "J1"
    assert case_j_for(3.5).case == "J"


def test_c6_17_a_shot_at_half_an_mp_counts_as_the_locations_first_whole_mp():
    """HX-18: a road hex entered for 1/2 MP may be fired at once; when the vehicle then stops
    there (1 1/2 MP) the shot taken at 1/2 MP used its first MP, and no second shot comes, as
    none would have had the firer waited for the stop (1 1/2 MP: one shot)."""
    assert not dff_budget(1.5, 1.5, marks=(0.5,)).can_fire
    assert dff_budget(1.5, 1.5).shots_left == 1
    assert dff_budget(2.5, 2.5, marks=(0.5,)).shots_left == 1  # at mark 2: two in 2 1/2 MP
    assert dff_budget(2.5, 2.5).shots_left == 2
    assert dff_budget(5, 5, marks=(3.5,)).shots_left == 1  # the C6.17 example still holds
