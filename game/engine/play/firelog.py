"""The fire event (002, C6, C7): its data (the To Hit DRM, the dice, the To Kill steps, the
outcome), its log line made from that data, and a missed shot at a "?" as the firer's side may
read it (RD-11)."""

from __future__ import annotations

from game.engine.events import Event
from game.engine.state import UnitState
from game.rules.attack import Attack, AttackResult, Plan
from game.rules.words import outcome_words


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
