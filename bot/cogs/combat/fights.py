"""The fight session as a fight's buttons, menus, forms and autocompletes reach it:
:class:`Fights`, got from the interaction by :func:`fights_of`.

They type it by this protocol rather than by :class:`~bot.cogs.combat.session.FightSession`
(which implements it), so the session may import them (to answer, to lay out a prompt)
without them importing it back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

import discord

from bot.host import Host
from bot.store.values import StoredCombat
from engine.catalog import Rules
from engine.combat import Combat, Command, Event
from engine.phrases import Said

__all__ = ["Fights", "MakeCommand", "Update", "fights_of"]

#: A command, or how to make it from the fight as it is under the lock.
MakeCommand = Command | Callable[[Combat], Command] | Callable[[Combat], Awaitable[Command]]
#: What brings the pressed message up to date once a step is committed: from the fight after
#: the step, and the step's events.
Update = Callable[[StoredCombat, tuple[Event, ...]], Awaitable[None]]


@runtime_checkable
class Fights(Protocol):
    """Every fight of the bot: read, and changed one command at a time."""

    rules: Rules
    clock: Callable[[], float]  # the fights' clock (epoch seconds)

    async def fight(self, channel_id: int) -> StoredCombat | None:
        """The channel's active fight (None: none)."""
        ...

    @property
    def in_memory(self) -> int:
        """How many fights are kept in memory now."""
        ...

    async def require_fight(self, interaction: discord.Interaction[Any],
                            combat_id: int | None = None,
                            version: int | None = None) -> StoredCombat:
        """The channel's fight; with ``combat_id`` (and ``version``), refused unless it is
        that fight (at that version)."""
        ...

    async def run(self, interaction: discord.Interaction[Any], make: MakeCommand, *,
                  combat_id: int | None = None, version: int | None = None,
                  update: Update | None = None,
                  hint: Callable[[Combat], Said] | None = None,
                  ) -> StoredCombat:
        """Apply a command for the user and commit it, then answer and show the fight."""
        ...

    async def run_quietly(self, interaction: discord.Interaction[Any], make: MakeCommand, *,
                          combat_id: int | None = None, update: Update) -> StoredCombat:
        """Apply a command for the user and commit it, telling only the user (``update``)."""
        ...


def fights_of(interaction: discord.Interaction[Any]) -> Fights:
    """The fight session of the bot ``interaction`` came to (the fight commands load it
    before they add any of their buttons or commands)."""
    host: Host = interaction.client
    fights = host.fights
    if not isinstance(fights, Fights):
        raise TypeError(f"the fight commands are not loaded: the bot's fights are {fights!r}")
    return fights
