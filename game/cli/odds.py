"""``hexfire odds``: the AT fire calculator (every DRM with its rule, the To Kill derivation and
the exact odds of every outcome)."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from .common import CliError

ODDS_LIMITS = {
    "range": (0, 200, "hexes"),
    "af": (0, 26, "the C7.11 AF scale"),
    "turret_af": (0, 26, "the C7.11 AF scale"),
    "worst_af": (0, 26, "the C7.11 AF scale"),
    "morale": (2, 12, "a 2d6 NTC, RD-5"),
    "rof": (0, 3, "RD-4"),
    "dff_mp": (0, 60, "MP, C6.17"),
    "hindrance": (0, 5, "Case R, C6.9: 6 or more blocks the LOS"),
    "tem": (0, 5, "Case Q, C6.8"),
    "size": (-2, 2, "Case P, C6.7"),
}
"""What ``hexfire odds`` accepts for each number, and why (the rule that bounds it)."""


def _check_limits(args: argparse.Namespace) -> None:
    import math

    for name, (lo, hi, why) in ODDS_LIMITS.items():
        value = getattr(args, name, None)
        if value is None:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, float) and not math.isfinite(value):
            raise CliError(f"{flag}: expected a number {lo} to {hi} ({why}), got {value}")
        if not lo <= value <= hi:
            raise CliError(f"{flag}: expected {lo} to {hi} ({why}), got {value:g}")


def _odds_attack(args: argparse.Namespace):
    from game.rules.attack import Attack
    from game.rules.to_hit import Situation

    _check_limits(args)

    if args.rules == "asl" and args.af is None and not args.unarmored and args.target == "afv":
        raise CliError("an armored target needs --af N (or --unarmored)")
    if args.rules == "chart" and args.armor is None and not args.unarmored and args.target == "afv":
        raise CliError("the chart needs the target's --armor A-F (or --unarmored)")
    target = "vehicle" if args.unarmored else args.target
    situation = Situation(
        moving=args.moving,
        motion=args.motion,
        was_motion=args.was_motion,
        non_stopped=args.dff_mp is not None and not args.stopped,
        dff_mp=args.dff_mp,
        concealed=args.concealed,
        acquired=args.acquired or 0,
        bore_sighted=args.bore_sighted,
        hazardous=args.hazardous,
        size=args.size,
        tem=args.tem,
        hindrance=args.hindrance,
    )
    turret_af = args.turret_af if args.turret_af is not None else args.af
    return Attack(
        rules=args.rules,
        firer=args.firer,
        gun=args.gun,
        weapon=args.weapon,
        nationality=args.nationality,
        variant=args.variant,
        ammo=args.ammo,
        range=args.range,
        aspect=args.aspect,
        location=args.location,
        target=target,
        af_hull=args.af,
        af_turret=turret_af,
        worst_af=args.worst_af,
        open_topped=args.open_topped,
        ce=args.ce,
        immobilized=args.immobilized,
        red_cs=args.red_cs,
        morale=args.morale,
        atfp=args.atfp,
        armor=args.armor,
        rof=args.rof,
        phase_allows_rof=args.phase != "advancing",
        advancing_fire=args.phase == "advancing",
        elevation_advantage=args.elevation_advantage,
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
    odds.add_argument("--rules", choices=["asl", "chart"], default="asl")
    odds.add_argument("--firer", choices=["gun", "afv", "sw"], default="gun")
    odds.add_argument("--gun", help="the gun: caliber and length, e.g. 50L, 75*, 76LL")
    odds.add_argument(
        "--weapon", help="an AT support weapon: PSK PIAT BAZ43 BAZ44 PF PFk ATR FT DC MOL"
    )
    odds.add_argument("--nationality", help="for the colored entries of C7.31-.32 (russian, ...)")
    odds.add_argument(
        "--variant", help="a vehicle's own table entry (grant: the M3 Grant's hull 75)"
    )
    odds.add_argument("--ammo", choices=["AP", "APCR", "APDS", "HEAT", "HE"], default="AP")
    odds.add_argument(
        "--depletion",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="APCR / APDS: its depletion number 1-6; the odds weigh its availability die (RD-17)",
    )
    odds.add_argument("--range", type=int, required=True, help="range in hexes")
    odds.add_argument("--aspect", choices=["front", "side", "rear"], default="front")
    odds.add_argument("--location", choices=["hull", "turret"], help="fix the hit location (RD-2)")
    odds.add_argument("--target", choices=["afv", "vehicle", "gun", "infantry"], default="afv")
    odds.add_argument("--af", type=int, help="AF of the aspect hit (asl)")
    odds.add_argument("--turret-af", type=int, help="turret AF of that aspect, if not --af")
    odds.add_argument("--worst-af", type=int, help="the AFV's worst AF (Aerial AF for a DC)")
    odds.add_argument("--unarmored", action="store_true", help="an unarmored vehicle")
    odds.add_argument("--atfp", choices=list("ABCDEF"), help="the firer's ATFP (chart)")
    odds.add_argument("--armor", choices=list("ABCDEF"), help="the target's AF letter (chart)")
    odds.add_argument("--open-topped", action="store_true")
    odds.add_argument("--ce", action="store_true", help="the AFV is Crew Exposed")
    odds.add_argument("--ch", action="store_true", help="the hit is a Critical Hit (C7.23)")
    odds.add_argument("--immobilized", action="store_true", help="already immobilized (002)")
    odds.add_argument("--red-cs", action="store_true", help="the AFV has a red CS# (C7.7)")
    odds.add_argument("--morale", type=int, default=8, help="crew morale for the NTC (RD-5)")
    odds.add_argument("--rof", type=int, default=0, help="the weapon's ROF (RD-4)")
    odds.add_argument("--moving", action="store_true", help="entered a new hex, stopped (Case J)")
    odds.add_argument("--motion", action="store_true", help="in Motion (Case J, no Case L)")
    odds.add_argument(
        "--was-motion",
        action="store_true",
        help="was in Motion this player turn, stopped now (Case J; Case L may apply)",
    )
    odds.add_argument(
        "--dff-mp", type=float, help="Defensive First Fire: MP spent in the firer's LOS"
    )
    odds.add_argument(
        "--stopped",
        action="store_true",
        help="with --dff-mp: the target has spent its Stop MP (Case L may apply)",
    )
    odds.add_argument("--concealed", action="store_true", help="Case K")
    odds.add_argument(
        "--elevation-advantage",
        action="store_true",
        help="the firer is >= 1 level higher (Case B, C7.22: MOL To Kill, DC Position DR)",
    )
    odds.add_argument(
        "--phase",
        choices=["fire", "advancing"],
        default="fire",
        help="advancing: the Advancing Fire Phase (no Multiple ROF, RD-4; +1 Thrown DC, C7.346)",
    )
    odds.add_argument("--acquired", type=int, choices=[1, 2], help="an Acquired -1/-2 counter")
    odds.add_argument("--bore-sighted", action="store_true", help="Case M")
    odds.add_argument("--hazardous", action="store_true", help="Case O")
    odds.add_argument("--size", type=int, default=0, help="Case P: target size DRM -2..+2")
    odds.add_argument("--tem", type=int, default=0, help="Case Q: TEM")
    odds.add_argument("--hindrance", type=int, default=0, help="Case R: hindrance DRM")
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    odds.set_defaults(run=_cmd_odds)
