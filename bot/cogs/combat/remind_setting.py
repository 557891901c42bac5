"""When a fight reminds its late players, as the GM gives it to `/combat settings remind:`: a
part of the time left (``25%``, the default), a duration before the deadline (``2h``, typed as
the pace's durations are), or ``none``; and the table's news of a change."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.cogs.combat.pace import FORMS, TypedText, seconds_in
from bot.i18n import N_
from bot.text import echo
from bot.user_error import UserError
from engine.combat import Combat
from engine.combat.reminders import reminder_phrase, with_reminder
from engine.phrases import Said, phrase

__all__ = ["REMIND_HELP", "Remind", "RemindPoint", "news", "reminding"]

REMIND_HELP = N_("When the late are reminded: 25% (of the time left), 2h (before), or none")
_PERCENT = re.compile(r"(\d{1,2})\s*%")


@dataclass(frozen=True)
class RemindPoint:
    """A reminder's point as given: a part of the time left, or seconds before the deadline
    (neither: never)."""

    fraction: float | None
    seconds: int | None


def remind_point(text: str) -> RemindPoint:
    """The point ``text`` says; a refusal naming the accepted forms otherwise."""
    typed = text.strip().casefold()
    if typed == "none":
        return RemindPoint(None, None)
    percent = _PERCENT.fullmatch(typed)
    if percent is not None and 1 <= int(percent[1]) <= 99:
        return RemindPoint(int(percent[1]) / 100, None)
    if percent is None and not typed.endswith("%"):
        try:
            return RemindPoint(None, seconds_in(typed, what=phrase("a reminder")))
        except UserError:
            pass
    raise UserError(phrase("“{typed}” is not a reminder's point: type a part of the time left "
                           "from `1%` to `99%`, a time before the deadline ({forms}), or "
                           "`none`. Nothing was changed.", typed=echo(text.strip()),
                           forms=FORMS))


class RemindTyped(TypedText):
    """A reminder's point typed as text (at most 20 characters)."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any,
                        /) -> RemindPoint:
        return remind_point(str(value))


Remind = app_commands.Transform[RemindPoint, RemindTyped]


def reminding(state: Combat, point: RemindPoint | None) -> Combat:
    """``state`` reminding at ``point`` (None: as it was)."""
    if point is None:
        return state
    return with_reminder(state, fraction=point.fraction, seconds=point.seconds)


def news(before: Combat, after: Combat) -> list[Said]:
    """What the table is told of a reminder's point changed from ``before`` to ``after``."""
    was = (before.remind_fraction, before.remind_seconds)
    now = (after.remind_fraction, after.remind_seconds)
    if was == now:
        return []
    if now == (None, None):
        return [phrase("Nobody is reminded of a deadline any more.")]
    return [phrase("Whoever is late is now reminded {when}.", when=reminder_phrase(*now))]
