"""A fight's pace as the GM gives it to `/combat start` and `/combat settings`: durations as
people type them (``45s``, ``10m``, ``12h``, ``2d``, ``1h30m``; a turn also ``none``), parsed by
pytimeparse2, a ``pace:`` of ``live`` or ``by post`` whose lengths apply unless given, and what
a turn's deadline does (``turn_end:``); and the table's news of a change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from pytimeparse2 import parse as parse_duration

from bot.i18n import N_
from bot.options import OneOf
from bot.text import echo
from bot.user_error import UserError
from engine.combat import Combat
from engine.combat.model import TurnEnd
from engine.combat.pace import LONGEST, duration_phrase, with_pace
from engine.phrases import Phrase, phrase

__all__ = [
    "FORMS", "PACES", "SHORTEST", "Pace", "PaceChoice", "Reaction", "ReactionLength", "Turn",
    "TurnDuration", "TurnEndChoice", "TurnLength", "TypedText", "news", "paced", "seconds_in",
]

#: The shortest a window may wait or a turn last (a window shorter cannot be answered).
SHORTEST = 5
#: The forms a duration is typed in, as a refusal names them.
FORMS = phrase("`45s`, `10m`, `12h`, `2d`, or together as `1h30m`, from 5 seconds to 14 days")
_NONE = "none"


def seconds_in(text: str, *, what: Phrase, none: bool = False) -> int | None:
    """The seconds ``text`` says (None: ``none``, where a turn may have no deadline); a
    refusal naming the accepted forms otherwise."""
    typed = text.strip().casefold()
    if none and typed == _NONE:
        return None
    try:
        seconds = parse_duration(typed)
    except (ValueError, OverflowError):
        seconds = None
    if isinstance(seconds, int | float) and SHORTEST <= seconds <= LONGEST:
        return round(seconds)
    typed = echo(text.strip())
    raise UserError(phrase("“{typed}” is not a duration for {what}: type {forms}, or `none` "
                           "for no deadline. Nothing was changed.", typed=typed, what=what,
                           forms=FORMS) if none else
                    phrase("“{typed}” is not a duration for {what}: type {forms}. Nothing was "
                           "changed.", typed=typed, what=what, forms=FORMS))


@dataclass(frozen=True)
class TurnLength:
    """A turn's length as given: seconds, or None for no deadline."""

    seconds: int | None


class TypedText(app_commands.Transformer):
    """A value typed as text, such as a duration (at most 20 characters: Discord's client
    keeps to it, ``check_options`` refuses a payload that does not)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:  # sent to Discord as min_length
        return 1

    @property
    def max_value(self) -> int:  # sent to Discord as max_length
        return 20


class ReactionLength(TypedText):
    """How long a reaction window waits, typed as a duration: its seconds."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        seconds = seconds_in(str(value), what=phrase("a reaction window"))
        assert seconds is not None
        return seconds


class TurnDuration(TypedText):
    """How long a team's turn lasts, typed as a duration or ``none``."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any,
                        /) -> TurnLength:
        return TurnLength(seconds_in(str(value), what=phrase("a turn"), none=True))


@dataclass(frozen=True)
class Pace:
    """A pace's lengths, used where the GM does not give them."""

    reaction_seconds: int
    turn_seconds: int | None


PACES = {"live": Pace(45, None), "by post": Pace(24 * 3600, 48 * 3600)}
_TURN_ENDS = {"ask the GM": TurnEnd.ASK, "auto": TurnEnd.AUTO}
#: The choices as Discord's client lists them (translated; the values stay these words).
_CHOICE_NAMES = {"live": N_("live"), "by post": N_("by post"), "ask the GM": N_("ask the GM"),
                 "auto": N_("auto")}

PaceChoice = app_commands.Transform[str, OneOf([
    app_commands.Choice(name=_CHOICE_NAMES[n], value=n) for n in PACES])]
TurnEndChoice = app_commands.Transform[str, OneOf([
    app_commands.Choice(name=_CHOICE_NAMES[n], value=n) for n in _TURN_ENDS])]
Reaction = app_commands.Transform[int, ReactionLength]
Turn = app_commands.Transform[TurnLength, TurnDuration]


def paced(state: Combat, *, reaction: int | None, turn: TurnLength | None, pace: str | None,
          turn_end: str | None, now: float) -> Combat:
    """``state`` with the pace given: a ``pace``'s lengths unless others are given, else
    what it had."""
    base = PACES[pace] if pace is not None else Pace(state.reaction_seconds, state.turn_seconds)
    return with_pace(
        state,
        reaction_seconds=base.reaction_seconds if reaction is None else reaction,
        turn_seconds=base.turn_seconds if turn is None else turn.seconds,
        turn_end=state.turn_end if turn_end is None else _TURN_ENDS[turn_end], now=now)


def news(before: Combat, after: Combat) -> list[Phrase]:
    """What the table is told of a pace changed from ``before`` to ``after``."""
    said = []
    if after.reaction_seconds != before.reaction_seconds:
        said.append(phrase("Reactions now wait {duration}.",
                           duration=duration_phrase(after.reaction_seconds)))
    if after.turn_seconds != before.turn_seconds:
        said.append(phrase("A team's turn now has no deadline.") if after.turn_seconds is None
                    else phrase("A team's turn now lasts {duration}.",
                                duration=duration_phrase(after.turn_seconds)))
    if after.turn_end != before.turn_end:
        said.append(phrase("At a turn's deadline, the turn now ends by itself.")
                    if after.turn_end is TurnEnd.AUTO else
                    phrase("At a turn's deadline, the GM is now asked what to do."))
    return said
