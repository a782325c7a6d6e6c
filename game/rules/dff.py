"""The Defensive First Fire budget (C6.17) and the Case J subcase of each shot (C6.11-.15).

A firer may not Defensive First Fire at one target in one Location more times than the MP the
target spent there (in its current Target Facing). The MP it spent there before the first shot
may all be claimed by that shot to escape Case J2 (<= 1 MP in the firer's continuous LOS) or J1
(<= 3 MP), or be used in increments for a series of shots; each further shot needs at least one
more MP. Shots are placed at "marks": the MP of the Location that the shot claims, cumulative.

HX-18, how a half MP counts: a target that spent less than one MP in the Location (half an MP
along a road) may still be fired at once, claiming all of it; that shot counts as claiming the
Location's first whole MP, so the next one needs the Location's MP to reach 2. The shots in a
Location are never more than its MP rounded down (at least one once it spent any), whenever the
firer takes them: 1 1/2 MP give one shot, 2 1/2 two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .drm import Drm


def case_j_for(mp_in_los: float, exempt: bool = False) -> Drm:
    """The Case J subcase of a Defensive First Fire shot at a moving vehicle that has spent
    ``mp_in_los`` MP in the firer's continuous LOS when the shot is taken (C6.1, C6.11, C6.12,
    C6.15: a vehicle that began its move in the LOS and has not left it is subject to J only).

    >>> [str(case_j_for(mp)) for mp in (1, 1.5, 3, 3.5)]
    ['+4 Case J2 (C6.12)', '+3 Case J1 (C6.11)', '+3 Case J1 (C6.11)', '+2 Case J (C6.1)']
    >>> str(case_j_for(0.5, exempt=True))
    '+2 Case J (C6.15)'
    """
    if exempt:
        return Drm("J", 2, "C6.15", "began its move in the firer's LOS: Case J only")
    if mp_in_los <= 1:
        return Drm("J2", 4, "C6.12", f"{mp_in_los:g} MP in the firer's LOS (<= 1)")
    if mp_in_los <= 3:
        return Drm("J1", 3, "C6.11", f"{mp_in_los:g} MP in the firer's LOS (<= 3)")
    return Drm("J", 2, "C6.1", f"{mp_in_los:g} MP in the firer's LOS (> 3)")


@dataclass(frozen=True, slots=True)
class DffOption:
    """One way to take the next shot: claim MP up to ``mark`` -> this Case J subcase."""

    mark: float
    mp_in_los: float
    drm: Drm


@dataclass(frozen=True, slots=True)
class DffBudget:
    """What the firer may still do against this target in this Location (C6.17)."""

    mp_in_location: float
    mp_in_los: float
    marks: tuple[float, ...]
    shots_left: int
    """The most shots still possible (each claiming the least it may)."""
    options: tuple[DffOption, ...]
    """The next shot's choices: the earliest mark, each mark that changes the subcase, and the
    latest mark (all the MP spent so far); empty when no shot is left."""

    @property
    def can_fire(self) -> bool:
        return self.shots_left > 0

    @property
    def best(self) -> DffOption | None:
        """The option with the smallest DRM at the earliest mark that gets it (claiming no more
        MP than it needs, so that later shots keep the rest)."""
        return min(self.options, key=lambda o: (o.drm.value, o.mark)) if self.options else None

    def option_at(self, mark: float) -> DffOption | None:
        """The shot that claims MP up to ``mark``, if the budget allows it."""
        if not self.options or not self.options[0].mark <= mark <= self.options[-1].mark:
            return None
        before = self.mp_in_los - self.mp_in_location
        in_los = max(0.0, before + mark)
        drm = case_j_for(in_los, self.options[0].drm.rule == "C6.15")
        return DffOption(mark, in_los, drm)

    @property
    def earliest(self) -> DffOption | None:
        return self.options[0] if self.options else None


@lru_cache(maxsize=4096)  # pure and asked for every firer each time a vehicle spends MP
def dff_budget(
    mp_in_location: float,
    mp_in_los: float,
    marks: tuple[float, ...] = (),
    exempt: bool = False,
) -> DffBudget:
    """The C6.17 budget of one firer against one target in its current Location.

    ``mp_in_location``: MP the target has spent in this Location in its current facing.
    ``mp_in_los``: MP it has spent in the firer's continuous LOS up to now (those of this
    Location included). ``marks``: the marks of the shots this firer already took at it here.

    C6.17's example: a tank spends five MP to enter W6, in the AT Gun's LOS for the first time.
    Five shots at most (one an MP: J2, J1, J1, J, J); the best first shot claims 3 1/2 MP, "the
    minimum MP expenditure in LOS to void J1 and J2", and leaves one more shot, with Case J:

    >>> budget = dff_budget(5, 5)
    >>> budget.shots_left, [(o.mark, o.drm.case) for o in budget.options]
    (5, [(1.0, 'J2'), (1.5, 'J1'), (3.5, 'J'), (5, 'J')])
    >>> budget.best.mark
    3.5
    >>> after = dff_budget(5, 5, marks=(3.5,))
    >>> after.shots_left, {o.drm.case for o in after.options}
    (1, {'J'})
    """
    if mp_in_location < 0 or mp_in_los < 0:
        raise ValueError("MP spent cannot be negative")
    before = mp_in_los - mp_in_location  # MP in LOS before this Location (may be < 0: not in LOS)
    # each further shot one more MP; a first shot at half an MP used the first whole one (HX-18)
    lo = max(marks[-1], 1.0) + 1 if marks else min(1.0, mp_in_location)
    hi = mp_in_location
    if hi <= 0 or lo > hi:
        return DffBudget(mp_in_location, mp_in_los, marks, 0, ())
    shots_left = 1 + math.floor(hi - lo + 1e-9)

    def option(mark: float) -> DffOption:
        in_los = max(0.0, before + mark)
        return DffOption(mark, in_los, case_j_for(in_los, exempt))

    candidates = [lo]
    for threshold in (1.0, 3.0):  # the least mark that takes the shot past J2, past J1
        past = threshold - before + 0.5  # MP come in halves: the next half MP past the limit
        if lo < past <= hi:
            candidates.append(past)
    candidates.append(hi)
    opts: list[DffOption] = []
    for m in sorted(set(candidates)):
        o = option(m)
        if not opts or opts[-1].drm != o.drm or m == hi:
            opts.append(o)
    return DffBudget(mp_in_location, mp_in_los, marks, shots_left, tuple(opts))
