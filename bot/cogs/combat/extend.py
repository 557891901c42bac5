"""`/combat extend by:`: a GM gives the team whose turn it is more time, by a duration typed as
people type them (``12h``, ``2d``, ``1h30m``), where the deadline's **Extend** button gives the
turn's own length again. The deadline moves on from when it was, or from now once it has
passed; the table is told the new deadline as Discord timestamps (each reader's own time
zone). Refused, with nothing changed, without a fight, without a turn deadline to extend, or
for a duration that is not one."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.cogs.combat.answered import when
from bot.cogs.combat.fights import MakeCommand, fights_of
from bot.cogs.combat.pace import TypedText, seconds_in
from bot.i18n import N_
from bot.permissions import require_gm
from bot.user_error import UserError
from engine.combat import Combat, Command
from engine.combat.commands import ExtendTurn
from engine.phrases import Said, phrase

__all__ = ["extend_command", "new_deadline"]

NO_DEADLINE = phrase("This fight has no turn deadline to extend: a GM gives turns one with "
                     "`/combat settings turn:`. Nothing was changed.")


class ExtensionLength(TypedText):
    """How much longer a turn lasts, typed as a duration: its seconds."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        seconds = seconds_in(str(value), what=phrase("an extension"))
        assert seconds is not None
        return seconds


def new_deadline(state: Combat) -> Said:
    """What the table is told after what happened: the turn's deadline now."""
    if state.turn_deadline is None:
        return ""
    return phrase("\n⏱️ The turn now ends {when}.", when=when(state.turn_deadline))


def _extending(seconds: int) -> MakeCommand:
    def command(state: Combat) -> Command:
        if state.turn_deadline is None:  # (the engine would give the turn one)
            raise UserError(NO_DEADLINE)
        return ExtendTurn(seconds=seconds)

    return command


async def _extend(interaction: discord.Interaction[Any],
                  by: app_commands.Transform[int, ExtensionLength]) -> None:
    await require_gm(interaction, phrase("extend a turn"))
    await fights_of(interaction).run(interaction, _extending(by), hint=new_deadline)


def extend_command() -> app_commands.Command[Any, ..., None]:
    """`/combat extend`, made afresh for each bot (a command belongs to one group)."""
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="extend", callback=_extend,
        description=N_("Give the team whose turn it is more time (GMs)."))
    return app_commands.describe(
        by=N_("How much longer: 12h, 2d, 1h30m (up to 14 days)"))(command)
