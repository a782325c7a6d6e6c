"""Fire (002, C6, C7): the Defensive First Fire window (C6.17), firing, and what a shot does,
step by step as the rules' procedure runs (its event's data and text: :mod:`.firelog`)."""

from __future__ import annotations

from game.board.hexes import Hex, direction_to
from game.engine.actions import Fire, Pass
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState, UnitState
from game.rules import acquisition as acq_rules
from game.rules.attack import Attack, AttackResult, plan, resolve
from game.rules.facing import chart_aspect
from game.rules.to_hit import case_j

from . import Commit
from .firelog import fire_event, unseen_fire_event
from .outcomes import REMOVAL, apply_outcome
from .shot import (
    acq_gun,
    acq_shot,
    as_unknown,
    aspects,
    build_attack,
    dff_budget_for,
    dff_shot,
    fire_problem,
    on_the_90_degree_line,
)
from .victory import check_victory


def offer_dff(state: GameState, mover: UnitState) -> list[Event]:
    """Open the Defensive First Fire window (C6.17, HX-5) for the units that may fire at the
    moving vehicle or "?" ``mover`` now (a "?" whatever it is, RD-20); none: no window."""
    if not (mover.type.is_vehicle or mover.concealed) or not mover.active:
        state.dff_pending = ()
        return []
    able = []
    index, sees = state.board.index, state.visibility.sees
    here = index(mover.hex)
    for enemy in state.potential_firers(mover):
        if not sees(index(enemy.hex), here):
            continue  # fire_problem's refusal too (no LOS, RD-9), asked first: the cheapest
        if fire_problem(state, enemy, mover, None, dff=True) is None:
            able.append(enemy.id)
    state.dff_pending = tuple(sorted(able))
    if not able:
        return []
    names = ", ".join(state.units[i].name for i in state.dff_pending)
    data = {"firers": list(state.dff_pending)}

    def chance(at: str) -> Event:
        text = f"{state.non_phasing} may Defensive First Fire at {at} in {mover.label} ({names})"
        return Event("dff_chance", text + " or pass (C6.17)", ("C6.17",), data=data)

    event = chance(mover.name)
    if mover.concealed:  # RD-11: the defender sees a "?"
        event = event.hidden_from(state.non_phasing, chance("a concealed unit"))
    return [event.hidden_from(state.phasing)]  # the defender's units that could fire: its own


def pass_dff(state: GameState, action: Pass) -> Commit:
    """The defending side declines its Defensive First Fire chance (C6.17)."""

    def commit() -> list[Event]:
        state.dff_pending = ()
        mover = state.moving_target()
        if mover and not mover.moving:
            state.moving_unit = None  # its move had ended; the leftover MP are answered
        # the mover's side is not told that a chance was passed (which units could fire is
        # the defender's own)
        return [Event("pass", f"{state.non_phasing} passes").hidden_from(state.phasing)]

    return commit


def fire(state: GameState, action: Fire) -> Commit:
    firer = state.unit(action.unit)
    target = state.unit(action.target)
    dff = bool(state.dff_pending)
    if dff:
        if action.unit not in state.dff_pending:
            raise IllegalAction(
                "not_dff_firer", f"{firer.name} has no Defensive First Fire chance now"
            )
        if state.moving_unit != target.id:
            raise IllegalAction("dff_target", "Defensive First Fire is at the moving unit (C6.17)")
    elif firer.side != state.to_act:
        raise IllegalAction("not_your_unit", f"{firer.name} is not {state.to_act}'s to fire now")
    ammo = (
        action.ammo if action.ammo is not None else (firer.type.ammo[0] if firer.type.gun else None)
    )
    seen_as = f"a concealed unit in {target.label}" if target.concealed else None  # RD-11
    problem = fire_problem(state, firer, target, ammo, dff=dff, target_name=seen_as)
    if problem:

        def why() -> str:  # spelt out (the LOS thread) only when someone reads it
            full = fire_problem(state, firer, target, ammo, dff, explain=True, target_name=seen_as)
            return full or problem

        raise IllegalAction("cannot_fire", why)
    if action.mp is not None:
        if not dff:
            raise IllegalAction("no_claim", "only Defensive First Fire claims MP (C6.17)")
        if dff_shot(state, firer, target, action.mp) is None:
            b = dff_budget_for(state, firer, target)
            lo, hi = b.options[0].mark, b.options[-1].mark
            raise IllegalAction(
                "bad_claim", f"the shot may claim {lo:g} to {hi:g} MP of {target.label} (C6.17)"
            )

    def commit() -> list[Event]:
        return resolve_fire(state, firer, target, ammo, dff, action.mp)

    return commit


def resolve_fire(
    state: GameState,
    firer: UnitState,
    target: UnitState,
    ammo: str | None,
    dff: bool,
    claim: float | None = None,
) -> list[Event]:
    """Roll the shot with the game's dice and apply everything that follows, in the order of
    the rules' procedure (docs/rules.md "One AT attack, start to end"): the special round's
    availability (RD-17), the 90-degree line's die (RD-8), the attack itself (C6, C7), then
    the firer (RD-11, RD-7, RD-4, RD-12, C6.17), its acquisition (C6.5, HX-14), the target
    (HX-9, the outcome, RD-13) and the Defensive First Fire window (C6.17)."""
    events: list[Event] = []
    ammo = _special_round(state, firer, ammo, events)
    die = _ninety_degree_die(state, firer, target, events)
    attack = build_attack(state, firer, target, ammo, dff=dff, chart_die=die, claim=claim)
    p = plan(attack)
    mark = _dff_mark(state, firer, target, claim) if dff else None
    result = resolve(attack, state.dice)
    unseen = target.concealed and not result.hit  # RD-11: a miss reveals nothing of the "?"
    event = fire_event(firer, target, attack, p, result, mark)
    if unseen:
        events, event = _unseen_shot(state, target, attack, events, event)
    events.append(event)
    events.extend(_firer_after_shot(state, firer, target, attack, result, dff, mark))
    if firer.type.gun:
        events.extend(_acquisition_after_shot(state, firer, target, result, unseen))
    events.extend(_target_after_shot(state, target, result))
    if dff and not state.over:
        events.extend(_dff_window_after_shot(state))
    return events


def _special_round(
    state: GameState, firer: UnitState, ammo: str | None, events: list[Event]
) -> str | None:
    """RD-17: a special round (APCR / APDS) is there on a dr <= its depletion number; if not,
    the firer is out of it for the rest of the game and fires AP. The round fired (the event
    of the dr added to ``events``)."""
    n = state.depletion(firer, ammo)
    if n is None:
        return ammo
    d = state.dice.die()
    there = d <= n
    if not there:
        firer.ammo_out = (*firer.ammo_out, str(ammo))
    verdict = (
        f"<= {n}: fires {ammo} (RD-17)"
        if there
        else f"> {n}: out of {ammo} for the rest of the game; fires AP (RD-17)"
    )
    events.append(
        Event(
            "ammo",
            f"{firer.name} {ammo} availability dr {d} {verdict}",
            ("RD-17",),
            (d,),
            data={"unit": firer.id, "ammo": ammo, "number": n, "there": there},
        )
    )
    return ammo if there else "AP"


def _ninety_degree_die(
    state: GameState, firer: UnitState, target: UnitState, events: list[Event]
) -> int | None:
    """RD-8: under the chart, a firer exactly on the AFV target's 90-degree line rolls a dr for
    the aspect (1-3 front, 4-6 rear). The die (None: no die; its event added to ``events``)."""
    if not on_the_90_degree_line(state, firer, target):
        return None
    _, _, hull_t = aspects(firer, target)
    die = state.dice.die()
    side = chart_aspect(hull_t, die)
    events.append(
        Event(
            "facing",
            f"{firer.name} is exactly on {target.name}'s 90-degree line: dr {die}: {side} (RD-8)",
            ("RD-8",),
            (die,),
            data={"firer": firer.id, "target": target.id, "aspect": side},
        )
    )
    return die


def _dff_mark(state: GameState, firer: UnitState, target: UnitState, claim: float | None) -> float:
    """C6.17: the MP of the target's Location a Defensive First Fire shot answers (its claim,
    or the fewest that give the smallest Case J DRM)."""
    shot = dff_shot(state, firer, target, claim)
    return float(shot.mark if shot else state.loc_mp.get(state.target_facing(target), 0.0))


def _unseen_shot(
    state: GameState, target: UnitState, attack: Attack, before: list[Event], event: Event
) -> tuple[list[Event], Event]:
    """RD-11: a missed shot at a "?" as the firer's side reads it, and the dice events before
    it (the 90-degree line's dr stays the target's side's: which armor aspect it gave would tell
    an AFV from the rest, RD-8). Its Motion counter lies under the "?"; a move of it is seen (a
    counter moves); whether it is a vehicle is not known, so its Case J is a vehicle's (C6.1)."""
    firers = state.setup.other(target.side)
    shown_j = [d.to_dict() for d in case_j(as_unknown(attack).situation)[0]]
    hidden = event.hidden_from(firers, unseen_fire_event(event, target.label, shown_j))
    return [e.hidden_from(firers) if e.kind == "facing" else e for e in before], hidden


def _firer_after_shot(
    state: GameState,
    firer: UnitState,
    target: UnitState,
    attack: Attack,
    result: AttackResult,
    dff: bool,
    mark: float | None,
) -> list[Event]:
    """The firer after its shot: it loses its concealment (RD-11), its turret turns to the
    target (RD-7), it keeps or spends its Multiple ROF (RD-4; none in the AFPh), a Prep Fire
    shot holds it still (RD-12), a Defensive First Fire shot is marked (C6.17, HX-8)."""
    events: list[Event] = []
    if firer.concealed:
        firer.concealed = False
        events.append(
            Event(
                "concealment",
                f"{firer.name} fired and loses concealment (RD-11)",
                ("RD-11",),
                data={"unit": firer.id, "concealed": False},
            )
        )
    if firer.type.turret:
        firer.turret = nearest_direction(firer.hex, target.hex)
    firer.shots_this_phase += 1
    firer.fired = not result.rof_kept or state.phase == "advancing_fire"
    if result.rof_kept and not firer.fired:
        colored = result.th_dr.colored if result.th_dr else 0
        events.append(
            Event(
                "rof",
                f"{firer.name} keeps its Multiple ROF (colored die {colored} "
                f"<= ROF {attack.rof}; RD-4)",
                ("RD-4",),
                data={"unit": firer.id, "rof": attack.rof},
            )
        )
    if state.phase == "prep_fire":
        firer.fired_prep = True
    if dff:
        firer.first_fired = True
        key = (firer.id, target.id, target.label, state.target_facing(target))
        state.marks[key] = (*state.marks.get(key, ()), mark or 0.0)
    return events


def _acquisition_after_shot(
    state: GameState, firer: UnitState, target: UnitState, result: AttackResult, unseen: bool
) -> list[Event]:
    """A Gun's Acquired counter after its shot (C6.5): placed or raised on the target, none on
    a unit the shot removes (HX-14); a "?" missed stays one to the firer's side (RD-11)."""
    before = firer.acquisition
    firer.acquisition, _ = acq_rules.after_shot(
        firer.acquisition, acq_gun(state, firer), acq_shot(target, result.hit)
    )
    firer.fired_at_acquired = (
        firer.acquisition is not None and firer.acquisition.target == target.id
    )
    removes = result.outcome in REMOVAL  # HX-14: no counter on a unit the shot removes
    if removes and (before is None or before.target != target.id):
        firer.acquisition = None  # never placed (one it had on the target goes with it)
    if not firer.acquisition or firer.acquisition == before or removes:
        return []
    placed = Event(
        "acquisition",
        f"{firer.name} places {firer.acquisition.label} on {target.name} (C6.5)",
        ("C6.5",),
        data={"unit": firer.id, "target": target.id, "level": firer.acquisition.level},
    )
    if unseen:  # the "?" stays one to the firer's side (RD-11)
        placed = placed.hidden_from(
            state.setup.other(target.side),
            placed._replace(
                text=f"{firer.name} places {firer.acquisition.label} on the concealed "
                f"unit in {target.label} (C6.5)",
                data={**placed.data, "target": None, "target_hex": target.label},
            ),
        )
    return [placed]


def _target_after_shot(state: GameState, target: UnitState, result: AttackResult) -> list[Event]:
    """The target after the shot: a hit reveals a "?" (HX-9), then the outcome (C7, 002) and
    the victory conditions it may meet (RD-13)."""
    if result.hit and target.concealed:
        target.concealed = False  # HX-9
    return [*apply_outcome(state, target, result.outcome), *check_victory(state)]


def _dff_window_after_shot(state: GameState) -> list[Event]:
    """C6.17: after a Defensive First Fire shot the window stays open for the units that may
    still fire at the moving unit; when none may and its move had ended, it is over."""
    mover = state.moving_target()
    if mover is None or not mover.active or not (mover.moving or state.dff_pending):
        state.dff_pending = ()
        return []
    events = offer_dff(state, mover)
    if not state.dff_pending and not mover.moving:
        state.moving_unit = None
    return events


def nearest_direction(a: Hex, b: Hex) -> int:
    """RD-7: the hexside a turret turns to, to face from ``a`` toward ``b``."""
    angle = direction_to(a, b)
    return min(range(6), key=lambda d: abs(((angle - (60 * d - 30)) + 180) % 360 - 180))
