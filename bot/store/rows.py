"""What a row of the store's tables becomes, the same on every engine (an aiosqlite row and an
asyncpg record are both read by column name), and a value written into a script of SQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic_core import from_json

from bot.operations.shards import ShardPlan
from bot.store.compact import compact_read_state
from bot.store.values import ShownRecord, StoredCharacter, StoredCombat, StoredMap
from engine.character import Character
from engine.combat import Combat

__all__ = [
    "CHARACTER_COLUMNS",
    "COMBAT_COLUMNS",
    "MAP_COLUMNS",
    "on_shards",
    "reminded_deadlines",
    "reminded_text",
    "shown_updates",
    "sql_literal",
    "stored_character",
    "stored_combat",
    "stored_map",
]



class Row(Protocol):
    """A row read by column name (``aiosqlite.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, column: str, /) -> Any: ...


CHARACTER_COLUMNS = "id, guild_id, owner_id, data, version, created_at, updated_at"
COMBAT_COLUMNS = ("id, guild_id, channel_id, map_name, state, version, board_message_id, "
                  "prompt_message_id, shown_version, pin, report_channel_id, announced_turn, "
                  "map_id, map_created_at, next_deadline, reminded")
MAP_COLUMNS = "id, guild_id, name, text, author_id, created_at, updated_at"


def on_shards(shards: ShardPlan) -> str:
    """An SQL condition (`` AND ...``) true for the rows whose guild is on ``shards``' own
    shards, by Discord's rule (:func:`bot.operations.shards.shard_of`; no guild: shard 0);
    empty when the process runs every shard. The same text on every engine."""
    if shards.ids is None or shards.count is None:
        return ""
    ids = ", ".join(str(int(shard)) for shard in shards.ids)
    return f" AND (COALESCE(guild_id, 0) >> 22) % {int(shards.count)} IN ({ids})"


def stored_character(row: Row) -> StoredCharacter:
    return StoredCharacter(
        row["id"], row["guild_id"], row["owner_id"], Character.model_validate_json(row["data"]),
        row["version"], row["created_at"], row["updated_at"],
    )


def stored_combat(row: Row) -> StoredCombat:
    # Read through pydantic's cache of short strings, so every fight in memory shares its
    # names, teams, areas and kinds (``model_validate_json`` turns the document into Python
    # objects anew for ``Combat``'s upgrade of old states, leaving the cache out).
    return StoredCombat(
        row["id"], row["guild_id"], row["channel_id"], row["map_name"],
        compact_read_state(Combat.model_validate(from_json(row["state"]))), row["version"],
        row["board_message_id"], row["prompt_message_id"], row["shown_version"], bool(row["pin"]),
        row["report_channel_id"], row["announced_turn"],
        None if row["map_id"] is None else (row["map_id"], row["map_created_at"]),
        row["next_deadline"], reminded_deadlines(row["reminded"]),
    )


def reminded_text(reminded: tuple[float, ...]) -> str:
    """The deadlines reminded, as the ``reminded`` column keeps them (JSON, exactly)."""
    return json.dumps(list(reminded))


def reminded_deadlines(text: str) -> tuple[float, ...]:
    """The ``reminded`` column read back."""
    return tuple(float(d) for d in json.loads(text))


def stored_map(row: Row) -> StoredMap:
    return StoredMap(row["id"], row["guild_id"], row["name"], row["text"], row["author_id"],
                     row["created_at"], row["updated_at"])


def sql_literal(value: int | str | None) -> str:
    """``value`` as an SQL literal, for a script of several statements (which takes no
    parameters) sent in one round trip.

    >>> print(sql_literal(None), sql_literal(7), sql_literal("1:0 'Ana'"))
    NULL 7 '1:0 ''Ana'''
    """
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(int(value))
    return "'" + value.replace("'", "''") + "'"


def shown_updates(records: Sequence[ShownRecord]) -> str:
    """The UPDATEs that record what the table saw of each fight (a record older than the one
    kept changes nothing), as one script of literals: both engines send it in one round
    trip, each wrapped in its own transaction settings."""
    return " ".join(
        "UPDATE combats SET board_message_id = {}, prompt_message_id = {}, "
        "shown_version = {}, announced_turn = COALESCE({}, announced_turn) "
        "WHERE id = {} AND shown_version < {};".format(*map(sql_literal, (
            r.board_message_id, r.prompt_message_id, r.version, r.announced_turn,
            r.combat_id, r.version)))
        for r in records)
