"""The least a slash-command bot that keeps state can do, on the same table as the Unhex bot:
the baseline the benchmarks measure the Unhex bot against (the same dispatch, payloads and
fake HTTP)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from testbed.harness import Table

__all__ = ["BareBot", "BareTable"]


class BareBot(commands.Bot):
    """The least a slash-command bot that keeps state can do: ``/ping`` inserts one row and
    commits (aiosqlite, WAL file database), then replies with one message."""

    def __init__(self, database: Path) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions.none(), help_command=None)
        self.database = database
        self.db: aiosqlite.Connection | None = None

    async def setup_hook(self) -> None:
        if self.db is None:
            db = self.db = await aiosqlite.connect(str(self.database))
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("CREATE TABLE IF NOT EXISTS pings (id INTEGER PRIMARY KEY, "
                             "channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL, "
                             "note TEXT NOT NULL, created_at TEXT NOT NULL "
                             "DEFAULT (datetime('now')))")
            await db.commit()

        @app_commands.command(name="ping", description="Store one row and answer.")
        async def ping(interaction: discord.Interaction[Any], note: str = "") -> None:
            assert self.db is not None
            await self.db.execute(
                "INSERT INTO pings (channel_id, user_id, note) VALUES (?, ?, ?)",
                (interaction.channel_id, interaction.user.id, note))
            await self.db.commit()
            await interaction.response.send_message(f"pong {note}")

        if self.tree.get_command("ping") is None:
            self.tree.add_command(ping)


class BareTable(Table):
    """A :class:`Table` hosting :class:`BareBot` instead of the Unhex bot: the same guild,
    channels, members, payloads and fake HTTP (Table.start, with another bot)."""

    async def start(self, dice: Any = ()) -> BareTable:
        await self.host(BareBot(Path(self.database)))
        return self

    async def stop(self) -> None:
        bot: BareBot = self.bot  # type: ignore[assignment]
        if bot.db is not None:
            await bot.db.close()
