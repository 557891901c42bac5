"""What a cog, a button or a form gets from the bot that runs it: :class:`Host`.

The cogs type ``interaction.client`` and the bot their ``setup`` is given as a :class:`Host`,
never as the client's own class, so :mod:`bot.client` imports no cog and no cog imports the
client. :class:`~bot.client.UnhexBot` is one; a test may pass another.

The fights are the client's: ``fights`` is always there. Until the fight commands
(:mod:`bot.cogs.combat`) load, it reads each channel's fight from the store; they put their
session there, which keeps the fights in memory. So the other cogs (a character's sheet shows
its fight's copy) read a fight the same way whether or not the fight commands are loaded.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord
import discord.http
from discord.ext import commands

from bot.forms import FormAnswer
from bot.operations.metrics import Metrics
from bot.pacing import EditPacing
from bot.settings import Settings
from bot.store.interfaces import Store
from bot.store.values import StoredCombat
from engine.dice import DiceSource

__all__ = ["FightReader", "Host"]


class FightReader(Protocol):
    """The fights as any cog reads them."""

    async def fight(self, channel_id: int) -> StoredCombat | None:
        """The channel's active fight (None: none)."""
        ...

    @property
    def in_memory(self) -> int:
        """How many fights are kept in memory now."""
        ...


class Host(Protocol):
    """The bot, as its cogs, buttons and forms use it."""

    store: Store
    dice: DiceSource
    metrics: Metrics
    #: When each channel's next board edit may go out.
    edit_pacing: EditPacing
    settings: Settings
    fights: FightReader
    #: discord.py's HTTP client (its rate limiter), for a call whose answer nobody reads.
    http: discord.http.HTTPClient

    @property
    def allowed_mentions(self) -> discord.AllowedMentions | None: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_channel(self, id: int, /) -> (
            discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None): ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None
                                ) -> discord.PartialMessageable: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def answers(self, *patterns: re.Pattern[str]) -> None:
        """Record custom ids the bot answers (see :meth:`bot.client.UnhexBot.answers`)."""
        ...

    def answers_form(self, pattern: re.Pattern[str], answer: FormAnswer) -> None:
        """Answer a form's submit by its custom id (:mod:`bot.forms`)."""
        ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...
