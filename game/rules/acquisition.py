"""Acquired Target counters (Case N, C6.5-.58) as values with transitions.

One counter per Gun (C6.51), marked with the Gun's ID letter (C6.58): a 1/2" counter on a target
unit in its Location, or a 5/8" Area counter on a hex (C6.521). Placed at -1 by a Gun of >= 20mm
(not a mortar) firing at a Known unit, flipped to -2 by the next shot at it (C6.5, C6.53), and
lost on the conditions of C6.5. Every function returns a new value (or None when the counter is
gone) and the rule that decided it.

hexfire offers only the Vehicle Target Type in play; Area Acquisition, bracketing, IFE, SMOKE and
the Gyrostabilizer are implemented here as functions and tested, as docs/rules.md says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .drm import Drm, Note


@dataclass(frozen=True, slots=True)
class Location:
    """A hex (its label) and a level within it (building levels; 0 is ground level)."""

    hex: str
    level: int = 0

    def __str__(self) -> str:
        return self.hex if self.level == 0 else f"{self.hex} level {self.level}"


@dataclass(frozen=True, slots=True)
class Acquirer:
    """What acquisition needs to know of the firing weapon."""

    id: str
    letter: str
    caliber: float
    mortar: bool = False
    stabilized: bool = False
    lat_weapon: bool = False  # FT / LATW cannot acquire (C6.5 EXC)


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot as acquisition sees it.

    ``target``: the unit id fired at (None for an Area shot at an empty hex). ``target_type``:
    "vehicle", "infantry" or "area". ``ammo``: "AP", "HE", "SMOKE", "canister", "IFE", ...
    ``concealment_lost``: the shot stripped the target's concealment (C6.57).
    ``bounding``: Motion / Bounding First Fire (C6.55).
    """

    target: str | None
    location: Location
    target_type: str = "vehicle"
    ammo: str = "AP"
    known: bool = True
    concealed: bool = False
    concealment_lost: bool = False
    bounding: bool = False


@dataclass(frozen=True, slots=True)
class Acquisition:
    """An Acquired counter: Acquirer ``gun`` (ID ``letter``), -``level`` (1 or 2)."""

    gun: str
    letter: str
    level: int
    location: Location
    target: str | None
    """The acquired unit; None once it left the LOS and the counter stayed behind (C6.51)."""
    area: bool = False
    """A 5/8" Area Acquired counter (C6.521): it applies to the whole hex."""

    @property
    def label(self) -> str:
        return f"-{self.level}{self.letter}{' (Area)' if self.area else ''}"


def _can_acquire(gun: Acquirer, shot: Shot) -> tuple[bool, str]:
    if gun.lat_weapon:
        return False, "C6.5"  # not FT or LATW
    if gun.caliber < 20:
        return False, "C6.5"
    if shot.ammo in ("SMOKE",):
        return False, "C6.56"
    if shot.ammo in ("IFE",):
        return False, "C6.54"
    if shot.ammo in ("canister",):
        return False, "C6.5"
    if gun.mortar and shot.target_type != "area":
        return False, "C6.521"  # all mortars use Area Acquisition
    if shot.target_type == "area":
        return True, "C6.521"
    if not shot.known:
        return False, "C6.5"
    if shot.concealed and not shot.concealment_lost:
        return False, "C6.57"
    return True, "C6.5"


def applies(acq: Acquisition | None, gun: Acquirer, shot: Shot) -> tuple[Drm | None, Note | None]:
    """The Case N DRM this counter gives the shot, if any (C6.5, C6.51, C6.52, C6.521, C6.55,
    C6.57).

    >>> pak = Acquirer("pak", "A", 75)
    >>> acq = Acquisition("pak", "A", 1, Location("W6"), "t34")
    >>> str(applies(acq, pak, Shot("t34", Location("W6")))[0])
    '-1 Case N (C6.5)'
    >>> applies(acq, pak, Shot("t34", Location("W6"), ammo="IFE"))[1].rule
    'C6.54'
    """
    if acq is None or acq.gun != gun.id:
        return None, None
    if shot.ammo == "IFE":
        return None, Note("C6.54", "a Gun using IFE cannot use an Acquired counter")
    if shot.bounding and not gun.stabilized:
        return None, Note("C6.55", "only a Stabilized Gun keeps Acquisition for Motion/BFF")
    drm = Drm("N", -acq.level, "C6.5", f"Acquired {acq.label}")
    if acq.area:
        if shot.location.hex != acq.location.hex:
            return None, None
        if shot.target_type != "area" and shot.concealed:
            return None, Note("C6.52", "Area Acquisition cannot be used vs a concealed unit")
        if shot.bounding and shot.target_type == "area":
            return None, Note("C6.55", "the Area Target Type is NA for Motion/BFF")
        return drm, None
    if shot.location != acq.location:
        return None, None
    if not shot.known:
        return None, Note("C6.51", "an Acquired counter applies only to Known units")
    if shot.concealed and not shot.concealment_lost and acq.target != shot.target:
        return None, Note("C6.57", "a concealed unit is not acquired")
    return drm, None


def after_shot(
    acq: Acquisition | None, gun: Acquirer, shot: Shot
) -> tuple[Acquisition | None, str]:
    """The Gun's counter after it fired ``shot`` (C6.5, C6.51-.57); returns it and the rule.

    C6.58's example: a PzKpfw VG (ID letter C) fires at an Infantry target with the Area Target
    Type (-1C Area), again in the DFPh (-2C Area), then in its next PFPh with the Infantry
    Target Type: it keeps -2 on a 1/2" counter.

    >>> panzer, hex_ = Acquirer("pzvg", "C", 75), Location("M2")
    >>> acq, rule = after_shot(None, panzer, Shot("squad", hex_, target_type="area"))
    >>> acq.label, rule
    ('-1C (Area)', 'C6.521')
    >>> acq, rule = after_shot(acq, panzer, Shot("squad", hex_, target_type="area"))
    >>> acq.label, rule
    ('-2C (Area)', 'C6.5')
    >>> acq, rule = after_shot(acq, panzer, Shot("squad", hex_, target_type="infantry"))
    >>> acq.label, rule
    ('-2C', 'C6.52')
    """
    if acq is not None and acq.gun != gun.id:
        raise ValueError("this counter belongs to another Gun")
    if shot.ammo in ("IFE", "canister", "SMOKE"):
        rule = {"IFE": "C6.54", "SMOKE": "C6.56", "canister": "C6.5"}[shot.ammo]
        return None, rule
    ok, rule = _can_acquire(gun, shot)
    same_place = acq is not None and (
        shot.location.hex == acq.location.hex if acq.area else shot.location == acq.location
    )
    if acq is not None and same_place:
        to_area = shot.target_type == "area"
        if acq.area and not to_area and (shot.concealed or gun.mortar):
            # bracketing from an Area counter to another Target Type (C6.52): never vs a
            # concealed unit, never for a mortar. The old counter is lost; the shot may still
            # acquire its target anew if it strips the concealment (C6.57).
            if ok:
                return Acquisition(gun.id, gun.letter, 1, shot.location, shot.target), "C6.57"
            return None, "C6.52"
        same_target = acq.area or acq.target is None or acq.target == shot.target
        if not same_target and not ok:
            return None, rule
        level = min(2, acq.level + 1)  # C6.5: flip -1 to -2; never more than -2 per Gun
        new = replace(
            acq,
            level=level,
            target=shot.target,
            location=shot.location,
            area=to_area,
        )
        return new, "C6.52" if (acq.area != to_area or not same_target) else "C6.5"
    if not ok:
        return None, rule
    return (
        Acquisition(gun.id, gun.letter, 1, shot.location, shot.target, shot.target_type == "area"),
        rule,
    )


# --- losing it (C6.5): each returns the counter left, or None -------------------------------


def on_gun_left_location(
    acq: Acquisition | None, gun: Acquirer, retains_los: bool = False
) -> Acquisition | None:
    """The Gun (or its manning Infantry) leaves its Location: lost [EXC: a Stabilized Gun that
    keeps LOS to the target, C6.55].

    >>> acq = Acquisition("pak", "A", 2, Location("W6"), "t34")
    >>> on_gun_left_location(acq, Acquirer("pak", "A", 75)) is None
    True
    >>> on_gun_left_location(acq, Acquirer("pak", "A", 75, stabilized=True), True) == acq
    True
    """
    if acq is None:
        return None
    return acq if gun.stabilized and retains_los else None


def on_ca_changed(
    acq: Acquisition | None, fired_at_acquired_this_phase: bool
) -> Acquisition | None:
    """The Gun changes its CA without firing at its acquired target this phase: lost (C6.5).

    >>> acq = Acquisition("pak", "A", 1, Location("W6"), "t34")
    >>> on_ca_changed(acq, False) is None, on_ca_changed(acq, True) == acq
    (True, True)
    """
    return acq if fired_at_acquired_this_phase else None


def on_target_left_los(acq: Acquisition | None, last_in_los: Location) -> Acquisition | None:
    """The acquired unit entered a new Location out of the Gun's LOS (C6.5, C6.51): a 1/2"
    counter stays in the last in-LOS Location and applies to any Known unit there; an Area
    counter cannot track a moving unit (C6.521) and stays on its hex.

    >>> acq = Acquisition("pak", "A", 1, Location("W7"), "t34")
    >>> left = on_target_left_los(acq, last_in_los=Location("W6"))
    >>> str(left.location), left.target
    ('W6', None)
    """
    if acq is None:
        return None
    if acq.area:
        return replace(acq, target=None)
    return replace(acq, location=last_in_los, target=None)


def on_target_moved_in_los(
    acq: Acquisition | None, target: str, new: Location
) -> Acquisition | None:
    """The acquired unit moves to a new Location still in the Gun's LOS: a 1/2" counter follows
    it (C6.51); an Area counter stays on its hex and no longer tracks it (C6.521).

    >>> acq = Acquisition("pak", "A", 1, Location("W6"), "t34")
    >>> str(on_target_moved_in_los(acq, "t34", Location("V6")).location)
    'V6'
    >>> area = Acquisition("pak", "A", 1, Location("W6"), "t34", area=True)
    >>> moved = on_target_moved_in_los(area, "t34", Location("V6"))
    >>> str(moved.location), moved.target
    ('W6', None)
    """
    if acq is None or acq.target != target:
        return acq
    if acq.area:
        return replace(acq, target=None)
    return replace(acq, location=new)
