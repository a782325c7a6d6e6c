"""Fire (002, C6, C7): the Defensive First Fire window (C6.17), firing, and the fire event,
which carries the To Hit DRM, the dice, the To Kill steps and the outcome as data (its text is
made from that data)."""

from __future__ import annotations

from game.board.hexes import Hex, direction_to
from game.engine.actions import Fire, Pass
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState, UnitState
from game.rules import acquisition as acq_rules
from game.rules.attack import Attack, AttackResult, Plan, plan, resolve
from game.rules.facing import chart_aspect
from game.rules.to_hit import case_j
from game.rules.words import outcome_words

from . import Commit
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
    """Roll the shot with the game's dice and apply everything that follows: the firer's
    concealment (RD-11), turret (RD-7), ROF (RD-4), Defensive First Fire marks (C6.17),
    acquisition (C6.5), the target's concealment (HX-9) and the outcome."""
    events: list[Event] = []
    n = state.depletion(firer, ammo)
    if n is not None:  # RD-17: is the special round there?
        d = state.dice.die()
        there = d <= n
        if not there:
            firer.ammo_out = (*firer.ammo_out, str(ammo))
        events.append(
            Event(
                "ammo",
                f"{firer.name} {ammo} availability dr {d} "
                + (
                    f"<= {n}: fires {ammo} (RD-17)"
                    if there
                    else f"> {n}: out of {ammo} for the rest of the game; fires AP (RD-17)"
                ),
                ("RD-17",),
                (d,),
                data={"unit": firer.id, "ammo": ammo, "number": n, "there": there},
            )
        )
        ammo = ammo if there else "AP"
    die = None
    _, _, hull_t = aspects(firer, target)
    if on_the_90_degree_line(state, firer, target):
        die = state.dice.die()
        side = chart_aspect(hull_t, die)
        events.append(
            Event(
                "facing",
                f"{firer.name} is exactly on {target.name}'s 90-degree line: "
                f"dr {die}: {side} (RD-8)",
                ("RD-8",),
                (die,),
                data={"firer": firer.id, "target": target.id, "aspect": side},
            )
        )
    attack = build_attack(state, firer, target, ammo, dff=dff, chart_die=die, claim=claim)
    p = plan(attack)
    mark = None
    if dff:
        shot = dff_shot(state, firer, target, claim)
        mark = float(shot.mark if shot else state.loc_mp.get(state.target_facing(target), 0.0))
    result = resolve(attack, state.dice)
    event = fire_event(firer, target, attack, p, result, mark)
    unseen = target.concealed and not result.hit  # RD-11: a miss reveals nothing of the "?"
    if unseen:
        firers = state.setup.other(target.side)
        # its Motion counter lies under the "?" (RD-11); a move of it is seen (a counter moves);
        # whether it is a vehicle is not known, so its Case J is a vehicle's (C6.1)
        shown_j = [d.to_dict() for d in case_j(as_unknown(attack).situation)[0]]
        event = event.hidden_from(firers, unseen_fire_event(event, target.label, shown_j))
        # which armor aspect the 90-degree line dr gave would tell an AFV from the rest (RD-8)
        events[:] = [e.hidden_from(firers) if e.kind == "facing" else e for e in events]
    events.append(event)
    # the firer
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
    if firer.type.gun:
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
        if firer.acquisition and firer.acquisition != before and not removes:
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
            events.append(placed)
    if result.hit and target.concealed:
        target.concealed = False  # HX-9
    events.extend(apply_outcome(state, target, result.outcome))
    events.extend(check_victory(state))
    if dff and not state.over:
        mover = state.moving_target()
        if mover is not None and mover.active and (mover.moving or state.dff_pending):
            events.extend(offer_dff(state, mover))
            if not state.dff_pending and not mover.moving:
                state.moving_unit = None
        else:
            state.dff_pending = ()
    return events


def fire_data(
    firer: UnitState,
    target: UnitState,
    attack: Attack,
    p: Plan,
    result: AttackResult,
    dff_mark: float | None = None,
) -> dict:
    """Everything a shot was and did, as plain values (the log, the UI and the tests read
    these fields; :func:`fire_text` writes the log line from them). ``dff_mark``: a Defensive
    First Fire shot's claim, the MP of the target's Location it answers (C6.17)."""
    th = result.th_dr
    return {
        "firer": firer.id,
        "firer_name": firer.name,
        "target": target.id,
        "target_name": target.name,
        "weapon": attack.weapon or attack.ammo,
        "range": attack.range,
        "to_hit": {
            "number": p.to_hit_number,
            "rule": p.to_hit_rule,
            "position_dr": p.dc_position,
            "drms": [d.to_dict() for d in p.drms],
            "drm_total": p.drm_total,
        },
        "dr": None if th is None else {"white": th.white, "colored": th.colored},
        "hit": result.hit,
        "location": result.location,
        "critical_hit": result.critical_hit,
        "tk": None if result.tk is None else result.tk.to_dict(),
        "elimination_number": p.elimination_number,
        "steps": [{"what": s.what, "rule": s.rule, "dice": list(s.dice)} for s in result.steps],
        "outcome": result.outcome,
        "rof_kept": result.rof_kept,
        "dff_mark": dff_mark,
    }


def fire_text(data: dict) -> str:
    """The log line of a fire event, from its data."""
    drms = (
        ", ".join(f"{d['value']:+d} Case {d['case']} ({d['rule']})" for d in data["to_hit"]["drms"])
        or "no DRM"
    )
    rng = data["range"]
    steps = []
    for s in data["steps"]:
        dice = f" [{'+'.join(map(str, s['dice']))}]" if s["dice"] else ""
        steps.append(f"{s['what']}{dice} ({s['rule']})")
    return (
        f"{data['firer_name']} fires {data['weapon']} at {data['target_name']} "
        f"({rng} hex{'es' if rng != 1 else ''}): {drms}; "
        + "; ".join(steps)
        + f" => {outcome_words(data['outcome'])}"
    )


def fire_event(
    firer: UnitState,
    target: UnitState,
    attack: Attack,
    p: Plan,
    result: AttackResult,
    dff_mark: float | None = None,
) -> Event:
    """The fire event: its data (:func:`fire_data`), its text made from the data, the rules it
    applied and every die drawn."""
    data = fire_data(firer, target, attack, p, result, dff_mark)
    rules = tuple(
        dict.fromkeys([p.to_hit_rule, *(d.rule for d in p.drms), *(s.rule for s in result.steps)])
    )
    dice = tuple(d for s in result.steps for d in s.dice)
    return Event("fire", fire_text(data), rules, dice, data=data)


KNOWN_CASES = ("K", "L", "M", "N", "O", "Q", "R")
"""The To Hit DRM cases that do not depend on what a "?" is (RD-11): Case P is its size, a
DC's Position DRM its type, facing and state; Case J its being a vehicle (C6.1) and its Motion,
so the firer's side reads the Case J of a vehicle that moved as it saw (``unseen_fire_event``'s
``shown_j``)."""


def unseen_fire_event(event: Event, hex_label: str, shown_j: list[dict] | None = None) -> Event:
    """A missed shot at a concealed unit as the firer's side may read it (RD-11): "a concealed
    unit in E3", the To Hit DRM it may know (Case P, the target's size, left out; Case J as
    ``shown_j``, a vehicle's for the moves it saw, none for the Motion counter under the "?",
    whatever the "?" is) and the dice, nothing the target's identity or state decides."""
    d = event.data
    # only the DRM the firer's side knows without knowing the "?": its move, concealment, range,
    # the firer's counters, terrain and hindrance (not Case P, nor a DC's Position DRM)
    drms = [*(shown_j or []), *(x for x in d["to_hit"]["drms"] if x["case"] in KNOWN_CASES)]
    dr = d["dr"]
    position = bool(d["to_hit"]["position_dr"])
    data = {
        "firer": d["firer"],
        "firer_name": d["firer_name"],
        "target": None,
        "target_name": f"a concealed unit in {hex_label}",
        "target_hex": hex_label,
        "weapon": d["weapon"],
        "range": d["range"],
        "to_hit": {
            "number": None if position else d["to_hit"]["number"],
            "rule": "RD-11" if position else d["to_hit"]["rule"],
            "drms": drms,
            "drm_total": sum(x["value"] for x in drms),
        },
        "dr": dr,
        "hit": False,
        "outcome": "miss",
        "rof_kept": d["rof_kept"],
        "dff_mark": d["dff_mark"],
        "steps": [
            {
                "what": f"TH DR {dr['white']}+{dr['colored']}: miss (a miss reveals nothing)",
                "rule": "RD-11",
                "dice": [dr["white"], dr["colored"]],
            }
        ],
    }
    return Event("fire", fire_text(data), ("RD-11",), (dr["white"], dr["colored"]), data=data)


def nearest_direction(a: Hex, b: Hex) -> int:
    """RD-7: the hexside a turret turns to, to face from ``a`` toward ``b``."""
    angle = direction_to(a, b)
    return min(range(6), key=lambda d: abs(((angle - (60 * d - 30)) + 180) % 360 - 180))
