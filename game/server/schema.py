"""The one schema of both game stores (SQLite and PostgreSQL) and its migrations.

The schema's version is kept in the store (``hexfire_schema``). Opening a store brings an older
one up to :data:`VERSION` step by step, each step in one transaction with the version it
reaches; a store of a newer version than this hexfire knows is refused with one line (a newer
server wrote it: this one would misread it). A store made before versions were kept (issue 40's
SQLite stores) has the tables of version 1 and no version: it is version 1.

The statements are written once, with ``?`` for the arguments (each store's driver turns them
into its own); the types are those both databases read alike (TEXT, INTEGER, DOUBLE PRECISION).
"""

from __future__ import annotations

from collections.abc import Callable

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: the games (issue 40)
        "CREATE TABLE IF NOT EXISTS scenarios (sha256 TEXT PRIMARY KEY, text TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS games ("
        " id TEXT PRIMARY KEY, scenario TEXT NOT NULL REFERENCES scenarios(sha256),"
        " meta TEXT NOT NULL, state TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE IF NOT EXISTS actions ("
        " game TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL, side TEXT NOT NULL,"
        " entry TEXT NOT NULL, shown TEXT NOT NULL, by TEXT NOT NULL, PRIMARY KEY (game, idx))",
    ),
    (  # 2: the games in the order they were made, without a scan of them all
        "CREATE INDEX IF NOT EXISTS games_created ON games (created)",
    ),
)
"""Each version's statements, from version 1 on (``MIGRATIONS[v - 1]`` makes version v)."""

VERSION = len(MIGRATIONS)
"""The schema this hexfire writes."""

VERSION_TABLE = "CREATE TABLE IF NOT EXISTS hexfire_schema (version INTEGER NOT NULL)"


class SchemaError(Exception):
    """The store's schema is one this hexfire cannot use (one line)."""


def newer_message(where: str, found: int) -> str:
    return (
        f"{where}: the game store has schema version {found}, newer than this hexfire's "
        f"{VERSION}: run a newer hexfire against it"
    )


def steps(found: int, where: str) -> list[tuple[int, tuple[str, ...]]]:
    """The migrations that take a store of version ``found`` (0: empty) to :data:`VERSION`,
    each with the version it reaches; a newer store raises :class:`SchemaError`."""
    if found > VERSION:
        raise SchemaError(newer_message(where, found))
    return [(v, MIGRATIONS[v - 1]) for v in range(found + 1, VERSION + 1)]


def migrate(
    read_version: Callable[[], int],
    run: Callable[[list[tuple[str, tuple]]], None],
    where: str,
) -> int:
    """Bring a store to :data:`VERSION`: ``read_version`` says where it is (0: empty; it may
    lock the store against another server migrating meanwhile), ``run`` makes a list of
    statements in one transaction. Returns the version found."""
    found = read_version()
    for version, statements in steps(found, where):
        writes: list[tuple[str, tuple]] = [(s, ()) for s in statements]
        writes.append(("DELETE FROM hexfire_schema", ()))
        writes.append(("INSERT INTO hexfire_schema (version) VALUES (?)", (version,)))
        run(writes)
    return found
