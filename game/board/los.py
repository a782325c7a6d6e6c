"""Line of sight, the scalar reference (RD-9; Case R hindrance, C6.9).

``los(board, a, b)`` traces the line from the centre of ``a`` to the centre of ``b`` twice, nudged
to either side (Red Blob's epsilon). Each trace is judged on its own:

* an intermediate hex blocks when its top (ground level + obstacle height) is higher than the
  straight line between the two ends' eye heights at that point, or equal to it when both ends are
  lower than or level with it (same-level obstacles block); bare ground (a hill) blocks only when
  it is higher than the line;
* an orchard is a level-one obstacle to LOS from higher (either end above its ground), a
  hindrance to LOS at its own level;
* a hindrance hex (brush, grain, orchard at its level, smoke, wrecks) adds its DRM when the line
  passes through it at or below its top; the firer's hex never hinders, the target's hex does;
* a total hindrance of 6 or more blocks;
* a hex off the map blocks that trace (a line along the map edge is seen down the other side).

A hex along a hexside blocks only if the hexes on both sides block: the LOS is clear when either
trace is clear, and then it takes the clear trace with the smaller hindrance (the firer's best
view). Heights are compared exactly, in half levels scaled by the range, as integers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board
from .hexes import Hex, label, line

HINDRANCE_BLOCKS = 6
"""RD-9: a hindrance total of 6 or more blocks LOS."""


@dataclass(frozen=True, slots=True)
class LosHex:
    """One hex along the traced line and what it did to the LOS."""

    hex: Hex
    label: str
    step: int
    terrain: str
    level: int
    status: str
    """firer, target, clear, hindrance, blocking or off-map."""
    hindrance: int = 0
    why: str = ""


@dataclass(frozen=True, slots=True)
class LosResult:
    """The LOS between two hexes: clear or blocked, range, hindrance DRM (Case R) and why."""

    firer: Hex
    target: Hex
    clear: bool
    range: int
    hindrance: int
    """Total Case R DRM along the chosen trace (RD-9); 6+ means blocked."""
    blocked_by: Hex | None
    reason: str
    hexes: tuple[LosHex, ...] = field(default=())
    trace: int = 1
    """Which nudge (+1 / -1) the result follows."""

    @property
    def blocked(self) -> bool:
        return not self.clear

    def summary(self) -> str:
        """One line: the verdict, range, hindrance and, when blocked, where and why (the LOS
        thread label on the map and the first line of ``hexfire los``)."""
        verdict = "CLEAR" if self.clear else "BLOCKED"
        text = f"{verdict}: range {self.range}, hindrance +{self.hindrance} (Case R)"
        return text + (f"; {self.reason}" if not self.clear else "") + " (RD-9)"

    def describe(self) -> list[str]:
        """The LOS as lines of text (``hexfire los`` and the screen show the same words)."""
        verdict = "CLEAR" if self.clear else "BLOCKED"
        lines = [
            f"LOS {label(self.firer)} -> {label(self.target)}: {verdict} (RD-9)",
            f"  range      {self.range} hexes",
            f"  hindrance  +{self.hindrance} (Case R, C6.9; 6 or more blocks)",
        ]
        if not self.clear:
            lines.append(f"  blocked    {self.reason}")
        lines.append("  thread:")
        for h in self.hexes:
            extra = f"  {h.why}" if h.why else ""
            drm = f" +{h.hindrance}" if h.hindrance else ""
            lines.append(
                f"    {h.step:>3}  {h.label:<6} {h.terrain:<16} level {h.level}  "
                f"{h.status}{drm}{extra}"
            )
        return lines

    def to_dict(self) -> dict:
        return {
            "from": label(self.firer),
            "to": label(self.target),
            "clear": self.clear,
            "range": self.range,
            "hindrance": self.hindrance,
            "blocked_by": label(self.blocked_by) if self.blocked_by else None,
            "reason": self.reason,
            "rule": "RD-9",
            "hexes": [
                {
                    "hex": h.label,
                    "step": h.step,
                    "terrain": h.terrain,
                    "level": h.level,
                    "status": h.status,
                    "hindrance": h.hindrance,
                    "why": h.why,
                }
                for h in self.hexes
            ],
        }


@dataclass(frozen=True, slots=True)
class _Trace:
    nudge: int
    hexes: tuple[LosHex, ...]
    blocked_step: int | None
    hindrance: int
    reason: str


def _hindrance_at(board: Board, i: int, lh: int, n: int, mx2: int) -> tuple[int, list[str]]:
    """Case R DRM of hex ``i`` for a line at height ``lh / n`` half-levels (RD-9)."""
    g2 = 2 * int(board.ground[i])
    total = 0
    why = []
    cat = board.catalogue
    t = cat.terrains[board.terrain[i]]
    hind = int(board.hindrance[i])
    orchard_obstacle = bool(board.orchard[i]) and mx2 > g2
    if hind and not orchard_obstacle and lh <= (g2 + int(board.hindrance_top2[i])) * n:
        total += hind
        why.append(f"{t.name} +{hind}")
    if board.smoke[i] and lh <= (g2 + round(2 * cat.smoke.hindrance_top)) * n:
        total += cat.smoke.hindrance
        why.append(f"Smoke +{cat.smoke.hindrance}")
    w = int(board.wrecks[i])
    if w and lh <= (g2 + round(2 * cat.wreck.hindrance_top)) * n:
        total += w * cat.wreck.hindrance
        why.append(f"Wreck{'s' if w > 1 else ''} +{w * cat.wreck.hindrance}")
    return total, why


def _trace(board: Board, a: Hex, b: Hex, nudge: int) -> _Trace:
    n = a.distance(b)
    ia, ib = board.index(a), board.index(b)
    ha2, hb2 = 2 * int(board.ground[ia]), 2 * int(board.ground[ib])
    mx2 = max(ha2, hb2)
    terrains = board.catalogue.terrains
    out: list[LosHex] = []
    hind = 0
    blocked: int | None = None
    reason = ""
    for step, h in enumerate(line(a, b, nudge)):
        if step == 0:
            t = terrains[board.terrain[ia]]
            out.append(LosHex(h, label(h), 0, t.name, ha2 // 2, "firer", 0, "firer's hex"))
            continue
        if not board.contains(h):
            out.append(LosHex(h, f"({h.q},{h.r})", step, "off the map", 0, "off-map"))
            if blocked is None:
                blocked, reason = step, "the line runs off the map on this side"
            continue
        i = board.index(h)
        t = terrains[board.terrain[i]]
        g2 = 2 * int(board.ground[i])
        lh = ha2 * (n - step) + hb2 * step  # line height x n, in half levels
        lvl = g2 // 2
        if step < n:
            obstacle = int(board.obstacle[i])  # the board's arrays: the terrain in its season
            has_obs = obstacle > 0 and (not board.orchard[i] or mx2 > g2)
            top2 = g2 + (2 * obstacle if has_obs else 0)
            why = ""
            if top2 * n > lh:
                if has_obs:
                    why = f"{t.name} (level {lvl} ground + {obstacle}) rises above the LOS"
                else:
                    why = f"level {lvl} ground rises above the LOS"
            elif has_obs and top2 * n == lh and ha2 <= top2 and hb2 <= top2:
                why = f"{t.name}: a same-level obstacle (top at level {top2 / 2:g})"
            if why:
                out.append(LosHex(h, label(h), step, t.name, lvl, "blocking", 0, why))
                if blocked is None:
                    blocked, reason = step, f"{label(h)}: {why}"
                continue
        dh, whys = _hindrance_at(board, i, lh, n, mx2)
        status = "target" if step == n else ("hindrance" if dh else "clear")
        out.append(LosHex(h, label(h), step, t.name, lvl, status, dh, ", ".join(whys)))
        hind += dh
        if blocked is None and hind >= HINDRANCE_BLOCKS:
            blocked = step
            reason = f"{label(h)}: hindrance total reaches {hind} (6 or more blocks, RD-9)"
    return _Trace(nudge, tuple(out), blocked, hind, reason)


def los(board: Board, a: Hex, b: Hex) -> LosResult:
    """The LOS from ``a`` (the firer) to ``b`` (the target), per RD-9. The scalar reference."""
    n = a.distance(b)
    board.index(a)
    board.index(b)
    if n == 0:
        t = board.terrain_at(a)
        only = LosHex(a, label(a), 0, t.name, int(board.ground[board.index(a)]), "firer")
        return LosResult(a, b, True, 0, 0, None, "same hex", (only,), 1)
    traces = [_trace(board, a, b, +1), _trace(board, a, b, -1)]
    clear = [t for t in traces if t.blocked_step is None]
    if clear:
        best = min(clear, key=lambda t: t.hindrance)  # min() keeps the first (+1) on a tie
        why = "clear" if best.hindrance == 0 else f"clear, hindrance +{best.hindrance} (Case R)"
        return LosResult(a, b, True, n, best.hindrance, None, why, best.hexes, best.nudge)
    best = max(traces, key=lambda t: t.blocked_step or 0)
    blocker = best.hexes[best.blocked_step].hex if best.blocked_step is not None else None
    return LosResult(a, b, False, n, best.hindrance, blocker, best.reason, best.hexes, best.nudge)
