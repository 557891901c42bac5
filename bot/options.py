"""String options with limits that hold on receipt, not only in Discord's client.

``app_commands.Range[str, 1, N]`` sends ``max_length`` to Discord, so its client stops a user
at N characters, but discord.py does not check it when the command arrives (its
``RangeTransformer`` passes any value through), and a stale or forged client may send
anything. :class:`Text` sends the same limits and refuses, with a clear message that does not
echo the value, a string over them; :class:`OneOf` does the same for a fixed list of choices.

Use them as annotations: ``name: app_commands.Transform[str, Text(32, "name")]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError

__all__ = ["OneOf", "Text"]


class Text(app_commands.Transformer):
    """A string option of ``min_length``-``max_length`` characters, checked on receipt.

    ``option`` is the option's name as users see it, to say which one was refused.
    """

    def __init__(self, max_length: int, option: str, *, min_length: int = 1) -> None:
        if not 0 <= min_length <= max_length:
            raise ValueError("min_length is 0-max_length")
        self._min = min_length
        self._max = max_length
        self.option = option

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:  # sent to Discord as min_length for a string option
        return self._min

    @property
    def max_value(self) -> int:  # sent to Discord as max_length
        return self._max

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        if not isinstance(value, str):
            raise UserError(f"The `{self.option}` option must be text. Nothing was changed.")
        if len(value) > self._max:
            raise UserError(
                f"The `{self.option}` option takes at most {self._max:,} characters; yours has "
                f"{len(value):,}. Nothing was changed."
            )
        if len(value) < self._min:
            raise UserError(
                f"The `{self.option}` option takes at least {self._min:,} "
                f"character{'s' if self._min != 1 else ''}. Nothing was changed."
            )
        return value


class OneOf(app_commands.Transformer):
    """A string option whose value is one of ``choices`` (shown by Discord as a list),
    checked on receipt: discord.py passes any value of a plain choice option through."""

    def __init__(self, option: str, choices: Sequence[app_commands.Choice[Any]]) -> None:
        self.option = option
        self._choices: list[app_commands.Choice[Any]] = list(choices)

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return self._choices

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        if isinstance(value, str) and any(c.value == value for c in self._choices):
            return value
        raise UserError(
            f"The `{self.option}` option is one of the list Discord shows "
            f"({', '.join(c.name for c in self._choices)}). Nothing was changed."
        )
