"""``hexfire odds`` takes its flags from the attack's own description (issue 39): every field of
:class:`Attack` and :class:`Situation` says how the command sets it (a flag of its own, worked
out from other flags, or known to the game only), so a new To Hit case is a flag the day it
lands; the command restated every field before and could not express a new case."""

from __future__ import annotations

import argparse
from dataclasses import fields

from game.cli import odds as odds_cli
from game.rules.attack import Attack
from game.rules.inputs import Derived, Engine, Flag, described
from game.rules.to_hit import Situation


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    odds_cli.add_commands(parser.add_subparsers())
    return parser


def _options() -> set[str]:
    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {o for a in sub.choices["odds"]._actions for o in a.option_strings}


def test_every_input_of_an_attack_says_how_hexfire_odds_sets_it():
    silent = [
        f"{cls.__name__}.{f.name}"
        for cls in (Attack, Situation)
        for f in fields(cls)
        if described(f) is None
    ]
    assert not silent, (
        f"say how `hexfire odds` sets {silent}: metadata=flag(...), derived(...) or engine(...) "
        "(game/rules/inputs.py)"
    )


def test_every_flag_the_description_names_is_a_flag_of_the_command():
    options = _options()
    for cls in (Attack, Situation):
        for f in fields(cls):
            d = described(f)
            if isinstance(d, Flag):
                assert d.flag_for(f.name) in options, f.name
            elif isinstance(d, Derived):
                named = [w for w in d.flags.replace(",", " ").split() if w.startswith("--")]
                assert all(w in options for w in named), (f.name, named)
            else:
                assert isinstance(d, Engine) and d.why


def test_c6_1_a_case_the_command_could_not_express_is_a_flag_now(capsys):
    """A Dash target (C6.1) was in the rules and not in the command: now --dash."""
    from game.cli import main

    assert main(["odds", "--gun", "75L", "--range", "6", "--af", "8", "--dash"]) == 0
    out = capsys.readouterr().out
    assert "Case J" in out and "a Dash target" in out
