"""String options with limits that hold on receipt, not only in Discord's client.

``app_commands.Range[str, 1, N]`` sends ``max_length`` to Discord, so its client stops a user
at N characters, but discord.py does not check it when the command arrives (its
``RangeTransformer`` passes any value through), and a stale or forged client may send
anything. :class:`Text` sends the same limits, :class:`OneOf` a fixed list of choices, and
:func:`check_options` refuses, with a clear message that does not echo the value, whatever
does not fit them.

Use them as annotations: ``name: app_commands.Transform[str, Text(32)]``.

:func:`check_options` is the command tree's interaction check: before any command runs, every
option must have the type, length or choice the command declares (discord.py checks none of
these; its ``Range[int, 1, 25]`` only tells Discord's client), and the options must be the
command's own. So every command's bounds hold in this one place, numbers' included: a forged
``count:10000`` is refused before the command writes anything. Discord's clients keep to the
declarations; a client with the commands of an older version of the bot, or a forged payload,
may not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.errors import OUTDATED
from bot.text import echo
from engine.listing import one_by_one
from engine.phrases import Phrase, Said, english, phrase, plural_phrase

__all__ = ["OneOf", "OptionRefused", "Text", "check_options"]


class Text(app_commands.Transformer):
    """A string option of ``min_length``-``max_length`` characters. Discord's client keeps to
    the limits; :func:`check_options` refuses a payload that does not, before any command
    runs (discord.py checks neither, and its ``Range`` passes any string through)."""

    def __init__(self, max_length: int, *, min_length: int = 1) -> None:
        if not 0 <= min_length <= max_length:
            raise ValueError("min_length is 0-max_length")
        self._min = min_length
        self._max = max_length

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
        return str(value)  # already checked by check_options


class OneOf(app_commands.Transformer):
    """A string option whose value is one of ``choices`` (shown by Discord as a list); a
    payload with any other value is refused by :func:`check_options`."""

    def __init__(self, choices: Sequence[app_commands.Choice[Any]]) -> None:
        self._choices: list[app_commands.Choice[Any]] = list(choices)

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return self._choices

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        return str(value)  # already checked by check_options


def _length_problem(length: int, shortest: int, longest: int) -> Phrase | None:
    """Why a text of ``length`` characters does not fit, as the end of a sentence."""
    if length > longest:
        return phrase("takes at most {longest} characters; yours has {length}",
                      longest=f"{longest:,}", length=f"{length:,}")
    if length < shortest:
        return plural_phrase("takes at least {shortest} character",
                             "takes at least {shortest} characters", "count",
                             shortest=f"{shortest:,}", count=shortest)
    return None


#: The integers Discord carries (a double's exact ones): the bounds of an option without any.
DISCORD_INTEGERS = 2**53


def _number_problem(value: float, low: float | None, high: float | None) -> Phrase | None:
    """Why ``value`` is outside ``low``-``high`` (Discord's own bounds where unset), as the
    end of a sentence, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return phrase("takes a number")
    shortest = -DISCORD_INTEGERS if low is None else low
    longest = DISCORD_INTEGERS if high is None else high
    if shortest <= value <= longest:
        return None
    return phrase("takes a number from {shortest} to {longest}; it got {value}",
                  shortest=f"{shortest:,}", longest=f"{longest:,}", value=f"{value:,}")


def _choice_name(name: str) -> Phrase:
    """A choice's name as Discord's client lists it in the reader's language: its catalogue
    entry (the command translator's lookup), or the name as it is (a language's own name)."""
    # Translators: a choice's name, quoted in the list of an option's choices.
    return phrase("“{choice}”", choice=Phrase(name))


def _choice_problem(choices: Sequence[app_commands.Choice[Any]]) -> Phrase:
    return phrase("takes one of: {choices}",
                  choices=one_by_one([_choice_name(c.name) for c in choices]))


class OptionRefused(app_commands.CheckFailure):
    """An option that is not what its command declares; the message (``said``, rendered in
    the user's language by :mod:`bot.errors`) says which and why."""

    def __init__(self, said: Said) -> None:
        super().__init__(english(said))
        self.said: Said = said


#: Each option type that Discord picks (a user, a role…), as the end of its refusal.
_PICKED = {
    discord.AppCommandOptionType.user: phrase("takes a user picked in Discord"),
    discord.AppCommandOptionType.channel: phrase("takes a channel picked in Discord"),
    discord.AppCommandOptionType.role: phrase("takes a role picked in Discord"),
    discord.AppCommandOptionType.mentionable: phrase("takes a mentionable picked in Discord"),
    discord.AppCommandOptionType.attachment: phrase("takes a attachment picked in Discord"),
}
_SNOWFLAKE_TYPES = set(_PICKED)


def _leaf_options(data: Any) -> list[Any]:
    """The options of the subcommand that runs (inside its groups)."""
    options = data.get("options") or [] if isinstance(data, dict) else []
    while isinstance(options, list) and len(options) == 1 and isinstance(options[0], dict) \
            and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    return options if isinstance(options, list) else []


def _problem(param: app_commands.Parameter, value: Any) -> Phrase | None:
    """Why ``value`` does not fit ``param``, as the end of a sentence, or None."""
    kind = param.type
    if kind is discord.AppCommandOptionType.string:
        low, high = param.min_value, param.max_value  # lengths, for text
        if not isinstance(value, str):
            return phrase("takes text")
        if "\x00" in value:  # never sent by Discord's clients; PostgreSQL cannot keep it
            return phrase("takes text without NUL characters")
        if param.choices and value not in {c.value for c in param.choices}:
            return _choice_problem(param.choices)
        shortest, longest = int(low or 0), int(high or 6000)  # Discord's longest option
        if not shortest <= len(value) <= longest:
            return _length_problem(len(value), shortest, longest)
        return None
    if kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        number = (int,) if kind is discord.AppCommandOptionType.integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, number):
            return phrase("takes a number; it got “{typed}”", typed=echo(str(value)))
        if param.choices and value not in {c.value for c in param.choices}:
            return _choice_problem(param.choices)
        return _number_problem(value, param.min_value, param.max_value)
    if kind is discord.AppCommandOptionType.boolean:
        return None if isinstance(value, bool) else phrase("takes True or False")
    if kind in _SNOWFLAKE_TYPES:
        fits = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 20
        return None if fits else _PICKED[kind]
    return None


async def check_options(interaction: discord.Interaction[Any]) -> bool:
    """The command tree's interaction check (see the module docstring): refuse a slash
    command whose options do not fit it, with a sentence saying which option and why; offer
    no choices while typing one option when the others do not fit."""
    typing = interaction.type is discord.InteractionType.autocomplete
    if not typing and interaction.type is not discord.InteractionType.application_command:
        return True
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True  # an unknown command is refused by the tree (errors.py)
    try:
        _check(command, _leaf_options(interaction.data), typing=typing)
    except OptionRefused:
        if not typing:
            raise
        await interaction.response.autocomplete([])
        return False
    return True


def _check(command: app_commands.Command[Any, ..., Any], options: list[Any], *,
           typing: bool) -> None:
    params = {p.display_name: p for p in command.parameters}
    given: set[str] = set()
    for option in options:
        name = option.get("name") if isinstance(option, dict) else None
        param = params.get(name) if isinstance(name, str) else None
        if param is None or option.get("type") != param.type.value or name in given:
            raise OptionRefused(OUTDATED)
        given.add(param.display_name)
        if typing and option.get("focused"):
            continue  # what is typed so far, as a string whatever the option's type
        problem = _problem(param, option.get("value"))
        if problem is not None:
            raise OptionRefused(phrase("The `{option}` option {problem}. Nothing was changed.",
                                       option=param.display_name, problem=problem))
    if not typing and any(p.required and p.display_name not in given
                          for p in command.parameters):
        raise OptionRefused(OUTDATED)
