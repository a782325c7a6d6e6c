"""Where a server keeps its games: a small interface (:class:`GameStore`) and its SQLite
implementation (the standard library's, WAL mode, every write synced before it returns).

A game is its fixed facts (:class:`GameMeta`: the scenario, the seed and salt, the seats with
their tokens' SHA-256), its actions (each as the save records it, with the side that took it
and the form that side knows it by) and a small state that changes with them (each side's
view version, the computer's plan, the seats' standing orders). Each action is durable when
:meth:`GameStore.append` returns: the server acknowledges it only then, so a ``kill -9`` of the
server loses no acknowledged action. Both stores (:class:`SqliteStore` here,
:class:`~.pgstore.PgStore` for several server processes) share :class:`SqlStore`: the same
statements on the same schema (:mod:`.schema`, with its migrations).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import schema


class StoreError(Exception):
    """The store could not do what was asked (a full disk, a broken file): one line."""


class Guard(str):
    """A statement of a write that must find a row, else the write is refused and its whole
    transaction undone (:class:`StoreError`): what the write expects of the game (the actions
    it holds) is not so, another server process changed it meanwhile. It comes after the write
    has locked the game's row (``UPDATE games``), so that the writes of a game are made one
    after the other and each guard reads what the one before it committed."""


def guard_failed(where: str, sql: str) -> StoreError:
    return StoreError(f"{where}: the game changed meanwhile (another server wrote it): {sql[:60]}")


@dataclass(frozen=True)
class SeatMeta:
    """A seat: "remote" (a player with a token: its SHA-256 is kept, never the token) or
    "computer" (the server plays it at ``level``)."""

    kind: str
    token_sha256: str = ""
    level: int = 2


@dataclass(frozen=True)
class GameMeta:
    """What a game is from its creation on (never changed)."""

    id: str
    scenario_name: str
    scenario_text: str
    scenario_sha256: str
    seed: int
    salt: str
    commitment: str
    ai_seed: int
    seats: dict[str, SeatMeta]
    created: float

    def to_json(self) -> dict:
        return {
            "scenario_name": self.scenario_name,
            "scenario_sha256": self.scenario_sha256,
            "seed": self.seed,
            "salt": self.salt,
            "commitment": self.commitment,
            "ai_seed": self.ai_seed,
            "seats": {s: vars(m) for s, m in self.seats.items()},
            "created": self.created,
        }

    @classmethod
    def from_json(cls, game_id: str, d: dict, text: str) -> GameMeta:
        return cls(
            game_id,
            d["scenario_name"],
            text,
            d["scenario_sha256"],
            int(d["seed"]),
            d["salt"],
            d["commitment"],
            int(d["ai_seed"]),
            {s: SeatMeta(**m) for s, m in d["seats"].items()},
            float(d["created"]),
        )


@dataclass
class StoredAction:
    """One action as stored: the save's entry (``action``, ``draws``, ``hash``), the side that
    took it, the action as that side named it (a "?" by its alias), and who took it: "seat"
    (its player), "computer", or "server" (a phase passed by itself, HX-15, or a standing
    order)."""

    entry: dict
    side: str
    shown: dict
    by: str = "seat"


@dataclass
class StoredGame:
    meta: GameMeta
    actions: list[StoredAction] = field(default_factory=list)
    state: dict = field(default_factory=dict)


class GameStore(Protocol):
    """The server's storage (:class:`SqliteStore`; :class:`~.pgstore.PgStore`). Every method
    is durable when it returns, or raises StoreError having changed nothing."""

    def create(self, meta: GameMeta, state: dict) -> None: ...

    def load(self, game_id: str) -> StoredGame | None: ...

    def load_meta(self, game_id: str) -> GameMeta | None: ...

    def since(self, game_id: str, start: int) -> tuple[dict, list[StoredAction]] | None: ...

    def append(self, game_id: str, index: int, action: StoredAction, state: dict) -> None: ...

    def truncate(
        self, game_id: str, length: int, state: dict, last: dict | None = None
    ) -> None: ...

    def set_state(self, game_id: str, state: dict) -> None: ...

    def game_ids(self) -> list[str]: ...

    def close(self) -> None: ...


class SqlStore:
    """What both stores share: the statements of :mod:`.schema` (``?`` for an argument) and
    the group commit (:meth:`together`). A store gives :meth:`_commit` (statements in one
    transaction) and :meth:`_queries` (the rows of statements read together)."""

    where = "the game store"

    def __init__(self) -> None:
        self._pending: list[tuple[str, tuple]] | None = None

    def _commit(self, statements: list[tuple[str, tuple]]) -> None:
        raise NotImplementedError

    def _changed(self, game_id: str) -> list[tuple[str, tuple]]:
        """What a write of a game adds to its transaction to tell other server processes
        (PostgreSQL's NOTIFY; nothing here)."""
        return []

    def _queries(self, statements: list[tuple[str, tuple]]) -> list[list[tuple]]:
        """The rows of each statement, read together (one snapshot)."""
        raise NotImplementedError

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """The writes made inside are one transaction: one sync of the disk for them all (the
        server's group commit: the actions of many games that came while the last commit was
        syncing). If it fails, none of them is stored."""
        self._pending = []
        try:
            yield
            statements = self._pending
        finally:
            self._pending = None
        self._commit(statements)

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        if self._pending is not None:
            self._pending.extend(statements)
            return
        self._commit(statements)

    def create(self, meta: GameMeta, state: dict) -> None:
        self._write(
            [
                (
                    "INSERT INTO scenarios (sha256, text) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (meta.scenario_sha256, meta.scenario_text),
                ),
                (
                    "INSERT INTO games (id, scenario, meta, state, created) VALUES (?, ?, ?, ?, ?)",
                    (
                        meta.id,
                        meta.scenario_sha256,
                        json.dumps(meta.to_json()),
                        json.dumps(state),
                        meta.created,
                    ),
                ),
            ]
        )

    _GAME = (
        "SELECT g.meta, s.text, g.state FROM games g JOIN scenarios s "
        "ON s.sha256 = g.scenario WHERE g.id = ?"
    )
    _ACTIONS = "SELECT side, entry, shown, by FROM actions WHERE game = ? AND idx >= ? ORDER BY idx"

    def load(self, game_id: str) -> StoredGame | None:
        games, rows = self._queries([(self._GAME, (game_id,)), (self._ACTIONS, (game_id, 0))])
        if not games:
            return None
        meta = GameMeta.from_json(game_id, json.loads(games[0][0]), games[0][1])
        actions = [StoredAction(json.loads(e), side, json.loads(s), by) for side, e, s, by in rows]
        return StoredGame(meta, actions, json.loads(games[0][2]))

    def load_meta(self, game_id: str) -> GameMeta | None:
        """A game's fixed facts without its actions (a seat's token is checked against them
        before the game is loaded)."""
        rows = self._query(self._GAME, (game_id,))
        return None if not rows else GameMeta.from_json(game_id, json.loads(rows[0][0]), rows[0][1])

    def _query(self, sql: str, args: tuple) -> list[tuple]:
        return self._queries([(sql, args)])[0]

    def actions_from(self, game_id: str, start: int) -> list[StoredAction]:
        """A game's actions from index ``start`` on (what another server process added)."""
        rows = self._query(self._ACTIONS, (game_id, start))
        return [StoredAction(json.loads(e), side, json.loads(s), by) for side, e, s, by in rows]

    _STATE = "SELECT state FROM games WHERE id = ?"

    def since(self, game_id: str, start: int) -> tuple[dict, list[StoredAction]] | None:
        """A game's state and its actions from index ``start`` on, read together (one
        snapshot): what another server process added to a game held here (None: no such
        game)."""
        games, rows = self._queries([(self._STATE, (game_id,)), (self._ACTIONS, (game_id, start))])
        if not games:
            return None
        actions = [StoredAction(json.loads(e), side, json.loads(s), by) for side, e, s, by in rows]
        return json.loads(games[0][0]), actions

    _LOCK_ROW = "UPDATE games SET state = ? WHERE id = ?"
    _APPENDS_AT = Guard(
        "SELECT 1 FROM games WHERE id = ? "
        "AND NOT EXISTS (SELECT 1 FROM actions WHERE game = ? AND idx >= ?) "
        "AND (? = 0 OR EXISTS (SELECT 1 FROM actions WHERE game = ? AND idx = ?))"
    )
    _LAST_IS = Guard(
        "SELECT 1 FROM games WHERE id = ? "
        "AND NOT EXISTS (SELECT 1 FROM actions WHERE game = ? AND idx > ?) "
        "AND EXISTS (SELECT 1 FROM actions WHERE game = ? AND idx = ? AND entry = ?)"
    )

    def append(self, game_id: str, index: int, action: StoredAction, state: dict) -> None:
        """Store action ``index`` of a game: refused unless the store holds exactly the
        ``index`` actions before it (another process's write, or an undo, came first)."""
        self._write(
            [
                (self._LOCK_ROW, (json.dumps(state), game_id)),
                (self._APPENDS_AT, (game_id, game_id, index, index, game_id, index - 1)),
                (
                    "INSERT INTO actions (game, idx, side, entry, shown, by) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        index,
                        action.side,
                        json.dumps(action.entry, sort_keys=True),
                        json.dumps(action.shown, sort_keys=True),
                        action.by,
                    ),
                ),
                *self._changed(game_id),
            ]
        )

    def truncate(self, game_id: str, length: int, state: dict, last: dict | None = None) -> None:
        """Keep a game's first ``length`` actions (an undo). With ``last`` (the entry of the
        action taken back, as held): refused unless it is the game's last action in the store
        (another process wrote after it, or took it back, meanwhile)."""
        guard = []
        if last is not None:
            entry = json.dumps(last, sort_keys=True)
            guard = [(self._LAST_IS, (game_id, game_id, length, game_id, length, entry))]
        self._write(
            [
                (self._LOCK_ROW, (json.dumps(state), game_id)),
                *guard,
                ("DELETE FROM actions WHERE game = ? AND idx >= ?", (game_id, length)),
                *self._changed(game_id),
            ]
        )

    def set_state(self, game_id: str, state: dict) -> None:
        self._write(
            [
                ("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id)),
                *self._changed(game_id),
            ]
        )

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._query("SELECT id FROM games ORDER BY created", ())]

    def schema_version(self) -> int:
        rows = self._query("SELECT version FROM hexfire_schema", ())
        return int(rows[0][0]) if rows else 0


SYNCS = {"full": "FULL", "normal": "NORMAL"}
"""How a commit reaches the disk: "full" (the default) syncs it before the commit returns, so
neither a killed server nor a power cut loses it; "normal" (WAL) leaves it to the operating
system: a killed server loses nothing, a power cut may lose the last commits, and a commit
takes microseconds instead of a disk sync's milliseconds."""


class SqliteStore(SqlStore):
    """A :class:`GameStore` in one SQLite file (WAL journal, ``synchronous=FULL``: a commit is
    on disk, synced, when it returns; a sync takes milliseconds, so the server groups the
    writes that come meanwhile into one commit, :meth:`together`). Safe to call from any one
    thread at a time."""

    def __init__(self, path: str | Path, sync: str = "full"):
        super().__init__()
        if sync not in SYNCS:
            raise StoreError(f"sync: expected one of {', '.join(SYNCS)}, got {sync!r}")
        self.path = Path(path)
        self.where = str(self.path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), isolation_level=None, check_same_thread=False, timeout=30
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={SYNCS[sync]}")
            self._db.execute("PRAGMA foreign_keys=ON")
            schema.migrate(self._version, self._commit, self.where)
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"{self.path}: cannot open the game store: {e}") from None
        except schema.SchemaError as e:
            self._db.close()
            raise StoreError(str(e)) from None

    def _version(self) -> int:
        self._db.execute(schema.VERSION_TABLE)
        found = self.schema_version()
        if not found and self._query("SELECT name FROM sqlite_master WHERE name = 'games'", ()):
            return 1  # made before versions were kept (issue 40)
        return found

    def _commit(self, statements: list[tuple[str, tuple]]) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for sql, args in statements:
                        cur = self._db.execute(sql, args)
                        if isinstance(sql, Guard) and cur.fetchone() is None:
                            raise guard_failed(str(self.path), sql)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                raise StoreError(f"{self.path}: {e}") from None

    def _queries(self, statements: list[tuple[str, tuple]]) -> list[list[tuple]]:
        with self._lock:
            try:
                return [self._db.execute(sql, args).fetchall() for sql, args in statements]
            except sqlite3.Error as e:
                raise StoreError(f"{self.path}: {e}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()


WRITES = frozenset(("create", "append", "truncate", "set_state"))
"""The store's writes (the group committer makes them; its reads are made one by one)."""


class GroupWriter:
    """Group commit: a thread that takes every write waiting, makes them in one transaction
    of the store (:meth:`SqliteStore.together`: one sync of the disk), then tells each waiter;
    a write is acknowledged only once its commit returned, its waiters told together in one
    call into their event loop (issue 43: a thread's future for each write, each waking the
    loop, were 3-5% of a busy server's event loop)."""

    def __init__(self, store: Any):
        self.store = store
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, daemon=True, name="hexfire-commit")
        self._thread.start()

    def submit(self, fn: Callable, *args: Any) -> asyncio.Future:
        """``fn(*args)`` made in the next group commit: a future of the running event loop,
        done when it is committed (a StoreError when the commit failed)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._queue.put((fn, args, future, loop))
        return future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            failed: BaseException | None = None
            try:
                with self.store.together():
                    for fn, args, _, _ in batch:
                        fn(*args)
            except Exception as e:
                failed = e if isinstance(e, StoreError) else StoreError(str(e))
            loops: dict[Any, list[asyncio.Future]] = {}
            for _, _, future, loop in batch:
                loops.setdefault(loop, []).append(future)
            for loop, futures in loops.items():
                with contextlib.suppress(RuntimeError):  # its loop closed (stopping)
                    loop.call_soon_threadsafe(_told, futures, failed)


def _told(futures: list[asyncio.Future], failed: BaseException | None) -> None:
    """The waiters of one group commit told its outcome (in their event loop)."""
    for future in futures:
        if not future.done():  # (done: its waiter gone, cancelled while stopping)
            future.set_result(None) if failed is None else future.set_exception(failed)
