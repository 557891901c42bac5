"""Answering within Discord's 3 seconds when the work is slow.

Discord refuses a first answer given more than 3 s after the interaction (10062: the user sees
"This interaction failed"). Most answers are ready in milliseconds, and deferring every one
would cost a request and show "thinking…" for nothing; so a timer races the work, and only an
answer not ready :data:`DEFER_AFTER` seconds after the interaction arrived is deferred first:
a command with type 5 (its answer then fills the deferred message), a press with type 6 (the
pressed message is then edited as the answer would have: :func:`update_pressed`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

log = logging.getLogger(__name__)

__all__ = ["DEFER_AFTER", "DeferTimer", "update_pressed"]

#: Seconds after an interaction arrived past which its answer is deferred: a second short of
#: Discord's 3, for the request's own way there.
DEFER_AFTER = 2.0


class DeferTimer:
    """Defers ``interaction`` once ``after`` seconds have passed since ``arrived`` (a
    ``time.perf_counter()``; None: now) unless :meth:`settle` came first. The timer is a
    callback of the loop, not a task: almost every answer is ready long before it."""

    def __init__(self, interaction: discord.Interaction[Any], *, arrived: float | None = None,
                 after: float = DEFER_AFTER) -> None:
        self.interaction = interaction
        waited = 0.0 if arrived is None else time.perf_counter() - arrived
        self._task: asyncio.Task[None] | None = None  # the deferral, once on its way
        self._timer = asyncio.get_running_loop().call_later(max(0.0, after - waited),
                                                             self._due)

    def _due(self) -> None:
        if self.interaction.response.is_done():
            return
        # from here on, settle() waits for the deferral
        self._task = asyncio.get_running_loop().create_task(
            self._defer(), name=f"unhex-background:defer:{self.interaction.id}")

    async def _defer(self) -> None:
        try:
            await self.interaction.response.defer()
            log.info("Deferred interaction %s: its answer was not ready in time",
                     self.interaction.id)
        except (discord.HTTPException, discord.InteractionResponded) as error:
            log.warning("Could not defer interaction %s (%s)", self.interaction.id, error)

    async def settle(self) -> None:
        """The answer is ready: stop the timer, or wait for a deferral already on its way
        (so that the answer never races it)."""
        self._timer.cancel()
        if self._task is not None:
            await self._task


async def update_pressed(interaction: discord.Interaction[Any], **changes: Any) -> None:
    """Edit the message whose component was pressed, as the interaction's answer (callback
    type 7); once the press was deferred (type 6), by editing the original answer, which is
    that message."""
    if interaction.response.type is discord.InteractionResponseType.deferred_message_update:
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)
