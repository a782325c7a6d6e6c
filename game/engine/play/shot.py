"""One shot, before the dice: who may fire at whom and why not (002, C6.17, C7.42, HX-2, HX-8),
the Target Facing (RD-8), the Defensive First Fire budget (C6.17), and the rules library's
:class:`Attack` built from the state (every To Hit case of C6 fed from the board and the
movement tracking)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from functools import lru_cache
from operator import attrgetter

from game.board.los import los
from game.engine.errors import IllegalAction
from game.engine.state import GameState, Track, UnitState
from game.rules import acquisition as acq_rules
from game.rules.attack import Attack, plan
from game.rules.dff import DffBudget, DffOption, dff_budget
from game.rules.drm import RuleError
from game.rules.facing import asl_aspect, chart_aspect, facing_offset
from game.rules.odds import Branch, Odds, blend, odds
from game.rules.tables import tables
from game.rules.to_hit import Situation, to_hit_number
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
    target_name: str | None = None,
) -> str | None:
    """Why ``firer`` may not fire at ``target`` now (None: it may). Cheap checks first.
    ``target_name``: the target as the firer's side may name it ("a concealed unit in E3")."""
    name = target_name or target.name
    refused = firer_problem(state, firer)
    if refused:
        return refused
    if not target.active or target.side == firer.side:
        return f"{name} is not an enemy unit in play"
    if target.type.category == "infantry" and not target.concealed:
        return "AT fire has no effect on Infantry (002)"  # a "?" may be fired at (HX-13)
    if not state.can_see(firer, target):
        if not explain:
            return "no LOS (RD-9)"
        why = los(state.board, firer.hex, target.hex)  # the scalar thread says which hex and why
        return f"no LOS from {firer.label} to {target.label}: {why.reason} (RD-9)"
    if (not firer.type.turret and firer.type.gun) and facing_offset(
        firer.hex, firer.facing, target.hex
    ) > COVERED_ARC_HALF:
        return (
            f"{name} is outside {firer.name}'s Covered Arc (the 60-degree wedge of its "
            "front hexside, HX-2): turn first"
        )
    if dff and not dff_budget_for(state, firer, target).can_fire:
        return f"no Defensive First Fire left at {name} in {target.label} (C6.17)"
    if firer.type.gun and ammo is not None and ammo not in firer.type.ammo:
        return f"{firer.name} carries {', '.join(firer.type.ammo)}, not {ammo}"
    if ammo in firer.ammo_out:
        return f"{firer.name} is out of {ammo} for the rest of the game (RD-17)"
    if state.depletion(firer, ammo) == 0:
        return f"{firer.name} has no {ammo}: not yet issued in {state.setup.year} (RD-17)"
    if firer.type.sw and ammo is not None:
        return f"{firer.name}'s {firer.type.sw} fires its own ammunition"
    try:  # the round fired as declared, and as AP if the special one is out (RD-17)
        reach = sw_range(firer)
        if reach is not None:  # plan()'s first refusal of an SW, asked before building it
            to_hit_number("sw", firer.hex.distance(target.hex), reach)
        attack = _as_planned(state, firer, target, ammo, dff)
        plan(attack)
        fallback = fallback_ammo(state, firer, ammo)
        if fallback != ammo:
            plan(_as_planned(state, firer, target, fallback, dff))
    except RuleError as error:
        return str(error)
    return None


def _as_planned(
    state: GameState, firer: UnitState, target: UnitState, ammo: str | None, dff: bool
) -> Attack:
    """The attack :func:`fire_problem` asks the rules library about: ``firer``'s shot at
    ``target`` with ``ammo`` (a die of 1 for the chart's 90-degree line, RD-8), a "?" as the
    firer's side knows it (RD-20: refused only as a shot at any unit it may be would be). While
    the state is held still (a list of legal actions), built once a firer and target and each
    ammunition set on it: nothing else of the attack depends on the ammunition."""
    asked = state.asked
    key = ("shot", firer.id, target.id, dff)
    base = asked.get(key) if asked is not None else None
    if base is None:
        base = build_attack(state, firer, target, ammo, dff=dff, chart_die=1)
        if target.concealed:
            base = as_unknown(base)
        if asked is not None:
            asked[key] = base
    fired = ammo if not firer.type.sw else None  # build_attack's: an SW fires its own
    return base if base.ammo == fired else with_ammo(base, fired)


_ATTACK_FIELDS = tuple(f.name for f in fields(Attack))
_AMMO = _ATTACK_FIELDS.index("ammo")
_attack_values = attrgetter(*_ATTACK_FIELDS)
if not all(f.init for f in fields(Attack)):  # with_ammo passes every field, in order
    raise RuntimeError("an Attack field is not an __init__ argument")


def with_ammo(attack: Attack, ammo: str | None) -> Attack:
    """``replace(attack, ammo=ammo)``, read in one call (``dataclasses.replace`` reads each
    field's declaration again: a third of a list of shots' time)."""
    values = list(_attack_values(attack))
    values[_AMMO] = ammo
    return Attack(*values)


def as_unknown(attack: Attack) -> Attack:
    """A shot at a "?" as the firer's side knows it (RD-11, RD-20): a target of unknown type,
    size and Motion, so only the To Hit may refuse it (a Gun-like target: no To Kill number is
    asked, Case D's NA included); the real target decides the outcome. Its Case J is a
    vehicle's for the moves seen: whether it is a vehicle is not known (C6.1)."""
    unseen = replace(
        attack.situation, size=0, motion=False, was_motion=False, infantry_target=False
    )
    return replace(attack, target="gun", situation=unseen)


def firer_problem(state: GameState, firer: UnitState) -> str | None:
    """Why ``firer`` may fire at nothing now, whatever the target (None: it may fire at some
    target): the first checks of :func:`fire_problem`, which :meth:`Game.legal_actions`
    asks once a firer instead of once a shot."""
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
    if state.phase == "advancing_fire" and firer.fired_prep:
        return (
            f"{firer.name} fired in the Prep Fire Phase and may not fire again in the "
            "Advancing Fire Phase (RD-12)"
        )
    if state.phase == "advancing_fire" and firer.shots_this_phase:
        return f"{firer.name} has fired this phase (no Multiple ROF in the AFPh, RD-4)"
    return None


def sw_range(firer: UnitState) -> int | None:
    """The range an Infantry AT support weapon fires within (002; None: not an SW, or one
    without a printed range): the check :func:`game.rules.to_hit.to_hit_number` makes."""
    if not firer.type.sw:
        return None
    known = tables().sw.get(firer.type.sw)
    return known.range if known is not None else None


def fallback_ammo(state: GameState, firer: UnitState, ammo: str | None) -> str | None:
    """RD-17: the ammunition a shot is fired with when its special round is not there."""
    return "AP" if state.depletion(firer, ammo) is not None else ammo


def on_the_90_degree_line(state: GameState, firer: UnitState, target: UnitState) -> bool:
    """RD-8: under the chart, an AFV target with the firer exactly on its 90-degree line (a
    die decides front or rear)."""
    if state.setup.to_kill != "chart" or not target.type.armored:
        return False
    return abs(aspects(firer, target)[2] - 90.0) < 1e-9


Leaf = tuple[float, tuple[tuple[str, str], ...], Attack]
"""One way a shot may turn out before its To Hit DR: (probability, (why, rule) of each die
that led there, the attack it then is)."""


def shot_leaves(
    state: GameState,
    firer: UnitState,
    target: UnitState,
    ammo: str | None,
    dff: bool,
    claim: float | None = None,
    known_bore_sight: bool = True,
) -> list[Leaf]:
    """Every attack the shot may turn out to be with its probability (RD-16): the special
    ammunition there or out (RD-17: one die against the depletion number), then, under the
    chart with the firer exactly on the target's 90-degree line, front or rear (RD-8: 1-3
    front, 4-6 rear). One leaf when no die decides."""
    return [
        (w, whys, build_attack(state, firer, target, a, dff, die, claim, known_bore_sight))
        for w, whys, a, die in leaf_choices(state, firer, target, ammo)
    ]


Choice = tuple[float, tuple[tuple[str, str], ...], str | None, int | None]
"""(probability, (why, rule) of each die, the ammunition fired, the RD-8 die or None)."""


def leaf_choices(
    state: GameState, firer: UnitState, target: UnitState, ammo: str | None
) -> list[Choice]:
    """The dice before the To Hit DR of :func:`shot_leaves`, without building the attacks."""
    n = state.depletion(firer, ammo)
    rounds: list[tuple[float, tuple[tuple[str, str], ...], str | None]] = [(1.0, (), ammo)]
    if n is not None and n < 6:
        there = f"{ammo} there (dr <= {n})"
        if state.setup.to_kill == "chart":  # (an ASL player's trial: offered for nothing)
            there += ": the chart reads the firer's ATFP alone, no better than AP (002)"
        rounds = [
            (n / 6, ((there, "RD-17"),), ammo),
            ((6 - n) / 6, ((f"out of {ammo} (dr > {n}): fired as AP", "RD-17"),), "AP"),
        ]
    dice: list[tuple[float, tuple[tuple[str, str], ...], int | None]] = [(1.0, (), None)]
    if on_the_90_degree_line(state, firer, target):
        dice = [(0.5, (("dr 1-3: front", "RD-8"),), 1), (0.5, (("dr 4-6: rear", "RD-8"),), 4)]
    return [(w1 * w2, why1 + why2, a, die) for w1, why1, a in rounds for w2, why2, die in dice]


def blend_leaves(leaves: list[Leaf], odds_of: Callable[[Attack], Odds]) -> Odds:
    """The exact odds of a shot from its leaves (:func:`shot_leaves`, RD-16)."""
    if len(leaves) == 1:
        return odds_of(leaves[0][2])
    return blend(
        [
            Branch(w, "; ".join(why for why, _ in whys), ", ".join(r for _, r in whys), odds_of(a))
            for w, whys, a in leaves
        ]
    )


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
    known_bore_sight: bool = True,
) -> Attack:
    """The rules library's Attack for ``firer`` shooting at ``target`` now (C6 cases fed from
    the board and the movement tracking; ``claim``: the MP a Defensive First Fire shot claims,
    C6.17; ``chart_die``: the RD-8 die for a firer exactly on the chart's 90-degree line;
    ``known_bore_sight``: False when the odds are shown to the other side, for whom the firer's
    Bore Sighted Location is secret, C6.42)."""
    kind: FirerKind = "sw" if firer.type.sw else ("gun" if firer.type.category == "gun" else "afv")
    hull_aspect, turret_aspect, hull_t = aspects(firer, target)
    target_kind: TargetKind = target.type.category
    armor = None
    if state.setup.to_kill == "chart" and target.type.armored:
        side = chart_aspect(hull_t, chart_die)
        armor = target.type.chart_front if side == "front" else target.type.chart_rear
    dff_mp, exempt = None, False
    if dff and (target.entered_new_hex or target.motion or target.was_motion):
        # C6.1: Case J (and J1 / J2, which add to it) only at a vehicle that entered a new hex
        # or is / was in Motion this player turn; a vehicle that only pivots gets none
        shot = dff_shot(state, firer, target, claim)
        if shot is not None:
            track = state.track.get((target.id, firer.id), Track())
            dff_mp, exempt = shot.mp_in_los, track.exempt
    acquired = 0
    if firer.acquisition is not None:
        drm, _ = acq_rules.applies(firer.acquisition, acq_gun(state, firer), acq_shot(target))
        acquired = -drm.value if drm else 0
    bore = (
        known_bore_sight
        and firer.bore_sight is not None
        and firer.bore_sight == target.label
        and kind != "sw"
    )
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
        infantry_target=target.type.category == "infantry",  # a "?" that was Infantry: no J
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
        advancing_fire=state.phase == "advancing_fire",
        elevation_advantage=elevation_advantage(state, firer, target),
        situation=sit,
    )


def elevation_advantage(state: GameState, firer: UnitState, target: UnitState) -> bool:
    """Case B (C7.22): the firer's hex is at least one level higher than the target's."""
    board = state.board
    return board.level_at(firer.hex) >= board.level_at(target.hex) + 1


def acq_gun(state: GameState, firer: UnitState) -> acq_rules.Acquirer:
    letter = state.letters.get(firer.id, "A")
    return _acquirer(firer.id, letter, firer.type.caliber, bool(firer.type.sw))


def acq_shot(target: UnitState, hit: bool = False) -> acq_rules.Shot:
    return _acq_shot(target.id, target.label, target.concealed, hit and target.concealed)


@lru_cache(maxsize=4096)
def _acquirer(uid: str, letter: str, caliber: float, lat_weapon: bool) -> acq_rules.Acquirer:
    """The firing weapon as acquisition sees it (a value: made once, every shot asks it)."""
    return acq_rules.Acquirer(uid, letter, caliber, lat_weapon=lat_weapon)


@lru_cache(maxsize=4096)
def _acq_shot(uid: str, hex_label: str, concealed: bool, lost: bool) -> acq_rules.Shot:
    """A shot at ``uid`` in ``hex_label`` as acquisition sees it (a value: made once)."""
    return acq_rules.Shot(
        uid, acq_rules.Location(hex_label), concealed=concealed, concealment_lost=lost
    )


def ammo_choices(state: GameState, u: UnitState) -> list[str | None]:
    """The ammunition a unit may choose: a Gun's types it has (RD-17: not one it is out of,
    nor one not yet issued in the scenario's year); a SW fires its own (None)."""
    if not u.type.gun:
        return [None]
    return [a for a in u.type.ammo if a not in u.ammo_out and state.depletion(u, a) != 0]


def dff_budget_for(state: GameState, firer: UnitState, target: UnitState) -> DffBudget:
    """C6.17: what Defensive First Fire ``firer`` has left at ``target`` in its Location."""
    track = state.track.get((target.id, firer.id), Track())
    facing = state.target_facing(target)
    marks = state.marks.get((firer.id, target.id, target.label, facing), ())
    return dff_budget(state.loc_mp.get(facing, 0.0), track.los_mp, marks, track.exempt)


def preview_fire(
    state: GameState,
    firer_id: str,
    target_id: str,
    ammo: str | None = None,
    claim: float | None = None,
) -> Odds:
    """The exact odds of ``firer`` shooting at ``target`` now, built exactly as the shot
    would be (the odds panel; ``claim``: the MP a Defensive First Fire shot claims, C6.17);
    IllegalAction with the reason when the shot is not allowed. No die is drawn and nothing
    changes."""
    firer, target = state.unit(firer_id), state.unit(target_id)
    dff = (
        bool(state.dff_pending) and firer_id in state.dff_pending and state.moving_unit == target_id
    )
    am = ammo if ammo is not None else (firer.type.ammo[0] if firer.type.gun else None)
    problem = fire_problem(state, firer, target, am, dff=dff, explain=True)
    if problem:
        raise IllegalAction("cannot_fire", problem)
    return blend_leaves(shot_leaves(state, firer, target, am, dff, claim), odds)
