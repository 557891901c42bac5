"""The forms (modals) the bot answers from their custom id and their text alone, so that a
form left open across a restart still works.

Each cog adds its forms here with the handler of each; the bot's one ``on_interaction``
hands a form's submit to the handler whose pattern its custom id matches. (One listener for
every form rather than one per cog: discord.py runs each listener of every interaction as a
task of its own.)
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.components import submitted_text
from bot.errors import handled, report_error

__all__ = ["FormAnswer", "Forms"]

#: Answers a form's submit: the interaction, its custom id's match, the form's first text.
FormAnswer = Callable[[discord.Interaction[Any], re.Match[str], str], Awaitable[None]]


class Forms:
    """The forms the bot answers, by the pattern of their custom ids."""

    def __init__(self) -> None:
        self._answers: list[tuple[re.Pattern[str], FormAnswer]] = []

    def add(self, pattern: re.Pattern[str], answer: FormAnswer) -> None:
        self._answers.append((pattern, answer))

    async def answer(self, interaction: discord.Interaction[Any]) -> bool:
        """Answer ``interaction`` when it submits one of the forms (its handler's errors go
        to the one error reporter); whether it did."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return False
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for pattern, answer in self._answers:
            match = pattern.fullmatch(custom_id)
            if match is None:
                continue
            try:
                await answer(interaction, match, submitted_text(data.get("components")))
            except Exception as error:
                await report_error(interaction, error)
            else:
                handled(interaction, "ok")
            return True
        return False
