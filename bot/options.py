"""Slash command options that are checked when they arrive, not only in Discord's client.

discord.py sends ``max_length`` to Discord for ``app_commands.Range[str, …]`` but does not check
it on receipt, and a payload can carry anything. :class:`Text` declares the limit to Discord
and refuses a longer value with a clear sentence before a handler runs.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError

__all__ = ["Text"]


class Text(app_commands.Transformer):
    """A string option of at most ``max_length`` characters (Discord's limit for option
    values is 6,000). Use as ``app_commands.Transform[str, Text(32)]``."""

    def __init__(self, max_length: int, *, min_length: int = 1) -> None:
        self._max, self._min = max_length, min_length

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return self._min

    @property
    def max_value(self) -> int:
        return self._max

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        text = str(value)
        if not self._min <= len(text) <= self._max:
            raise UserError(f"That option takes {self._min} to {self._max} characters; it got "
                            f"{len(text):,}.")
        return text
