"""``hexfire bench soak``: the window, headless, under seeded random input for a while (issue 44,
item 7): clicks on the map and on the widgets shown, keys from the bindings table
(``data/bindings.toml``), wheel turns, pointer moves and window resizes, posted to pygame's
event queue and taken off it by the window's own loop (:meth:`.App.run`'s steps: every event to
:meth:`.App.handle`, then a frame, paced at the scene's rate). A window the input closed, or one
left away from a game (the game ended, the input wandered to another screen) for
:data:`OFF_PLAY_PASSES` passes, starts the next game in the same process.

It prints the process's resident memory at the start, after each minute and at the end, the
frames' times (the work of one pass of the loop: its events, the frame, the flip) and, at the
end, the largest holders of what was allocated after the warm-up and is still kept
(``tracemalloc``, by file:line). ``burst``: the events posted before each frame (1: a player;
more: a storm that comes faster than frames)."""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

from game.ui.bench import held
from game.ui.bench.held import holders as _holders
from game.ui.bench.held import live_surfaces, rss_mib, theme_id_keys_kib, trimmed_rss_mib

WARM_UP_S = 120.0
"""The warm-up: what the first minutes fill (fonts, the caches' first rows) is not growth."""
WARM_UP_SHARE = 10
"""A run bounded by events warms up over the first tenth of them at most (a storm's)."""
GOALS = {"left_behind_mib": "< 50"}
"""Issue 44: what random input may leave behind (the RSS once trimmed, with the same screen
open: :meth:`Soak.alone`) once the first minutes have filled the caches."""
SKIPPED_KEYS = ("ctrl+q",)
"""Keys the random input does not press: quitting ends the process in a real window."""
OFF_PLAY_PASSES = 600
"""Passes of the loop away from a game (the input wandered to the start screen, a lesson, the
replay viewer) before the next game starts."""
SLOWEST = 5
"""The slowest passes described (their screens, events, and the work off the window's thread)."""
WORK_WAIT_S = 180.0
"""How long :meth:`Soak.alone` waits for the work of the loading screens it closed (a game
being built stops at its next step, a 200 x 200 map's only once built) before it reads."""
SIZES = ((960, 640), (1280, 800), (1600, 900), (1920, 1080))
"""Window sizes a resize picks among (a few ordinary ones, as a player drags the window to)."""


def binding_keys() -> list[tuple[int, int, str]]:
    """(key code, modifiers, text typed) of every key the bindings table names, less
    :data:`SKIPPED_KEYS`."""
    import pygame

    from game.ui.bindings import bindings

    out = []
    for spec in sorted({k for b in bindings() for k in b.keys} - set(SKIPPED_KEYS)):
        name = spec.removeprefix("ctrl+")
        mod = pygame.KMOD_CTRL if spec.startswith("ctrl+") else 0
        out.append((pygame.key.key_code(name), mod, name if len(name) == 1 and not mod else ""))
    return out


class RandomInput:
    """Seeded random events as a restless player makes them."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.keys = binding_keys()

    def events(self, app) -> list:
        """One player's gesture: a click (on a widget shown or anywhere), a key, a wheel turn,
        a pointer move or a resize."""
        import pygame

        rng = self.rng
        w, h = app.size
        kind = rng.random()
        if kind < 0.45:
            pos = self._widget_spot(app) if rng.random() < 0.35 else None
            pos = pos or (rng.randrange(w), rng.randrange(h))
            button = rng.choice((1, 1, 1, 3))
            return [
                pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
            ]
        if kind < 0.6:
            pos = (rng.randrange(w), rng.randrange(h))
            return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0))]
        if kind < 0.67:
            y = rng.choice((-1, 1))
            return [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_y=y)]
        if kind < 0.68:
            size = rng.choice(SIZES)
            return [pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)]
        code, mod, text = rng.choice(self.keys)
        return [
            pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, scancode=0, unicode=text),
            pygame.event.Event(pygame.KEYUP, key=code, mod=mod, scancode=0, unicode=text),
        ]

    def _widget_spot(self, app) -> tuple[int, int] | None:
        """The centre of a widget shown (a button, a list row, the log), if any."""
        shown = [
            e.rect.center
            for e in app.ui.get_sprite_group().sprites()
            if getattr(e, "visible", False) and e.rect.width > 0 and e.rect.height > 0
        ]
        return self.rng.choice(shown) if shown else None


@dataclass
class Figures:
    """What a soak measured."""

    rss: list[tuple[float, float]] = field(default_factory=list)
    """(seconds since the start, MiB)."""
    frames: list[float] = field(default_factory=list)
    """Each pass of the loop's work, seconds."""
    events: int = 0
    games: int = 0
    actions: int = 0
    """The actions the input made the games apply (legal ones: the screen offers no other)."""
    trimmed: float | None = None
    """The end's RSS once freed memory went back to the system (:func:`trimmed_rss_mib`)."""
    worst: str = ""
    """The slowest pass: the scene on top after it and the kinds of its events."""
    warm: tuple[float, float] | None = None
    """(seconds, MiB) when the warm-up ended."""
    surfaces: dict[str, tuple[int, float]] = field(default_factory=dict)
    """``warm``/``end``: :func:`live_surfaces` then; ``alone_*``: with the soak's game alone."""
    slowest: list[tuple[float, str]] = field(default_factory=list)
    """The :data:`SLOWEST` slowest passes: (seconds, what they were)."""
    warm_trimmed: float | None = None
    alone: dict[str, float | None] = field(default_factory=dict)
    """``warm``/``end``: what is kept with the soak's own game alone open (:meth:`Soak.alone`)."""
    trimmed_minutes: list[float | None] = field(default_factory=list)
    """Each minute's RSS once freed memory went back (:func:`trimmed_rss_mib`, outside the
    passes' times): what is kept, not what the allocator holds (the window's own trims
    come only when its screen changes, so the untrimmed RSS swings with the screens)."""
    work_waited: dict[str, float] = field(default_factory=dict)
    """``warm``/``end``: seconds :meth:`Soak.alone` waited for closed loading screens' work."""
    holders: list[str] | None = None
    """What was kept since the warm-up, by line (:func:`.held.holders`), read at the end."""
    tracemalloc_mib: float | None = None
    """What tracing itself held at the end (let go before the end's kept RSS is read)."""
    owners: dict[str, list[str]] = field(default_factory=dict)  # by alone's reading: who holds


def _new_game(app, scenario, seed: int):
    from game.files.session import new_game
    from game.ui.play.screen import PlayScene

    session = new_game(scenario, seed, app.save_dir / f"soak-{seed}.json")
    app.running = True
    play = PlayScene(session, scenario.title)
    app.replace(play)
    return play


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _wait_for_work(timeout: float) -> float:
    """Wait for the threads of loading screens (:class:`.LoadingScene`: ``hexfire-open``) to
    end, ``timeout`` seconds at most; the seconds waited. What a closed screen's work holds
    until it stops is not what the window keeps (a 200 x 200 game half built: 300 MiB)."""
    import threading

    t0 = time.perf_counter()
    for t in threading.enumerate():
        if t.name == "hexfire-open":
            t.join(max(0.0, timeout - (time.perf_counter() - t0)))
    return round(time.perf_counter() - t0, 1)


class Soak:
    """One run: the window, the input and the figures."""

    def __init__(self, scenario_name: str, seed: int, size: tuple[int, int], data: Path):
        from game.files.scenario import load_scenario
        from game.files.shipped import scenarios_dir
        from game.ui.screens import window

        self.scenario = load_scenario(scenarios_dir() / f"{scenario_name}.toml")
        self.seed = seed
        self.app = window(size, data / "saves", headless=True)
        self.size = size
        self.input = RandomInput(seed)
        self.fig = Figures()
        self.off_play = 0
        self.saved = None
        """The save of the game the soak started last (its actions counted when the next
        starts): not its screen, which would keep a closed game in memory."""
        self.burst, self.warm_up = 1, WARM_UP_S
        self.trims = True
        self.top = 12
        """The holders of what was kept since the warm-up described (:func:`_holders`)."""

    def _count_actions(self) -> None:
        if self.saved is not None:
            self.fig.actions += len(self.saved.actions)

    def _start_game(self) -> None:
        self._count_actions()
        self.saved = _new_game(self.app, self.scenario, self.seed + self.fig.games).session.saved
        self.fig.games += 1

    def _pass(self, burst: int) -> None:
        """Post ``burst`` gestures' events, then one pass of :meth:`.App.run`'s loop."""
        import pygame

        app = self.app
        for _ in range(burst if not app.backlog else 0):  # the storm comes as the window takes it
            for event in self.input.events(app):
                pygame.event.post(event)
        dt = app.clock.tick(app.frame_rate()) / 1000.0
        before = type(app.scene).__name__ if app.scenes else "-"
        t0 = time.perf_counter()
        queued = [e for e in (*app.backlog, *pygame.event.get()) if e.type != pygame.NOEVENT]
        app.backlog.clear()
        done = app.take(queued)  # the window's own budget a pass (EVENT_BUDGET_S)
        kinds = [pygame.event.event_name(e.type) for e in queued[:done]]
        self.fig.events += done
        t1 = time.perf_counter()
        if app.dirty or app.ui_animating():
            app.dirty = False
            app.frame(dt)
            pygame.display.flip()
        took = time.perf_counter() - t0
        where = type(app.scene).__name__ if app.scenes else "-"
        if took > max(self.fig.frames, default=0.0):
            self.fig.worst = f"{where}: {', '.join(sorted(set(kinds))) or 'a frame alone'}"
        self.fig.frames.append(took)
        self._note_slow(took, t1 - t0, before, where, len(kinds))
        from game.ui.play.screen import PlayScene

        on_play = app.running and any(isinstance(s, PlayScene) for s in app.scenes)
        self.off_play = 0 if on_play else self.off_play + 1
        if not app.scenes or not app.running or self.off_play > OFF_PLAY_PASSES:
            self._start_game()

    def alone(self, when: str) -> None:
        """Every screen closed, the window at its first size and the soak's own game started
        afresh (a frame drawn), then what is kept: the same screen open at the warm-up's end
        and at the end, so the difference is what the input left behind, not what the screens
        open at that moment need (a 200 x 200 map in the editor, a replay). At the end tracing
        stops first (what it kept read): it was off at the warm-up's end."""
        import pygame

        app = self.app
        app.close_all()
        self.fig.work_waited[when] = _wait_for_work(WORK_WAIT_S)
        w, h = self.size
        app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
        self._start_game()
        self.fig.games -= 1  # (a game the input did not play)
        app.frame(0.0)
        app.draw_owed()  # the whole map, as before the play screen's tile budget
        if when == "end" and tracemalloc.is_tracing():
            # tracing's own memory (its traces: 15 MiB after 20 minutes) is not the input's
            self.fig.tracemalloc_mib = round(tracemalloc.get_tracemalloc_memory() / 2**20, 1)
            self.fig.holders = _holders(self.top)
            tracemalloc.stop()
        self.fig.alone[when] = trimmed_rss_mib() if self.trims else None
        self.fig.surfaces[f"alone_{when}"] = live_surfaces()  # what of them is kept
        self.fig.owners[when] = held.surface_owners()  # and who holds them

    def _note_slow(self, took: float, events_s: float, before: str, after: str, n: int) -> None:
        """Keep the pass among the :data:`SLOWEST` if it is: its screens, its events' time
        and its frame's, and the threads working beside the window's."""
        import threading

        slowest = self.fig.slowest
        if len(slowest) >= SLOWEST and took <= slowest[-1][0]:
            return
        others = sorted(
            t.name for t in threading.enumerate() if t is not threading.current_thread()
        )
        text = (
            f"{took * 1000:,.0f} ms: {before} -> {after}, {n} events "
            f"({events_s * 1000:,.0f} ms), the frame {(took - events_s) * 1000:,.0f} ms"
            + (f"; beside it: {', '.join(others)}" if others else "")
        )
        slowest.append((took, text))
        slowest.sort(key=lambda x: -x[0])
        del slowest[SLOWEST:]

    def run(self, seconds: float, events: int, burst: int, say, warm_up: float = WARM_UP_S) -> None:
        """Until ``seconds`` have passed or ``events`` were handled; ``say`` gets a line a
        minute; the warm-up ends after ``warm_up`` seconds (or the first
        :data:`WARM_UP_SHARE`-th of ``events``)."""
        self._start_game()
        t0 = time.perf_counter()
        self.burst, self.warm_up = burst, warm_up
        self.fig.rss.append((0.0, rss_mib()))
        say(f"start: {self.fig.rss[0][1]} MiB")
        next_minute = 60.0
        while True:
            now = time.perf_counter() - t0
            if now >= seconds or self.fig.events >= events:
                break
            if self.fig.warm is None and (
                now >= warm_up or self.fig.events >= events // WARM_UP_SHARE
            ):
                self.alone("warm")
                self.fig.warm = (now, rss_mib())
                self.fig.warm_trimmed = trimmed_rss_mib() if self.trims else None
                self.fig.surfaces["warm"] = live_surfaces()
                tracemalloc.start()
            if now >= next_minute:
                self.fig.rss.append((now, rss_mib()))
                kept = trimmed_rss_mib() if self.trims else None
                self.fig.trimmed_minutes.append(kept)
                say(
                    f"{now / 60:5.1f} min: {self.fig.rss[-1][1]} MiB"
                    + (f" ({kept} once trimmed)" if kept is not None else "")
                    + f", {self.fig.events} events"
                )
                next_minute += 60.0
            self._pass(burst)
        self.fig.rss.append((time.perf_counter() - t0, rss_mib()))
        self.fig.surfaces["end"] = live_surfaces()
        self.fig.trimmed = trimmed_rss_mib()
        self.alone("end")
        self._count_actions()

    def figures(self, top: int) -> dict:
        """The figures, once :meth:`run` has run."""
        fig = self.fig
        (t_end, end), start = fig.rss[-1], fig.rss[0][1]
        out: dict = {
            "scenario": self.scenario.title,
            "seed": self.seed,
            "burst": self.burst,
            "warm_up_s": self.warm_up,
            "minutes": round(t_end / 60, 2),
            "events": fig.events,
            "frames": len(fig.frames),
            "games": fig.games,
            "actions": fig.actions,
            "start_rss_mib": start,
            "end_rss_mib": end,
            "end_rss_trimmed_mib": fig.trimmed,
            "window_trims": self.trims,
        }
        for when, (count, mib) in fig.surfaces.items():
            out[f"surfaces_{when}"] = count
            out[f"surface_mib_{when}"] = mib
        out["theme_id_keys_kib_end"] = theme_id_keys_kib(self.app)
        out.update({f"surface_owners_alone_{w}": o for w, o in fig.owners.items()})
        if fig.warm is not None:
            minutes = (t_end - fig.warm[0]) / 60
            out["warm_rss_mib"] = fig.warm[1]
            out["growth_after_warm_up_mib"] = round(end - fig.warm[1], 1)
            out["growth_per_minute_after_warm_up_mib"] = (
                round((end - fig.warm[1]) / minutes, 2) if minutes > 0 else None
            )
            if fig.warm_trimmed is not None and fig.trimmed is not None:
                out["warm_rss_trimmed_mib"] = fig.warm_trimmed
                out["kept_growth_after_warm_up_mib"] = round(fig.trimmed - fig.warm_trimmed, 1)
            warm_alone, end_alone = fig.alone.get("warm"), fig.alone.get("end")
            if warm_alone is not None and end_alone is not None:
                out["alone_warm_mib"], out["alone_end_mib"] = warm_alone, end_alone
                out["left_behind_mib"] = round(end_alone - warm_alone, 1)
            out["work_waited_s"] = fig.work_waited
            if fig.holders is None and tracemalloc.is_tracing():
                fig.tracemalloc_mib = round(tracemalloc.get_tracemalloc_memory() / 2**20, 1)
                fig.holders = _holders(top)
                tracemalloc.stop()
            out["tracemalloc_own_mib"] = fig.tracemalloc_mib
            out["kept_since_warm_up"] = fig.holders or []
        out["rss_each_minute_mib"] = [mib for _, mib in fig.rss[1:-1]]
        if any(m is not None for m in fig.trimmed_minutes):
            out["rss_trimmed_each_minute_mib"] = fig.trimmed_minutes
        for name, q in (("p50", 0.5), ("p95", 0.95)):
            out[f"frame_{name}_ms"] = round(_percentile(fig.frames, q) * 1000, 1)
        out["frame_max_ms"] = round(max(fig.frames, default=0.0) * 1000, 1)
        out["frame_max_was"] = fig.worst
        out["slowest_passes"] = [text for _, text in fig.slowest]
        out["goals"] = GOALS
        return out


def bench_soak(
    minutes: float = 20.0,
    events: int = 10**9,
    burst: int = 1,
    seed: int = 1,
    scenario: str = "bagration-4-boards",
    top: int = 12,
    say=None,
    warm_up: float = WARM_UP_S,
    trim: bool = True,
) -> dict:
    """Run a soak and return its figures; ``say`` (default: stderr) gets the minute lines;
    ``warm_up`` 0: what the first minutes fill is traced too; ``trim`` False: the window does
    not give freed memory back when its screen changes (:func:`.memory.release`), to compare."""
    from game.ui.memory import set_trimming

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "disk")
    if say is None:

        def say(line: str) -> None:
            print(line, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="hexfire-soak-data-") as data:
        old = os.environ.get("XDG_DATA_HOME")
        os.environ["XDG_DATA_HOME"] = data  # the player's preferences and saves untouched
        soak: Soak | None = None
        try:
            set_trimming(trim)
            soak = Soak(scenario, seed, (1280, 800), Path(data))
            soak.trims, soak.top = trim, top
            soak.run(minutes * 60, events, burst, say, warm_up)
            return soak.figures(top)
        finally:
            import pygame

            set_trimming(True)
            if soak is not None:
                soak.app.close_all()  # a Balance run the input started ends with the soak
            pygame.display.quit()
            if old is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = old
