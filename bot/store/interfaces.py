"""What the cogs ask of the store, one small interface per aggregate.

The cogs know these protocols and the plain values they return (``StoredCharacter``,
``StoredCombat``, …, from :mod:`bot.store.values`), never a connection or SQL. Each database
engine is a set of classes that satisfy them (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`;
mypy checks that they fit), gathered in a :class:`Store` that :func:`bot.store.open_store`
opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.operations.shards import ShardPlan
from bot.store.values import (
    CharacterEntry,
    FightsToRestore,
    LogEntry,
    ShownRecord,
    StoredCharacter,
    StoredCombat,
    StoredMap,
    StoredRoll,
    StoredSession,
    Undone,
    WriteBack,
)
from engine.character import Character
from engine.combat import Combat, Event
from engine.quickroll import QuickRoll

__all__ = [
    "Characters", "Fights", "Guilds", "Maps", "Meta", "Players", "Rolls", "Sessions", "Store",
]


class Characters(Protocol):
    """Characters per server. A change is saved only if nobody saved the character since it
    was read; changes to a character held by an active fight raise ``InFight``."""

    async def get(self, guild_id: int, name: str) -> StoredCharacter | None: ...
    async def get_by_id(self, character_id: int) -> StoredCharacter | None: ...
    async def list(self, guild_id: int) -> Sequence[StoredCharacter]: ...
    async def entries(self, guild_id: int) -> Sequence[CharacterEntry]: ...
    async def latest_pc(self, guild_id: int,
                        owner_id: int) -> tuple[StoredCharacter | None, int]: ...
    async def add(self, *, guild_id: int, owner_id: int,
                  character: Character) -> StoredCharacter: ...
    async def add_many(self, *, guild_id: int, owner_id: int,
                       characters: Sequence[Character]) -> Sequence[StoredCharacter]: ...
    async def replace(self, stored: StoredCharacter,
                      character: Character) -> StoredCharacter | None: ...
    async def delete(self, character_id: int, created_at: str) -> bool: ...


class Fights(Protocol):
    """Fights, one active per channel; a step is saved in one transaction with its log entry,
    the characters the fight holds and, at its end, the sheets' write-back. What the table
    sees of a fight (:class:`ShownRecord`) is written with a step (``save``'s ``shown``: the
    one shown before it) or on its own (``shown``); an older record never replaces a newer."""

    async def active(self, channel_id: int) -> StoredCombat | None: ...
    async def get(self, combat_id: int) -> StoredCombat | None: ...
    async def to_restore(self, shards: ShardPlan) -> FightsToRestore: ...
    async def fight_of(self, character_id: int) -> tuple[int, int] | None: ...
    async def log(self, combat_id: int, limit: int | None = 30) -> list[LogEntry]: ...
    async def start(self, *, guild_id: int, channel_id: int, map_name: str, state: Combat,
                    pin: bool = False, report_channel_id: int | None = None,
                    map_identity: tuple[int, str] | None = None) -> StoredCombat | None: ...
    async def save(self, stored: StoredCombat, state: Combat, *, user_id: int, command: str,
                   events: Sequence[Event], write_back: WriteBack | None = None,
                   shown: ShownRecord | None = None) -> StoredCombat | None: ...
    async def undo(self, stored: StoredCombat) -> Undone | None: ...
    async def shown(self, records: Sequence[ShownRecord]) -> None: ...
    async def remind(self, stored: StoredCombat,
                     reminded: tuple[float, ...]) -> StoredCombat | None:
        """Record that the questions closing at ``reminded`` were reminded (the fight's
        ``next_deadline`` worked out anew); None (nothing recorded) when the fight changed
        since ``stored`` was read, or another process recorded first: a reminder goes once."""
        ...


class Maps(Protocol):
    """Maps written by a server's GMs."""

    async def add(self, *, guild_id: int, name: str, text: str,
                  author_id: int) -> StoredMap | None: ...
    async def get(self, guild_id: int, name: str) -> StoredMap | None: ...
    async def get_by_id(self, map_id: int) -> StoredMap | None: ...
    async def in_guild(self, guild_id: int) -> list[StoredMap]: ...
    async def names(self, guild_id: int) -> list[str]: ...
    async def replace_text(self, stored: StoredMap, text: str) -> StoredMap | None: ...
    async def delete(self, map_id: int, created_at: str) -> bool: ...


class Rolls(Protocol):
    """Chat rolls waiting for their roller's decision."""

    async def add(self, *, guild_id: int | None, channel_id: int, user_id: int,
                  note: str | None, state: QuickRoll) -> StoredRoll: ...
    async def get(self, roll_id: int) -> StoredRoll | None: ...
    async def replace(self, stored: StoredRoll, state: QuickRoll) -> StoredRoll | None: ...


class Guilds(Protocol):
    """Per-server settings."""

    async def gm_role(self, guild_id: int) -> int | None: ...
    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None: ...

    def kept_language(self, guild_id: int) -> str | None:
        """The server's language as this process keeps it in memory, without asking the
        database; KeyError when it is not kept (or no longer trusted): then ask
        :meth:`language`."""
        ...

    async def language(self, guild_id: int) -> str | None:
        """The language its GM chose for the server's channels (None: the server's own)."""
        ...

    async def set_language(self, guild_id: int, language: str | None) -> None: ...


class Sessions(Protocol):
    """Play sessions with a goal: one open per server."""

    async def open(self, *, guild_id: int, goal: str, opened_by: int) -> StoredSession: ...
    async def current(self, guild_id: int) -> StoredSession | None: ...
    async def join(self, session: StoredSession, character_id: int) -> bool: ...
    async def set_goal(self, session: StoredSession, goal: str) -> bool: ...
    async def fights(self, session: StoredSession) -> Sequence[StoredCombat]: ...
    async def close(self, session: StoredSession, *, achieved: bool,
                    advanced: Sequence[tuple[StoredCharacter, Character]]) -> bool: ...


class Players(Protocol):
    """Each player's own settings, kept per player (on every server alike)."""

    async def reminded_by_dm(self, user_ids: Sequence[int]) -> set[int]:
        """Which of ``user_ids`` chose to be reminded by direct message."""
        ...

    async def set_reminded_by_dm(self, user_id: int, by_dm: bool) -> None:
        """Where ``user_id`` is reminded; a choice made anew forgets a refused direct message
        (:meth:`dm_refused`)."""
        ...

    async def dm_refused(self, user_ids: Sequence[int]) -> set[int]:
        """Which of ``user_ids`` were told that Discord refused their direct message, and
        have taken none since (they are not told again)."""
        ...

    async def set_dm_refused(self, user_id: int, refused: bool) -> None: ...


class Meta(Protocol):
    """Facts about the bot itself, by key."""

    async def get(self, key: str) -> str | None: ...
    async def set(self, key: str, value: str | None) -> None: ...


class Store(Protocol):
    """One database, whichever engine keeps it: an interface per aggregate."""

    #: ``"sqlite"`` or ``"postgresql"``.
    engine: str
    rolls: Rolls
    guilds: Guilds
    characters: Characters
    maps: Maps
    combats: Fights
    sessions: Sessions
    players: Players
    meta: Meta

    async def schema_version(self) -> int: ...
    async def close(self) -> None: ...
