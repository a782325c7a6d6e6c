"""One shot, before the dice: who may fire at whom and why not (002, C6.17, C7.42, HX-2, HX-8),
the Target Facing (RD-8), the Defensive First Fire budget (C6.17), and the rules library's
:class:`Attack` built from the state (every To Hit case of C6 fed from the board and the
movement tracking)."""

from __future__ import annotations

from game.board.los import los
from game.engine.errors import IllegalAction
from game.engine.state import GameState, Track, UnitState
from game.rules import acquisition as acq_rules
from game.rules.attack import Attack, plan
from game.rules.dff import DffBudget, DffOption, dff_budget
from game.rules.drm import RuleError
from game.rules.facing import asl_aspect, chart_aspect, facing_offset
from game.rules.odds import Odds, odds
from game.rules.to_hit import Situation
from game.rules.vocabulary import Aspect, FirerKind, TargetKind

COVERED_ARC_HALF = 30.0
"""HX-2: a Gun or a vehicle without a turret fires only into its Covered Arc, the 60-degree
wedge between the hexspines of its front hexside: at most 30 degrees either side of its facing.
A target exactly on a hexspine is inside (the boundary belongs to the arc)."""


def fire_problem(
    state: GameState,
    firer: UnitState,
    target: UnitState,
    ammo: str | None,
    dff: bool = False,
    explain: bool = False,
) -> str | None:
    """Why ``firer`` may not fire at ``target`` now (None: it may). Cheap checks first."""
    if not firer.active:
        return f"{firer.name} is no longer in play"
    if firer.shock != "none":
        return f"{firer.name} is shocked and may not fire (C7.42)"
    if not firer.type.has_at_weapon:
        return f"{firer.name} has no AT weapon (002)"
    if firer.fired:
        return f"{firer.name} has fired this phase"
    if state.phase == "defensive_fire" and firer.first_fired:
        return (
            f"{firer.name} Defensive First Fired this player turn "
            "and does not fire again in the Defensive Fire Phase (HX-8)"
        )
    if state.phase == "advancing_fire" and firer.shots_this_phase:
        return f"{firer.name} has fired this phase (no Multiple ROF in the AFPh, RD-4)"
    if not target.active or target.side == firer.side:
        return f"{target.name} is not an enemy unit in play"
    if target.type.category == "infantry":
        return "AT fire has no effect on Infantry (002)"
    if not state.can_see(firer, target):
        if not explain:
            return "no LOS (RD-9)"
        why = los(state.board, firer.hex, target.hex)  # the scalar thread says which hex and why
        return f"no LOS from {firer.label} to {target.label}: {why.reason} (RD-9)"
    if (not firer.type.turret and firer.type.gun) and facing_offset(
        firer.hex, firer.facing, target.hex
    ) > COVERED_ARC_HALF:
        return (
            f"{target.name} is outside {firer.name}'s Covered Arc (the 60-degree wedge of its "
            "front hexside, HX-2): turn first"
        )
    if dff and not dff_budget_for(state, firer, target).can_fire:
        return f"no Defensive First Fire left at {target.name} in {target.label} (C6.17)"
    if firer.type.gun and ammo is not None and ammo not in firer.type.ammo:
        return f"{firer.name} carries {', '.join(firer.type.ammo)}, not {ammo}"
    if firer.type.sw and ammo is not None:
        return f"{firer.name}'s {firer.type.sw} fires its own ammunition"
    try:
        plan(build_attack(state, firer, target, ammo, dff=dff, chart_die=1))
    except RuleError as error:
        return str(error)
    return None


def aspects(firer: UnitState, target: UnitState) -> tuple[Aspect, Aspect, float]:
    """RD-8: the hull's and the turret's Target Facing seen from ``firer``, and the hull angle."""
    hull = facing_offset(target.hex, target.facing, firer.hex)
    turret = facing_offset(target.hex, target.turret, firer.hex)
    return asl_aspect(hull), asl_aspect(turret), hull


def dff_shot(
    state: GameState, firer: UnitState, target: UnitState, claim: float | None
) -> DffOption | None:
    """The Defensive First Fire shot ``firer`` takes at ``target``: claiming ``claim`` MP of the
    Location, or by default the fewest that give the smallest Case J DRM (C6.17)."""
    b = dff_budget_for(state, firer, target)
    return b.best if claim is None else b.option_at(claim)


def build_attack(
    state: GameState,
    firer: UnitState,
    target: UnitState,
    ammo: str | None,
    dff: bool,
    chart_die: int | None,
    claim: float | None = None,
) -> Attack:
    """The rules library's Attack for ``firer`` shooting at ``target`` now (C6 cases fed from
    the board and the movement tracking; ``claim``: the MP a Defensive First Fire shot claims,
    C6.17; ``chart_die``: the RD-8 die for a firer exactly on the chart's 90-degree line)."""
    kind: FirerKind = "sw" if firer.type.sw else ("gun" if firer.type.category == "gun" else "afv")
    hull_aspect, turret_aspect, hull_t = aspects(firer, target)
    target_kind: TargetKind = target.type.category
    armor = None
    if state.setup.to_kill == "chart" and target.type.armored:
        side = chart_aspect(hull_t, chart_die)
        armor = target.type.chart_front if side == "front" else target.type.chart_rear
    dff_mp, exempt = None, False
    if dff:
        shot = dff_shot(state, firer, target, claim)
        if shot is not None:
            track = state.track.get((target.id, firer.id), Track())
            dff_mp, exempt = shot.mp_in_los, track.exempt
    acquired = 0
    if firer.acquisition is not None:
        drm, _ = acq_rules.applies(firer.acquisition, acq_gun(state, firer), acq_shot(target))
        acquired = -drm.value if drm else 0
    bore = firer.bore_sight is not None and firer.bore_sight == target.label and kind != "sw"
    sit = Situation(
        moving=target.entered_new_hex and not target.moving,
        motion=target.motion,
        was_motion=target.was_motion and not target.motion,
        non_stopped=target.moving,
        dff_mp=dff_mp,
        dff_exempt=exempt,
        concealed=target.concealed,
        acquired=acquired if kind != "sw" else 0,
        bore_sighted=bore,
        size=target.type.size,
        tem=int(state.board.terrain_at(target.hex).tem),
        hindrance=state.hindrance(firer, target),
        firer_non_stopped=firer.moving or firer.motion,
    )
    sw = firer.type.sw
    return Attack(
        rules=state.setup.to_kill,
        firer=kind,
        gun=firer.type.gun,
        weapon=sw,
        nationality=firer.type.nationality,
        ammo=ammo if not sw else None,
        range=firer.hex.distance(target.hex),
        aspect=hull_aspect,
        turret_aspect=turret_aspect if target.type.turret else None,
        target=target_kind,
        af_hull=target.type.af("hull", hull_aspect),
        af_turret=target.type.af("turret", turret_aspect if target.type.turret else hull_aspect),
        worst_af=target.type.worst_af,
        open_topped=target.type.open_topped,
        ce=target.ce,
        immobilized=target.immobilized,
        red_cs=target.type.red_cs,
        morale=target.type.morale,
        atfp=firer.type.atfp,
        armor=armor,
        rof=0 if sw else firer.type.rof,
        phase_allows_rof=state.phase != "advancing_fire",
        situation=sit,
    )


def acq_gun(state: GameState, firer: UnitState) -> acq_rules.Acquirer:
    letter = state.letters.get(firer.id, "A")
    return acq_rules.Acquirer(firer.id, letter, firer.type.caliber, lat_weapon=bool(firer.type.sw))


def acq_shot(target: UnitState, hit: bool = False) -> acq_rules.Shot:
    return acq_rules.Shot(
        target.id,
        acq_rules.Location(target.label),
        concealed=target.concealed,
        concealment_lost=hit and target.concealed,
    )


def ammo_choices(u: UnitState) -> list[str | None]:
    """The ammunition a unit may choose: a Gun's types; a SW fires its own (None)."""
    return list(u.type.ammo) if u.type.gun else [None]


def dff_budget_for(state: GameState, firer: UnitState, target: UnitState) -> DffBudget:
    """C6.17: what Defensive First Fire ``firer`` has left at ``target`` in its Location."""
    track = state.track.get((target.id, firer.id), Track())
    marks = state.marks.get((firer.id, target.id, target.label, target.facing), ())
    return dff_budget(state.loc_mp, track.los_mp, marks, track.exempt)


def preview_fire(state: GameState, firer_id: str, target_id: str, ammo: str | None = None) -> Odds:
    """The exact odds of ``firer`` shooting at ``target`` now, built exactly as the shot
    would be (the odds panel); IllegalAction with the reason when the shot is not allowed.
    No die is drawn and nothing changes."""
    firer, target = state.unit(firer_id), state.unit(target_id)
    dff = (
        bool(state.dff_pending) and firer_id in state.dff_pending and state.moving_unit == target_id
    )
    am = ammo if ammo is not None else (firer.type.ammo[0] if firer.type.gun else None)
    problem = fire_problem(state, firer, target, am, dff=dff, explain=True)
    if problem:
        raise IllegalAction("cannot_fire", problem)
    hull_t = aspects(firer, target)[2]
    die = None
    if state.setup.to_kill == "chart" and target.type.armored and abs(hull_t - 90.0) < 1e-9:
        die = 1  # RD-8: a die decides; the preview shows the front, the better for the target
    return odds(build_attack(state, firer, target, am, dff=dff, chart_die=die))
