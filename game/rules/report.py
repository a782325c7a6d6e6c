"""The odds report as text: the To Hit Number and every DRM with its rule, the To Kill
derivation (or the chart's Elimination Number) and the exact odds of each outcome, from
:func:`.odds.odds_to_dict`. ``hexfire odds`` prints it; the screen's odds panel shows the same
lines."""

from __future__ import annotations

from .tables import tables


def odds_report_lines(report: dict) -> list[str]:
    """The lines of the odds report for one attack.

    >>> from game.rules.attack import Attack
    >>> from game.rules.odds import odds, odds_to_dict
    >>> shot = Attack(gun="50L", ammo="AP", range=25, aspect="rear", location="hull", af_hull=8,
    ...               af_turret=8)
    >>> for line in odds_report_lines(odds_to_dict(odds(shot)))[:3]:
    ...     print(line)
    To Hit: hit on a Modified DR <= 6 (002)
      total DRM +0; P(hit) 41.7%
    To Kill (AP table, hull hit):
    """
    lines = []
    th = report["to_hit"]
    if th.get("position_dr"):
        lines.append(
            f"DC Position DR: positioned on a Final DR <= {th['number']} "
            f"(<= {tables().raw['dc']['position']['optimal_max']} optimally: Aerial AF; "
            f"{th['rule']})"
        )
    else:
        lines.append(f"To Hit: hit on a Modified DR <= {th['number']} ({th['rule']})")
    for d in th["drms"]:
        lines.append(f"  {d['value']:+d}  Case {d['case']:<3} {d['rule']:<7} {d['why']}")
    for n in th["notes"]:
        lines.append(f"   --  {n['rule']:<11} {n['text']}")
    lines.append(f"  total DRM {th['drm_total']:+d}; P(hit) {100 * th['p_hit']:.1f}%")
    branches = report.get("branches")
    if branches:  # a die before the To Hit DR decides what the shot is (RD-16)
        lines.append("Before the To Hit DR, a die decides (RD-16):")
        for b in branches:
            lines.append(f"  {100 * b['p']:5.1f}%  {b['why']} ({b['rule']})")
        for b in branches:
            lines.append(f"If {b['why']}:")
            lines.extend("  " + text for text in to_kill_lines(b["to_kill"]))
    else:
        lines.extend(to_kill_lines(report["to_kill"]))
    lines.append("Odds:")
    for k, v in report["p"].items():
        lines.append(f"  {k:<12} {100 * v:6.2f}%")
    return lines


def to_kill_lines(tk: dict) -> list[str]:
    """The To Kill part: the C7 derivation, the chart's Elimination Number, or a Gun's fate.

    >>> to_kill_lines({"elimination_number": 5, "rule": "002"})
    ['Armor Elimination Chart: Elimination Number 5 (002)']
    >>> to_kill_lines({"gun": "a Gun hit by AT fire is eliminated", "rule": "002"})
    ['To Kill: a Gun hit by AT fire is eliminated (002)']
    """
    if "final" in tk:
        lines = [
            f"To Kill ({tk['table']} table, {tk['location']} hit):",
            f"  Basic TK# {tk['basic']:>3}   {tk['basic_rule']}",
        ]
        for m in tk["modifications"]:
            lines.append(f"  {m['value']:+4d} Case {m['case']:<3} {m['rule']:<7} {m['why']}")
        lines.append(f"  Modified TK# {tk['modified']}")
        if tk["af"] is not None:
            lines.append(f"  - AF {tk['af']} ({tk['af_rule']})")
        by = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in tk["by_location"].items())
        lines.append(f"  Final TK# {tk['final']}   (every case: {by})")
        for n in tk["notes"]:
            lines.append(f"   --  {n['rule']:<7} {n['text']}")
        return lines
    if "elimination_number" in tk:
        return [f"Armor Elimination Chart: Elimination Number {tk['elimination_number']} (002)"]
    return [f"To Kill: {tk['gun']} ({tk['rule']})"]
