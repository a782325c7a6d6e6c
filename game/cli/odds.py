"""``hexfire odds``: the AT fire calculator (every DRM with its rule, the To Kill derivation and
the exact odds of every outcome)."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from game.rules.inputs import Flag

from .common import CliError


def _flags() -> list[tuple[str, str, Flag, Any]]:
    """Every flag of its own the attack's inputs describe: (where: "attack" or "situation",
    the field's name, its :class:`~game.rules.inputs.Flag`, its default)."""
    from dataclasses import fields

    from game.rules.attack import Attack
    from game.rules.inputs import described
    from game.rules.to_hit import Situation

    out: list[tuple[str, str, Flag, Any]] = []
    for where, cls in (("attack", Attack), ("situation", Situation)):
        for f in fields(cls):
            d = described(f)
            if isinstance(d, Flag):
                out.append((where, f.name, d, f.default))
    return out


def _check_limits(args: argparse.Namespace) -> None:
    """Each number within the limits its field states, with the rule behind them."""
    import math

    for _, name, d, _ in _flags():
        limits = d.limits
        value = getattr(args, name, None)
        if limits is None or value is None:
            continue
        lo, hi, why = limits
        flag = d.flag_for(name)
        if isinstance(value, float) and not math.isfinite(value):
            raise CliError(f"{flag}: expected a number {lo:g} to {hi:g} ({why}), got {value}")
        if not lo <= value <= hi:
            raise CliError(f"{flag}: expected {lo:g} to {hi:g} ({why}), got {value:g}")


def _odds_attack(args: argparse.Namespace):
    """The attack the flags describe: each field with a flag of its own from its flag, the
    others worked out here (their metadata says from which flags)."""
    from game.rules.attack import Attack
    from game.rules.to_hit import Situation

    _check_limits(args)

    if args.rules == "asl" and args.af_hull is None and not args.unarmored and args.target == "afv":
        raise CliError("an armored target needs --af N (or --unarmored)")
    if args.rules == "chart" and args.armor is None and not args.unarmored and args.target == "afv":
        raise CliError("the chart needs the target's --armor A-F (or --unarmored)")
    given: dict[str, dict[str, Any]] = {"attack": {}, "situation": {}}
    for where, name, d, _ in _flags():
        value = getattr(args, name)
        if value is not None and (value is not False or d.kind is not bool):
            given[where][name] = value
    situation = Situation(
        **given["situation"],
        non_stopped=args.dff_mp is not None and not args.stopped,
        infantry_target=False,
    )
    attack = given["attack"]
    if args.unarmored:
        attack["target"] = "vehicle"
    if args.af_turret is None and args.af_hull is not None:
        attack["af_turret"] = args.af_hull
    return Attack(
        **attack,
        phase_allows_rof=args.phase != "advancing",
        advancing_fire=args.phase == "advancing",
        critical_hit=True if args.ch else None,
        situation=situation,
    )


def _cmd_odds(args: argparse.Namespace) -> int:
    from game.rules.drm import RuleError
    from game.rules.odds import Branch, blend, odds, odds_to_dict
    from game.rules.report import odds_report_lines

    try:
        attack = _odds_attack(args)
        shown = odds(attack)
        n = args.depletion
        if n is not None and args.ammo in ("APCR", "APDS"):  # RD-17: is the round there?
            shown = blend(
                [
                    Branch(n / 6, f"{args.ammo} there (dr <= {n})", "RD-17", shown),
                    Branch(
                        (6 - n) / 6,
                        f"out of {args.ammo} (dr > {n}): fired as AP",
                        "RD-17",
                        odds(replace(attack, ammo="AP")),
                    ),
                ]
            )
        report = odds_to_dict(shown)
        if n is None and args.ammo in ("APCR", "APDS"):
            report["to_hit"]["notes"].append(
                {
                    "rule": "RD-17",
                    "text": f"the {args.ammo} round assumed there: --depletion N weighs its die",
                }
            )
    except RuleError as e:
        raise CliError(f"refused: {e}") from None
    except ValueError as e:  # a malformed value (a gun designation, ...)
        raise CliError(str(e)) from None
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print("\n".join(odds_report_lines(report)))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
    odds = sub.add_parser(
        "odds",
        help="the AT fire calculator: DRM, To Kill and the exact odds of one attack",
        description="The exact odds of one AT attack under the asl rules (C6, C7) or the "
        "chart (Valor & Victory's Armor Elimination Chart). A shot the rules refuse exits 2.",
    )
    for _, name, d, default in _flags():  # a flag for each input the rules describe
        flag = d.flag_for(name)
        kind, choices = d.kind, d.choices
        if kind is bool:
            odds.add_argument(flag, dest=name, action="store_true", help=d.help)
        else:
            odds.add_argument(
                flag,
                dest=name,
                type=kind,
                choices=list(choices) if choices else None,
                required=d.required,
                default=default,
                metavar=None if choices else (d.name or name).upper(),
                help=d.help,
            )
    # the flags that are no input of their own: the rules' values worked out from them
    odds.add_argument(
        "--depletion",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="APCR / APDS: its depletion number 1-6; the odds weigh its availability die (RD-17)",
    )
    odds.add_argument("--unarmored", action="store_true", help="an unarmored vehicle")
    odds.add_argument("--ch", action="store_true", help="the hit is a Critical Hit (C7.23)")
    odds.add_argument(
        "--stopped",
        action="store_true",
        help="with --dff-mp: the target has spent its Stop MP (Case L may apply)",
    )
    odds.add_argument(
        "--phase",
        choices=["fire", "advancing"],
        default="fire",
        help="advancing: the Advancing Fire Phase (no Multiple ROF, RD-4; +1 Thrown DC, C7.346)",
    )
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    odds.set_defaults(run=_cmd_odds)
