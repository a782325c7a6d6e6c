"""The plain view state a map view draws from (who is looking, the selection, the hover, the
message, the last shot's banner): values a controller sets, no pygame, no engine internals."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.events import Event
from game.engine.play.paths import Route
from game.rules.words import outcome_words
from game.session import Table


@dataclass(frozen=True)
class ShotBanner:
    """The last shot on the map: from the firer's hex to the target's, its dice and result;
    it lasts until the action after the shot (``at``: the action count at the shot)."""

    firer_hex: str
    target_hex: str
    text: str
    at: int


@dataclass
class ViewState:
    """What the map view draws besides the game: plain values a controller sets."""

    viewer: str | None = None
    """The side at the screen (None: both sides, the replay's view; in play: nobody yet)."""
    selected: str | None = None
    hover_hex: str | None = None
    mouse: tuple[int, int] = (0, 0)
    message: str = ""
    """The phase bar's message (a refusal's reason, "saved ..."); empty: the hint."""
    dragging: str | None = None
    """The unit whose counter is being dragged to a set-up hex (HX-12)."""
    banner: ShotBanner | None = None
    ammo: dict[str, str] = field(default_factory=dict)
    """The ammunition chosen per unit (``r``); the odds, the fire map and the shot use it."""
    bore_sight_mode: bool = False
    """The next click Bore Sights a hex (C6.42)."""
    route: Route | None = None
    """A path move shown (a distant hex clicked once): its steps, hexes and MP; a second click
    on its last hex moves along it. ``route_at``: the action count it was planned at."""
    route_at: int = -1
    route_on: tuple[str, str] | None = None
    """A path move stopped for Defensive First Fire: (unit, goal); one click on the goal goes on."""


def shot_banner(event: Event, knows: Table, at: int) -> ShotBanner | None:
    """The banner of a fire event as the side may read it (a miss at a "?" names its hex)."""
    if event.kind != "fire":
        return None
    d = event.data
    dr = d["dr"]
    dice = f"{dr['white']}+{dr['colored']}" if dr else ""
    target_hex = d.get("target_hex") or knows.where(d["target"])
    kill = next(  # the To Kill roll that decided a hit (C7): "HIT 3+2: no effect" hid it
        (s["dice"] for s in d.get("steps", ()) if "TK DR" in s["what"] and len(s["dice"]) == 2),
        None,
    )
    tk = d.get("tk") or {}
    if kill and tk.get("final") is not None:
        dice += f", TK {kill[0]}+{kill[1]} vs {tk['final']}"
    text = f"{'HIT' if d['hit'] else 'MISS'} {dice}: {outcome_words(d['outcome'])}"
    return ShotBanner(knows.where(d["firer"]), target_hex, text, at)
