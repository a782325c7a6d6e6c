"""The start screen: the shipped scenarios (title, size, rules system, turns, briefing, victory
conditions), "Resume" for the newest autosave, "Load" for any scenario or save, and the strict
hotseat preference. Opening a file is :mod:`game.ui.scenes.opening`."""

from __future__ import annotations

import html
import re
import time
from pathlib import Path

import pygame
import pygame_gui

from game.ai import LEVELS
from game.files.savegame import SaveError
from game.files.scenario import Scenario, ScenarioError, load_scenario
from game.files.shipped import shipped_scenarios
from game.ui.map.render import FONTS
from game.ui.panel.parts import wrap
from game.ui.prefs import newest_draft, newest_save
from game.ui.scenes.filedialog import HEXFIRE_FILES, FileDialog
from game.ui.scenes.opening import error_dialog, one_line, open_path, start_scenario, watch_path
from game.ui.scenes.routes import Edit, OpenEditor, Push
from game.ui.scenes.stack import Scene
from game.ui.start.online import OnlinePanel
from game.ui.style import style

_READ: dict[Path, tuple[tuple[int, int], Scenario | None, str]] = {}
"""The shipped scenarios as read, by path, with the file's (mtime, size) then: the start screen
is built again each time it is shown, and reading them all (a 200 x 200 map among them) took
185 ms on the window's thread, over a second behind a storm of input and a game loading.
Scenarios are frozen and their boards' arrays read-only: a game copies what it changes."""


def read_shipped(path: Path) -> tuple[Scenario | None, str]:
    """A shipped scenario read (or why not), once while its file is unchanged."""
    try:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (-1, -1)
    kept = _READ.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1], kept[2]
    try:
        got: tuple[Scenario | None, str] = (load_scenario(path), "")
    except ScenarioError as e:
        got = (None, one_line(e))
    _READ[path] = (stamp, *got)
    return got


def _game_name(save: Path) -> str:
    """A save's name as the Resume tooltip gives it: the scenario's file name without the
    autosave's time stamp (the tooltip broke the long name with hyphens); the time is said
    beside it."""
    return re.sub(r"-\d{8}-\d{6}(-\d+)?$", "", save.stem) or save.stem


def _where_a_newcomer_starts(entry: tuple[Path, Scenario | None, str]) -> tuple:
    """The lessons first, in their order, then the tutorial, then by file name."""
    path, sc, _ = entry
    number = sc.lesson.number if sc is not None and sc.lesson is not None else 1000
    return (number, "tutorial" not in path.stem, path.name)


class StartScene(Scene):
    """Choose a scenario, resume, or load."""

    def __init__(self) -> None:
        self.scenarios: list[tuple[Path, Scenario | None, str]] = []
        for p in shipped_scenarios():
            self.scenarios.append((p, *read_shipped(p)))
        self.scenarios.sort(key=_where_a_newcomer_starts)
        self.level = 2
        """The computer's level for a game against it (the level button cycles it)."""
        self.chosen = -1
        """The scenario picked (-1: none yet; the first lesson not done is offered)."""
        self.file_dialog: FileDialog | None = None
        self.watching = False
        self.online: OnlinePanel | None = None
        """The "Play online" panel (made when first opened; kept while the screen rebuilds)."""

    def enter(self) -> None:
        if self.chosen < 0:
            self.chosen = self.first_to_play()
            self.level = min(self.app.prefs.computer_level, len(LEVELS) - 1)
        ui = self.app.ui
        w, h = self.app.size
        width = (w - 60 - 4 * 16) // 5

        def slot(i: int) -> pygame.Rect:
            return pygame.Rect(30 + i * (width + 16), h - 130, width, 44)

        names: list[str | tuple[str, str]] = list(self.names())
        self.list = pygame_gui.elements.UISelectionList(
            pygame.Rect(30, 110, 420, min(44 * len(names) + 10, h - 320)),
            names,
            ui,
            default_selection=names[self.chosen] if names else None,
        )
        self.play = pygame_gui.elements.UIButton(slot(0), "Play this scenario", ui)
        newest = newest_save(self.app.save_dir)
        self.newest = newest
        self.resume = pygame_gui.elements.UIButton(
            slot(1),
            "Resume",
            ui,
            tool_tip_text=(
                f"{html.escape(_game_name(newest))}, saved "
                f"{time.strftime('%d %b %H:%M', time.localtime(newest.stat().st_mtime))} "
                "(the newest; Load... opens any other)"
                if newest
                else f"no saved game yet in {html.escape(str(self.app.save_dir))}"
            ),
        )
        if newest is None:
            self.resume.disable()
        self.load = pygame_gui.elements.UIButton(slot(2), "Load... (Ctrl+O)", ui)
        self.strict = pygame_gui.elements.UIButton(
            slot(3),
            self._strict_text(),
            ui,
            tool_tip_text="Also hand over before every Defensive First Fire prompt, so the "
            "moving player never sees the defender's concealed units",
        )
        self.watch = pygame_gui.elements.UIButton(
            slot(4),
            "Replay a save...",
            ui,
            tool_tip_text="Watch a saved game action by action (hexfire watch)",
        )
        self.vs: dict[str, pygame_gui.elements.UIButton] = {}
        self.level_button: pygame_gui.elements.UIButton | None = None
        _, sc, _ = self.scenarios[self.chosen] if self.scenarios else (None, None, None)
        if sc is not None:  # against the computer (docs/ai.md); a lesson is played as written
            lesson = sc.lesson is not None
            self.level_button = pygame_gui.elements.UIButton(
                pygame.Rect(30 + 2 * (width + 16), h - 196, width, 44),
                "Computer: pick a scenario" if lesson else self._level_text(),
                ui,
                tool_tip_text="The computer's level (click to change): 0 random legal play, "
                "1 a scorer of each decision on the exact odds and the threat map, 2 that and a "
                "search over every hex each vehicle can reach, 3 that and a look ahead: it "
                "plays its turn out under a few plans before it moves",
            )
            for i, side in enumerate(sc.setup.sides):
                self.vs[side] = pygame_gui.elements.UIButton(
                    pygame.Rect(30 + i * (width + 16), h - 196, width, 44),
                    f"Play {side.title()} vs computer",
                    ui,
                    tool_tip_text=f"You play {html.escape(side.title())}; the computer plays the "
                    "other side (level 2: it weighs the exact odds and the threat to each hex, "
                    "and sees only what its side may know)",
                )
            if lesson:  # shown, so that a newcomer on the lessons knows the computer is there
                for button in (self.level_button, *self.vs.values()):
                    button.disable()
        self.edit_button = pygame_gui.elements.UIButton(
            pygame.Rect(30 + 3 * (width + 16), h - 196, width, 44),
            "Edit this scenario",
            ui,
            tool_tip_text="The scenario editor on a copy of it, saved in the data folder's "
            "scenarios: paint the map, place the units, save the TOML (docs/editor.md)",
        )
        self.new_button = pygame_gui.elements.UIButton(
            pygame.Rect(w - 30 - width, 24, width, 44),
            "New scenario",
            ui,
            tool_tip_text="The scenario editor on a blank 20 x 12 map (hexfire edit)",
        )
        self.draft = newest_draft(self.app.save_dir)
        self.draft_button = pygame_gui.elements.UIButton(
            pygame.Rect(w - 46 - 2 * width, 24, width, 44),
            "Resume draft",
            ui,
            tool_tip_text=(
                f"The editor's unsaved work on {html.escape(self.draft[0].stem)}, kept "
                f"{time.strftime('%d %b %H:%M', time.localtime(self.draft[0].stat().st_mtime))}"
                if self.draft
                else "No unsaved work of the scenario editor is kept"
            ),
        )
        if self.draft is None:
            self.draft_button.disable()
        self.online_button = pygame_gui.elements.UIButton(
            pygame.Rect(30 + 4 * (width + 16), h - 196, width, 44),
            "Play online...",
            ui,
            tool_tip_text="Create a game on a server (hexfire serve), join one by its link, or "
            "open a game this machine holds the link of",
        )
        if self.online is not None:
            self.online.build(pygame.Rect(480, 96, w - 510, h - 236))
        self.widgets = [
            self.list,
            self.edit_button,
            self.new_button,
            self.draft_button,
            self.online_button,
            self.play,
            self.resume,
            self.load,
            self.strict,
            self.watch,
            *self.vs.values(),
            *([self.level_button] if self.level_button is not None else []),
        ]

    def _level_text(self) -> str:
        return f"Computer level: {self.level} ({LEVELS[self.level]})"

    def first_to_play(self) -> int:
        """Where a player picks up: the first lesson not done yet, else the first scenario
        after the lessons (the tutorial duel)."""
        names = self.names()
        for i, (_, sc, _) in enumerate(self.scenarios):
            if sc is not None and sc.lesson is None:
                return i
            if sc is not None and not names[i].endswith("(done)"):
                return i
        return 0

    def names(self) -> list[str]:
        """The list's lines: each scenario's title, a lesson done marked so."""
        out = []
        for p, sc, _ in self.scenarios:
            if sc is None:
                out.append(f"{p.stem} (invalid)")
            elif sc.lesson is not None and self.app.prefs.lessons.get(sc.lesson.id, 0) >= len(
                sc.lesson.steps
            ):
                out.append(f"{sc.title}  (done)")
            else:
                out.append(sc.title)
        return out

    def resume_failed(self, error: Exception) -> None:
        """The newest save cannot be resumed: why, and the way to any other (Load)."""
        message = f"{one_line(error)} Load... (Ctrl+O) opens any other save."
        error_dialog(self.app, SaveError(message), "Cannot resume this game")

    def _strict_text(self) -> str:
        return f"Strict hotseat: {'on' if self.app.prefs.strict_hotseat else 'off'}"

    def rebuild(self) -> None:
        """The widgets anew (the online panel changed)."""
        self.leave()
        self.enter()

    def leave(self) -> None:
        for w in self.widgets:
            w.kill()
        if self.online is not None:
            self.online.kill()
        if self.file_dialog is not None:
            self.file_dialog.kill()
            self.file_dialog = None

    def handle(self, event: pygame.event.Event) -> None:
        if self.online is not None and self.online.handle(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.online_button:
            self.online = self.online or OnlinePanel(self)
            self.online.show()
            self.rebuild()
        elif event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is (
            self.list
        ):
            names = self.names()
            if event.text in names and names.index(event.text) != self.chosen:
                self.chosen = names.index(event.text)
                self.leave()  # the buttons against the computer name this scenario's sides
                self.enter()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION:
            self.start()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            self.pressed(event.ui_element)
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.file_dialog = None
            if self.watching:
                watch_path(self.app, Path(event.text))
            else:
                open_path(self.app, Path(event.text))
        elif event.type == pygame.KEYDOWN:
            if self.file_dialog is not None and self.file_dialog.alive():
                return  # the dialog's keys (Enter in it started a game; Up / Down closed it)
            if self.online is not None and self.online.typing():
                return  # the online panel's text: its keys
            if event.key == pygame.K_o and event.mod & pygame.KMOD_CTRL:
                self.open_dialog()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start()
            elif event.key in (pygame.K_DOWN, pygame.K_UP):
                step = 1 if event.key == pygame.K_DOWN else -1
                self.chosen = max(0, min(len(self.scenarios) - 1, self.chosen + step))
                self.leave()  # the list shows the choice
                self.enter()

    def pressed(self, element) -> None:
        """A button of the screen pressed."""
        versus = [side for side, b in self.vs.items() if element is b]
        if self.level_button is not None and element is self.level_button:
            self.level = (self.level + 1) % len(LEVELS)
            self.level_button.set_text(self._level_text())
            self.app.prefs.computer_level = self.level  # offered again next time
            self.app.prefs.try_save()
        elif versus:
            self.start(against_computer_as=versus[0])
        elif element is self.play:
            self.start()
        elif element is self.edit_button and self.scenarios:
            self.edit_copy(self.scenarios[self.chosen][0])
        elif element is self.new_button:
            self.open_editor(Edit(None))
        elif element is self.draft_button and self.draft is not None:
            draft, target = self.draft
            try:
                text = draft.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                error_dialog(self.app, e, "The draft could not be read")
                return
            self.open_editor(Edit(target, text))
        elif element is self.resume and self.newest:
            open_path(self.app, self.newest, in_place=True, failed=self.resume_failed)
        elif element is self.load:
            self.open_dialog()
        elif element is self.watch:
            self.open_dialog(watch=True)
        elif element is self.strict:
            self.app.prefs.strict_hotseat = not self.app.prefs.strict_hotseat
            self.strict.set_text(self._strict_text())
            try:
                self.app.prefs.save()
            except (SaveError, OSError) as e:  # a full or read-only folder: this session
                error_dialog(self.app, e, "The preference holds until you close hexfire")

    def open_editor(self, edit: Edit) -> None:
        """The scenario editor, its document read, drawn and checked behind a loading screen
        (off the window's thread: 1.4 s on the four-board map at load 3, issue 44); a file it
        cannot open (its map unreadable): why, in a dialog."""
        app = self.app
        app.go(Push(OpenEditor(edit, lambda e: error_dialog(app, e, "Cannot edit this scenario"))))

    def edit_copy(self, shipped: Path) -> None:
        """The editor on a copy of a shipped scenario (saved to the data folder's scenarios:
        the shipped file stays as it is)."""
        try:
            text = shipped.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            error_dialog(self.app, e, "The scenario could not be read")
            return
        target = self.app.scenario_dir / shipped.name
        self.open_editor(Edit(target, text if not target.exists() else None))

    def open_dialog(self, watch: bool = False) -> None:
        self.watching = watch
        if self.file_dialog is not None:  # one at a time (a second stayed over the first)
            self.file_dialog.kill()
        self.file_dialog = FileDialog(
            pygame.Rect(self.app.size[0] // 2 - 260, 80, 520, 460),
            self.app.ui,
            "Replay a save (.json)" if watch else "Load a scenario (.toml) or a save (.json)",
            Path(self.app.save_dir),
            existing_only=True,
            suffixes=(".json",) if watch else HEXFIRE_FILES,
        )

    def start(self, against_computer_as: str | None = None) -> None:
        path, sc, _ = self.scenarios[self.chosen]
        if sc is not None and against_computer_as is not None:
            other = next(s for s in sc.setup.sides if s != against_computer_as)
            start_scenario(self.app, sc, computer={"side": other, "level": self.level})
        elif sc is not None:
            start_scenario(self.app, sc)
        else:
            open_path(self.app, path)

    def draw(self, surface: pygame.Surface) -> None:
        st = style()
        surface.fill(st.ui["background"])
        w, h = surface.get_size()
        t = FONTS.get(52, bold=True).render("hexfire", True, st.ui["select"])
        surface.blit(t, (30, 24))
        words = (
            "Tanks and anti-tank guns on the rules of ASL (C6, C7) and "
            "Valor & Victory: against the computer, two at one screen, or online."
        )
        for size in (22, 19, 16):  # a narrow window: smaller, whole
            t = FONTS.get(size).render(words, True, st.ui["dim"])
            if t.get_width() <= w - 60:
                break
        surface.blit(t, (30, 72))
        if not self.scenarios:
            return
        path, sc, error = self.scenarios[self.chosen]
        x = 480
        rect = pygame.Rect(x, 110, w - x - 30, h - 320)
        pygame.draw.rect(surface, st.ui["panel"], rect, border_radius=6)
        f = FONTS.get(20)
        y = rect.top + 12

        def line(text: str, color=None, bold: bool = False) -> None:
            nonlocal y
            font = FONTS.get(20, bold=bold) if bold else f
            for part in wrap(
                text, font, rect.width - 28, hang=""
            ):  # a narrow window: wrapped, not cut
                if y > rect.bottom - 22:
                    return
                surface.blit(font.render(part, True, color or st.ui["text"]), (rect.left + 14, y))
                y += 22

        if sc is None:
            line(path.name, bold=True)
            line(error, st.ui["bad"])
            return
        s = sc.setup
        line(sc.title, st.ui["select"], bold=True)
        line(
            f"{s.board.columns} x {s.board.rows} hexes, {len(s.units)} units, {s.turns} turns; "
            f"To Kill: {'ASL C7 tables' if s.to_kill == 'asl' else 'Armor Elimination Chart'}",
            st.ui["dim"],
        )
        line(
            f"{s.first.title()} moves first; {s.defender.title()} is the scenario defender",
            st.ui["dim"],
        )
        y += 8
        for para in sc.briefing.strip().split("\n\n"):  # its paragraphs, wrapped to the panel
            line(" ".join(para.split()))
        y += 8
        line("Victory conditions (RD-13):", bold=True)
        for v in s.victory:
            line(f"  {v.describe()}")
        line(f"  otherwise at the end of turn {s.turns}: {s.defender} wins (HX-11)")
