"""Acquired Target counters (Case N, C6.5-.58), with the seed's examples."""

from game.rules.acquisition import (
    Acquirer,
    Acquisition,
    Location,
    Shot,
    after_shot,
    applies,
    on_ca_changed,
    on_gun_left_location,
    on_target_left_los,
    on_target_moved_in_los,
)

AT_GUN = Acquirer("ger-pak-1", "A", 75)
W6 = Location("W6")


def test_c6_5_placed_at_minus_1_then_flipped_to_minus_2_and_no_further():
    acq, rule = after_shot(None, AT_GUN, Shot("t34", W6))
    assert (acq.level, rule) == (1, "C6.5")
    assert applies(acq, AT_GUN, Shot("t34", W6))[0].value == -1
    acq, _ = after_shot(acq, AT_GUN, Shot("t34", W6))
    assert acq.level == 2
    acq, _ = after_shot(acq, AT_GUN, Shot("t34", W6))
    assert acq.level == 2  # no target is subject to more than -2 per Gun


def test_c6_5_only_guns_of_20mm_and_more_not_mortars_not_latw():
    assert after_shot(None, Acquirer("mg", "B", 12.7), Shot("t34", W6))[0] is None
    assert after_shot(None, Acquirer("psk", "C", 88, lat_weapon=True), Shot("t34", W6))[0] is None
    assert after_shot(None, Acquirer("mtr", "D", 81, mortar=True), Shot("t34", W6))[0] is None


def test_c6_5_lost_when_the_gun_fires_at_another_target_elsewhere():
    acq, _ = after_shot(None, AT_GUN, Shot("t34", W6))
    acq, _ = after_shot(acq, AT_GUN, Shot("kv1", Location("X7")))
    assert acq.target == "kv1" and acq.level == 1  # the old one is gone, a new -1 placed


def test_c6_5_loss_conditions():
    acq, _ = after_shot(None, AT_GUN, Shot("t34", W6))
    assert on_gun_left_location(acq, AT_GUN) is None
    assert on_ca_changed(acq, fired_at_acquired_this_phase=False) is None
    assert on_ca_changed(acq, fired_at_acquired_this_phase=True) == acq
    for ammo in ("SMOKE", "IFE", "canister"):
        assert after_shot(acq, AT_GUN, Shot("t34", W6, ammo=ammo))[0] is None


def test_c6_51_counter_stays_in_the_last_in_los_location_for_any_known_unit():
    acq, _ = after_shot(None, AT_GUN, Shot("t34", W6))
    acq = on_target_moved_in_los(acq, "t34", Location("X6"))
    assert acq.location == Location("X6")
    acq = on_target_left_los(acq, Location("X6"))
    assert acq.target is None and acq.location == Location("X6")
    drm, _ = applies(acq, AT_GUN, Shot("other-tank", Location("X6")))
    assert drm.value == -1 and drm.rule == "C6.5"
    assert applies(acq, AT_GUN, Shot("other-tank", Location("X6"), known=False))[0] is None


def test_c6_52_bracketing_transfers_to_a_new_target_in_the_same_location():
    acq, _ = after_shot(None, AT_GUN, Shot("t34", W6))
    acq, rule = after_shot(acq, AT_GUN, Shot("su76", W6))
    assert acq.target == "su76" and acq.level == 2 and rule == "C6.52"


def test_c6_54_ife_neither_places_nor_uses():
    acq, _ = after_shot(None, AT_GUN, Shot("t34", W6))
    drm, note = applies(acq, AT_GUN, Shot("t34", W6, ammo="IFE"))
    assert drm is None and note.rule == "C6.54"


def test_c6_55_only_a_stabilized_gun_keeps_acquisition_moving():
    tank = Acquirer("sherman", "E", 75, stabilized=True)
    acq, _ = after_shot(None, tank, Shot("pz4", W6))
    assert on_gun_left_location(acq, tank, retains_los=True) == acq
    assert on_gun_left_location(acq, tank, retains_los=False) is None
    plain = Acquirer("pz4", "F", 75)
    acq2, _ = after_shot(None, plain, Shot("sherman", W6))
    assert on_gun_left_location(acq2, plain, retains_los=True) is None
    assert applies(acq2, plain, Shot("sherman", W6, bounding=True))[1].rule == "C6.55"


def test_c6_56_smoke_cannot_acquire():
    acq, rule = after_shot(None, AT_GUN, Shot("t34", W6, ammo="SMOKE"))
    assert acq is None and rule == "C6.56"


def test_c6_57_a_concealed_target_is_acquired_only_if_the_shot_strips_concealment():
    assert after_shot(None, AT_GUN, Shot("t34", W6, concealed=True))[0] is None
    acq, _ = after_shot(None, AT_GUN, Shot("t34", W6, concealed=True, concealment_lost=True))
    assert acq.level == 1
    area, _ = after_shot(None, AT_GUN, Shot(None, W6, target_type="area", concealed=True))
    assert area.area


def test_c6_57_example_m4_76_at_m2():
    """C6.57 EX: the tank fires Area at M2 (a concealed squad on Level 1, a squad on Level 2)."""
    tank = Acquirer("m4-76", "G", 76, stabilized=True)
    m2_l1, m2_l2 = Location("M2", 1), Location("M2", 2)
    area, _ = after_shot(None, tank, Shot(None, m2_l1, target_type="area"))
    assert area.area and area.level == 1
    # it applies to both levels of the hex
    assert applies(area, tank, Shot("sq1", m2_l1, target_type="area"))[0].value == -1
    assert applies(area, tank, Shot("sq2", m2_l2, target_type="area"))[0].value == -1
    # it may transfer to a 1/2" counter vs the squad on Level 2 (Infantry Target Type)...
    drm, _ = applies(area, tank, Shot("sq2", m2_l2, target_type="infantry"))
    assert drm.value == -1
    half, _ = after_shot(area, tank, Shot("sq2", m2_l2, target_type="infantry"))
    assert not half.area and half.level == 2 and half.location == m2_l2
    # ...but not vs the concealed squad on Level 1: firing at it loses the acquisition
    drm, note = applies(area, tank, Shot("sq1", m2_l1, target_type="infantry", concealed=True))
    assert drm is None and note.rule == "C6.52"
    lost, rule = after_shot(area, tank, Shot("sq1", m2_l1, target_type="infantry", concealed=True))
    assert lost is None and rule == "C6.52"
    # Bounding First Fire from L3 with a Stabilized Gun: keeps it, as a 1/2" counter, vs Level 0
    m2_l0 = Location("M2", 0)
    kept = on_gun_left_location(area, tank, retains_los=True)
    drm, _ = applies(kept, tank, Shot("sq0", m2_l0, target_type="infantry", bounding=True))
    assert drm.value == -1
    # the squad moves from M2 into N2: an Area counter does not follow it
    gone = on_target_moved_in_los(kept, None, Location("N2"))
    assert applies(gone, tank, Shot("sq2", Location("N2"), target_type="area"))[0] is None


def test_c6_58_example_pzkpfw_vg_area_to_half_inch_keeps_minus_2():
    """C6.58 EX: PzKpfw VG (ID C): -1C Area (PFPh), -2C Area (DFPh), -2C 1/2" (next PFPh)."""
    panther = Acquirer("pzvg", "C", 75)
    loc = Location("K4")
    acq, _ = after_shot(None, panther, Shot("squad", loc, target_type="area"))
    assert acq.label == "-1C (Area)"
    assert applies(acq, panther, Shot("squad", loc, target_type="area"))[0].value == -1
    acq, _ = after_shot(acq, panther, Shot("squad", loc, target_type="area"))
    assert acq.label == "-2C (Area)"
    assert applies(acq, panther, Shot("squad", loc, target_type="infantry"))[0].value == -2
    acq, rule = after_shot(acq, panther, Shot("squad", loc, target_type="infantry"))
    assert acq.label == "-2C" and not acq.area and rule == "C6.52"


def test_c6_51_one_counter_per_gun():
    acq = Acquisition("ger-pak-1", "A", 1, W6, "t34")
    other = Acquirer("ger-pak-2", "B", 75)
    assert applies(acq, other, Shot("t34", W6)) == (None, None)
