"""The examples in the rules library's docstrings (``>>>``, python-chess's habit) are run here,
and every public function of a rules module shows at least one: a reader sees a call and its
answer beside the rule it cites. CONTRIBUTING.md says how to add one."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import game.rules

MODULES = sorted(m.name for m in pkgutil.iter_modules(game.rules.__path__))

NOT_YET: dict[str, str] = {}
"""Modules whose public functions need no example yet, and why (take a module off once its
functions all have one: a test says so)."""
NOT_RULES = {"bench": "the odds benchmark: its figures are timings, not a rule's answer"}
"""Modules of game/rules/ that are not rules: no example asked for."""

FLAGS = doctest.ELLIPSIS


def module(name: str) -> ModuleType:
    return importlib.import_module(f"game.rules.{name}")


def public_functions(m: ModuleType) -> dict[str, object]:
    """The module's own functions (``functools.cache`` and ``lru_cache`` wrappers unwrapped)
    whose names do not start with an underscore."""
    out = {}
    for name, obj in vars(m).items():
        fn = inspect.unwrap(obj) if callable(obj) else obj
        if name.startswith("_") or not inspect.isfunction(fn):
            continue
        if fn.__module__ == m.__name__:
            out[name] = obj
    return out


def has_example(obj: object) -> bool:
    return ">>>" in (inspect.getdoc(obj) or "")


def run_examples(m: ModuleType) -> tuple[int, int, str]:
    """(failed, attempted, the failures' report) of every example in ``m``'s docstrings."""
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    failed = attempted = 0
    for test in doctest.DocTestFinder().find(m):
        result = runner.run(test, out=report.append)
        failed += result.failed
        attempted += result.attempted
    return failed, attempted, "".join(report)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_each_rules_module_give_the_answers_they_show(name):
    failed, _, report = run_examples(module(name))
    assert failed == 0, report


@pytest.mark.parametrize("name", [n for n in MODULES if n not in NOT_YET and n not in NOT_RULES])
def test_every_public_function_of_a_rules_module_shows_an_example(name):
    missing = sorted(n for n, fn in public_functions(module(name)).items() if not has_example(fn))
    assert not missing, f"game/rules/{name}.py: add a >>> example to {missing} (CONTRIBUTING.md)"


def test_the_modules_excused_exist_and_still_lack_examples():
    for name in (*NOT_YET, *NOT_RULES):
        assert name in MODULES, name
    for name in NOT_YET:
        functions = public_functions(module(name)).values()
        assert functions and not all(map(has_example, functions)), (
            f"every function of game/rules/{name}.py has an example: take it off NOT_YET"
        )


def test_the_examples_are_found_and_a_wrong_one_fails():
    """The run is real: the library holds many examples, and a wrong answer is a failure."""
    attempted = sum(run_examples(module(n))[1] for n in MODULES)
    assert attempted >= 100
    fake = ModuleType("game.rules.fake")
    exec(
        'def twice(n):\n    """Twice n.\n\n    >>> twice(2)\n    5\n    """\n    return 2 * n\n',
        fake.__dict__,
    )
    fake.twice.__module__ = fake.__name__
    failed, tried, report = run_examples(fake)
    assert (failed, tried) == (1, 1) and "Expected:\n    5\nGot:\n    4" in report
    assert public_functions(fake) == {"twice": fake.twice} and has_example(fake.twice)
