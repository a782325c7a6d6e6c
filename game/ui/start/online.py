"""The start screen's "Play online" panel (issue 40; docs/online.md): create a game on a server
as ``hexfire host`` does (the invitation for the other seat shown, selectable to copy), join a
seat by its link as ``hexfire join`` does, and the games this machine holds links for
(``online.json`` in the player's data folder, beside the preferences, written atomically),
each with whose move it is. Every failure is one line in the panel."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

import pygame
import pygame_gui

from game.files.savegame import SaveError, write_atomic
from game.files.scenario import Scenario
from game.files.text import printable, read_regular
from game.net.client import (
    Link,
    LinkError,
    NetError,
    Refusal,
    create_game,
    invitation,
    invitations,
    peek,
)
from game.ui.play.online import NET_EVENT
from game.ui.prefs import data_dir
from game.ui.scenes.routes import Opening, Play, Progress, Push

DEFAULT_SERVER = "ws://127.0.0.1:8765"
"""Where ``hexfire serve`` listens by default (it prints this address)."""
MAX_LINKS_BYTES = 64 * 1024
MAX_LINKS = 50
"""The most games kept (the newest)."""
STATUS_SECONDS = 5.0
"""How long the list waits for a server's answer about one game."""
COMPACT_BELOW = 520
"""A panel lower than this (pixels) lays its rows out lower and closer."""
MESSAGE_H = 62
"""The panel's message: two lines (a server's reason is up to 100 characters)."""
MIN_LIST = 44
"""The list of kept games is at least this high (two lines)."""
STATUS_EVENT = pygame.event.custom_type()
"""Posted when a server answered (or not) about a kept game."""


class OnlineError(ValueError):
    """A server that cannot be reached or refused (one line, for the panel)."""


@dataclass(frozen=True)
class KeptGame:
    """A seat this machine holds the link of: the link, the scenario's title, the side, and
    the invitation of the other seat (empty when joined by a link)."""

    link: str
    title: str
    side: str
    invite: str = ""


def links_path(folder: Path | None = None) -> Path:
    return (folder or data_dir()) / "online.json"


def load_links(folder: Path | None = None) -> tuple[list[KeptGame], str | None]:
    """The kept games, and a one-line message when the file is unusable (then none)."""
    path = links_path(folder)
    try:
        data = read_regular(path, MAX_LINKS_BYTES)
        if len(data) > MAX_LINKS_BYTES:
            raise ValueError(f"larger than {MAX_LINKS_BYTES // 1024} KiB")
        raw = json.loads(data.decode("utf-8"))
        if not isinstance(raw, list):
            raise ValueError("not a JSON list")
        games = [_kept(item) for item in raw[-MAX_LINKS:]]
    except FileNotFoundError:
        return [], None
    except (OSError, ValueError, RecursionError, TypeError) as e:
        why = "nested too deeply" if isinstance(e, RecursionError) else str(e)[:120]
        return [], printable(f"{path.name}: ignored ({why}); no games kept")
    return games, None


def _kept(item: object) -> KeptGame:
    if not isinstance(item, dict):
        raise ValueError("an entry is not an object")
    fields = [item.get(k, "") for k in ("link", "title", "side", "invite")]
    if not all(isinstance(v, str) and len(v) <= 1000 for v in fields):
        raise ValueError("an entry's fields are not short texts")
    Link.parse(fields[0])  # LinkError: a ValueError
    return KeptGame(*fields)


def save_links(games: list[KeptGame], folder: Path | None = None) -> None:
    """Write the kept games atomically (SaveError with the one-line reason)."""
    d = folder or data_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SaveError(f"{d}: cannot keep the links: {e.strerror or e}") from None
    text = json.dumps([asdict(g) for g in games[-MAX_LINKS:]], indent=2) + "\n"
    write_atomic(links_path(d), text, private=True)  # the links are the seats' keys


def whose_move(link: Link, timeout: float = STATUS_SECONDS) -> str:
    """What the seat's server says now: whose move it is (or why it cannot say)."""

    async def ask() -> str:
        welcome = await peek(link, timeout)  # a window open on the seat goes on
        view = welcome.view
        if view.over:
            return "over"
        if view.dff is not None:
            return "your Defensive First Fire"
        if view.acting == welcome.side:
            return "your move"
        return f"{(view.acting or 'the other side').title()}'s move"

    try:
        return asyncio.run(ask())
    except NetError as e:
        return "server not reachable" if "cannot connect" in str(e) else printable(str(e))[-80:]
    except Exception as e:  # anything else the server said: one line, never a crash
        return printable(f"no answer ({type(e).__name__})")


def _ask_statuses(games: list[KeptGame], into: dict[str, str]) -> None:
    """Fill ``into`` (link -> its status) off the window's thread, waking the window each."""
    for g in games:
        try:
            into[g.link] = whose_move(Link.parse(g.link))
        except LinkError as e:
            into[g.link] = str(e)
        try:
            pygame.event.post(pygame.event.Event(STATUS_EVENT))
        except pygame.error:  # the window closed meanwhile
            return


class OnlinePanel:
    """The panel's state (kept while the start screen rebuilds its widgets) and widgets."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.open = False
        self.server = DEFAULT_SERVER
        self.link_text = ""
        self.side = 0
        self.computer: int | None = None
        """The computer's level on the other side (None: a player)."""
        self.message = ""
        self.invite = ""
        self.mine = ""
        self.games, problem = load_links()
        if problem:
            self.message = problem
        if self.games:  # the server of the newest game kept
            self.server = Link.parse(self.games[-1].link).url.rsplit("/game/", 1)[0]
        self.statuses: dict[str, str] = {}
        self.widgets: list = []

    # --- widgets -------------------------------------------------------------------------

    def build(self, rect: pygame.Rect) -> None:
        """The panel's widgets in ``rect`` (when it is open), top to bottom; in a short panel
        (the smallest window, 960 x 640) the rows are lower and closer, so that every widget
        stays whole and inside it, the list of kept games taking what is left."""
        self.kill()
        if not self.open:
            return
        ui = self.scene.app.ui
        self.panel = pygame_gui.elements.UIPanel(rect, manager=ui)
        inner = self.panel.get_container().get_rect()
        w = inner.width - 20
        c = {"manager": ui, "container": self.panel}
        compact = inner.height < COMPACT_BELOW
        label_h, row_h, gap = (22, 28, 4) if compact else (30, 34, 6)
        y = 4

        def label(text: str) -> None:
            nonlocal y
            pygame_gui.elements.UILabel(pygame.Rect(10, y, w, label_h), text, **c)
            y += label_h + gap

        def row(x: int = 0, width: int = w) -> pygame.Rect:
            return pygame.Rect(10 + x, y, width, row_h)

        def next_row() -> None:
            nonlocal y
            y += row_h + gap

        half = (w - 10) // 2
        button, entry = pygame_gui.elements.UIButton, pygame_gui.elements.UITextEntryLine

        def left() -> pygame.Rect:
            return row(width=half)

        def right() -> pygame.Rect:
            return row(half + 10, w - half - 10)

        label("Create a game on a server (hexfire serve):")
        self.server_entry = entry(row(), initial_text=self.server, **c)
        next_row()
        sides = self.sides()
        mine = f"I play {sides[self.side % len(sides)].title()}" if sides else "-"
        self.side_button = button(left(), mine, **c)
        self.computer_button = button(right(), self._computer_text(), **c)
        next_row()
        self.create = button(left(), "Create game", **c)
        self.open_mine = button(right(), "Open my seat", **c)
        next_row()
        if not sides:
            for b in (self.side_button, self.computer_button, self.create):
                b.disable()
        if not self.mine:
            self.open_mine.disable()
        label("Invitation for the other seat (select, Ctrl+C):")
        self.invite_entry = entry(row(), initial_text=self.invite, **c)
        next_row()
        if not compact:  # (a short panel: the entry's own placeholder says it)
            label("Join a seat by its link:")
        paste = "Join a seat: paste its link here"
        self.link_entry = entry(
            row(width=w - 100), initial_text=self.link_text, placeholder_text=paste, **c
        )
        self.join = button(row(w - 90, 90), "Join", **c)
        next_row()
        label("Games this machine holds links for:")
        bottom = inner.height - 4 - row_h - gap - MESSAGE_H - gap  # the message, the buttons
        self.list = pygame_gui.elements.UISelectionList(
            pygame.Rect(10, y, w, max(MIN_LIST, bottom - y)), self.lines(), **c
        )
        y = max(bottom, y + MIN_LIST) + gap
        self.message_label = pygame_gui.elements.UITextBox(
            html.escape(self.message), pygame.Rect(10, y, w, MESSAGE_H), **c
        )
        y += MESSAGE_H + gap
        self.close = button(left(), "Close", **c)
        self.refresh = button(right(), "Refresh the list", **c)
        self.widgets = [self.panel]

    def kill(self) -> None:
        for widget in self.widgets:
            widget.kill()
        self.widgets = []

    def typing(self) -> bool:
        """Whether one of the panel's text entries has the keys."""
        entries = (self.server_entry, self.invite_entry, self.link_entry) if self.widgets else ()
        return any(e.is_focused for e in entries)

    def sides(self) -> list[str]:
        sc = self.scenario()
        return list(sc.setup.sides) if sc is not None else []

    def scenario(self) -> Scenario | None:
        scenes = self.scene.scenarios
        return scenes[self.scene.chosen][1] if scenes else None

    def _computer_text(self) -> str:
        if self.computer is None:
            return "Other side: a player"
        return f"Other side: computer level {self.computer}"

    def lines(self) -> list[str | tuple[str, str]]:
        return [
            f"{g.title}: {g.side.title()} - {self.statuses.get(g.link, 'asking the server...')}"
            for g in reversed(self.games)
        ]

    def say(self, text: str) -> None:
        """One line in the panel (the message kept across rebuilds)."""
        words = re.sub(r"wss?://\S+: ", "", " ".join(str(text).split()))  # the link: known
        self.message = printable(words)[:100]
        if self.widgets:
            self.message_label.set_text(html.escape(self.message))

    def show(self) -> None:
        """Open the panel and ask each kept game's server whose move it is."""
        self.open = True
        self.ask_statuses()

    def ask_statuses(self) -> None:
        self.statuses = {}
        threading.Thread(
            target=_ask_statuses,
            args=(list(self.games), self.statuses),
            name="hexfire-status",
            daemon=True,
        ).start()

    # --- events --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        """An event for the panel (True: it was one)."""
        if event.type == STATUS_EVENT:
            if self.widgets:
                self.list.set_item_list(self.lines())
            return True
        if not self.widgets:
            return False
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            if event.ui_element is self.server_entry:
                self.server = self.server_entry.get_text()
            elif event.ui_element is self.link_entry:
                self.link_text = self.link_entry.get_text()
            return event.ui_element in (self.server_entry, self.link_entry, self.invite_entry)
        if (
            event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION
            and event.ui_element is self.list
        ):
            lines = self.lines()
            if event.text in lines:
                game = list(reversed(self.games))[lines.index(event.text)]
                self.open_seat(game.link)
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.link_entry:
            self.open_seat(self.link_entry.get_text())
            return True
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return False
        return self._pressed(event.ui_element)

    def _pressed(self, element) -> bool:
        sides = self.sides()
        if element is self.side_button and sides:
            self.side = (self.side + 1) % len(sides)
            self.side_button.set_text(f"I play {sides[self.side].title()}")
        elif element is self.computer_button:
            self.computer = 0 if self.computer is None else self.computer + 1
            self.computer = None if self.computer > 3 else self.computer
            self.computer_button.set_text(self._computer_text())
        elif element is self.create:
            self.create_game()
        elif element is self.open_mine and self.mine:
            self.open_seat(self.mine)
        elif element is self.join:
            self.open_seat(self.link_entry.get_text())
        elif element is self.refresh:
            self.ask_statuses()
            self.list.set_item_list(self.lines())
        elif element is self.close:
            self.open = False
            self.kill()
        else:
            return False
        return True

    # --- the server ----------------------------------------------------------------------

    def create_game(self) -> None:
        """Create a game of the chosen scenario on the server (off the window's thread): the
        other seat's invitation shown, this seat's link kept and ready to open."""
        sc = self.scenario()
        sides = self.sides()
        if sc is None or not sides:
            self.say("pick a valid scenario in the list first")
            return
        server = self.server_entry.get_text().strip()
        mine = sides[self.side % len(sides)]
        other = next(s for s in sides if s != mine)
        computer = other if self.computer is not None else None
        app = self.scene.app

        def work(progress: Progress):
            progress.now(f"Creating a game of {sc.title} on {server}")
            try:
                created = asyncio.run(
                    create_game(
                        server,
                        Path(sc.path).name,
                        sc.text,
                        computer,
                        2 if self.computer is None else self.computer,
                        timeout=20,
                    )
                )
            except (NetError, Refusal) as e:
                raise OnlineError(str(e)) from None
            links = {s: link.text() for s, link in invitations(server, created).items()}
            return lambda: self.created(sc.title, mine, links)

        try:
            invitation(server, "0" * 16, "x" * 22)  # the address checked before anything
        except LinkError as e:
            self.say(str(e).replace("--server: ", "server: "))
            return
        app.go(Push(Opening(f"Creating a game on {server}", work, self.failed)))

    def created(self, title: str, mine: str, links: dict[str, str]) -> None:
        others = [link for side, link in links.items() if side != mine]
        self.mine = links[mine]
        self.invite = others[0] if others else ""
        self.keep(KeptGame(self.mine, title, mine, self.invite))
        who = "send the invitation to your opponent; " if self.invite else ""
        self.say(f"Created: {who}Open my seat plays yours")
        self.ask_statuses()
        self.scene.rebuild()

    def keep(self, game: KeptGame) -> None:
        self.games = [g for g in self.games if g.link != game.link] + [game]
        self.statuses.pop(game.link, None)
        try:
            save_links(self.games)
        except SaveError as e:
            self.say(f"the link is kept until you close hexfire: {e}")

    def failed(self, error: Exception) -> None:
        self.say(str(error))
        self.scene.rebuild()

    def open_seat(self, text: str) -> None:
        """Join the seat of the link ``text`` (off the window's thread); its play screen."""
        try:
            link = Link.parse(text)
        except LinkError as e:
            self.say(f"not a hexfire link: {e}")
            return
        app = self.scene.app

        def wake() -> None:
            with contextlib.suppress(pygame.error):  # the window closed meanwhile
                pygame.event.post(pygame.event.Event(NET_EVENT))

        def work(progress: Progress):
            from game.net.remote import RemoteSession, ThreadedClient

            progress.now(f"Joining {link.url}")
            try:
                session = RemoteSession(ThreadedClient(link, on_change=wake))
            except (NetError, Refusal) as e:
                raise OnlineError(str(e)) from None
            return lambda: self.joined(session, link)

        app.go(Push(Opening(f"Joining {link.url}", work, self.failed)))

    def joined(self, session, link: Link) -> None:
        kept = next((g for g in self.games if g.link == link.text()), None)
        self.keep(KeptGame(link.text(), session.title, session.side, kept.invite if kept else ""))
        self.say("")
        self.scene.app.go(Push(Play(session, f"{session.title} (online)", viewer=session.side)))
