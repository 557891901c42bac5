"""Each engine's schema migrations: numbered SQL files in its package's ``migrations`` folder
(``0001_rolls.sql``, ``0002_…``), applied at start-up in order, each in its own transaction.
Append only: a released migration is never edited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["DatabaseRefused", "Migration", "migrations", "refuse_newer"]

_FILE = re.compile(r"(\d{4})_(\w+)\.sql")


class DatabaseRefused(RuntimeError):
    """The database cannot be used as it is (in one sentence, for the operator)."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    script: str


def migrations(package: str) -> tuple[Migration, ...]:
    """The migrations of the engine package ``package`` (``bot.store.sqlite``), in order.

    >>> [m.version for m in migrations("bot.store.sqlite")][:3]
    [1, 2, 3]
    """
    folder = resources.files(package) / "migrations"
    found = []
    for entry in folder.iterdir():
        match = _FILE.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{package}'s migrations are not numbered 1, 2, 3, …")
    return tuple(found)


def refuse_newer(current: int, known: int) -> None:
    """:class:`DatabaseRefused` when the database is at a schema newer than this bot's."""
    if current > known:
        raise DatabaseRefused(
            f"The database is at schema {current}, newer than this bot knows ({known}). "
            "Update the bot.")
