"""The statements of a write of the PostgreSQL store (:class:`~.pgstore.PgStore`) as one query
of several: one round trip and one call of the driver for a whole group commit (issue 43: sent a
statement at a time, or pipelined, the driver's work for each statement took 160-400 us of the
server's CPU by action stored; written in, 50-210 us)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from .store import Guard, StoreError


def one_query(statements: list[tuple[str, tuple]], quote: Callable[[bytes], bytes]) -> str:
    """The statements as one query of several (PostgreSQL runs them as one transaction), each
    argument written in as a literal (``quote``: libpq's, for strings), each guard
    (:class:`Guard`) made to fail the query when it finds no row: ``1 / (its rows' count)``.
    A notification said twice is said once (PostgreSQL would fold them anyway)."""
    parts: list[str] = []
    said: set[tuple] = set()
    for sql, values in statements:
        if sql.startswith("SELECT pg_notify"):
            if (sql, values) in said:
                continue
            said.add((sql, values))
        pieces = _pieces(sql)
        if len(pieces) != len(values) + 1:
            raise StoreError(f"{len(values)} arguments for {sql[:60]}")
        text = [pieces[0]]
        for value, piece in zip(values, pieces[1:], strict=True):
            text.append(_literal(value, quote))
            text.append(piece)
        joined = "".join(text)
        if isinstance(sql, Guard):
            joined = f"SELECT 1 / (SELECT count(*) FROM ({joined}) AS guard)"
        parts.append(joined)
    return ";\n".join(parts)


@functools.lru_cache(maxsize=256)
def _pieces(sql: str) -> tuple[str, ...]:
    """A statement of :mod:`.schema` cut at its arguments (``?``; none is inside a quote)."""
    return tuple(sql.split("?"))


def _literal(value: object, quote: Callable[[bytes], bytes]) -> str:
    """An argument as a SQL literal (the types the store's statements take)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"'{value!r}'::double precision"
    if isinstance(value, str):
        return quote(value.encode("utf-8")).decode("utf-8")
    raise StoreError(f"cannot store a {type(value).__name__} in a statement")
