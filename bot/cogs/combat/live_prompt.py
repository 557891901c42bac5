"""The one message of a fight whose buttons are live: its prompt.

A prompt is posted either as an interaction's follow-up (a press or a command answered: the
follow-up goes through the interaction's token, which does not spend the channel's buckets)
or in the channel by the presenter (a window closed by its timer, a restart, an undo). When a
newer prompt goes out, the one it replaces loses its buttons (and a window's countdown in it
says when it closed): through the webhook of the
interaction that posted it while that token lives (15 minutes), else through the channel. A
prompt that arrives after a newer one is stripped at once, so whatever order Discord answers
in, one message of the fight has live buttons. The token stays in memory; the database keeps
the message's id, so a restart strips it through the channel.

A step that changes nothing the prompt asks (a standing order, the fight's settings) keeps the
live prompt where it is (:meth:`LivePrompts.keep`): its buttons, made for an older version,
still answer while it asks what the fight asks (see ``Presenter.answers``).

By post, the prompt to strip is mostly older than an hour, and Discord edits only about 3 of
those per 6 s in a channel (a 429 with code 30046). A strip Discord refuses deletes the old
prompt instead (a delete does not spend those edits): the fight keeps one prompt with live
buttons whatever the channel's edits, and nothing is raised to the press that caused it. A
delete refused too is logged and the fight's channel swept the next time it is shown.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import discord

from bot.cogs.combat.answered import settled
from bot.i18n import SOURCE
from bot.store.values import StoredCombat

log = logging.getLogger(__name__)

__all__ = ["LivePrompt", "LivePrompts", "strip"]

#: How long an interaction's webhook is used to edit what it posted: its token lasts
#: 15 minutes; past 14, the channel is safer.
TOKEN_SECONDS = 14 * 60.0
UNKNOWN_MESSAGE = 10008


@dataclass(frozen=True)
class LivePrompt:
    """The fight's prompt for ``version``; ``message_id`` None: nothing asked, or its buttons
    are gone already (a press answered on it)."""

    version: int
    message_id: int | None
    #: Posted as an interaction's follow-up: edited through that interaction's webhook.
    webhook: discord.WebhookMessage | None = None
    posted_at: float = 0.0  # time.monotonic() when posted
    #: What it says, when this process knows (not after a restart).
    content: str | None = None
    #: What it looks like, its versions aside (``Presenter``'s ``look_of``): whether a newer
    #: version asks the same; None when this process does not know.
    look: object = None
    #: The language it says ``content`` in (its countdowns are found in that language).
    language: str = SOURCE

    @staticmethod
    def followup(stored: StoredCombat, message: discord.WebhookMessage,
                 look: object = None, *, language: str) -> LivePrompt:
        return LivePrompt(stored.version, message.id, message, time.monotonic(),
                          message.content, look, language)


class LivePrompts:
    """Per fight, its live prompt as this process knows it (else as the database keeps it)."""

    def __init__(self, clock: Callable[[], float] = time.time,
                 stray: Callable[[int], None] = lambda combat_id: None) -> None:
        self._live: dict[int, LivePrompt] = {}  # fight -> its prompt
        self.clock = clock  # the fights' clock (epoch seconds): when a question closed
        #: Told the fight's id when an old prompt kept its buttons (Discord refused both to
        #: strip and to delete it): its channel is to be swept.
        self.stray = stray

    def of(self, stored: StoredCombat) -> LivePrompt:
        known = self._live.get(stored.id)
        if known is not None:
            return known
        return LivePrompt(stored.shown_version, stored.prompt_message_id)

    def known(self, combat_id: int) -> bool:
        """Whether this process knows the fight's prompt (else it reads the database's)."""
        return combat_id in self._live

    def is_live(self, stored: StoredCombat, message_id: int | None) -> bool:
        return message_id is not None and self.of(stored).message_id == message_id

    def pressed(self, stored: StoredCombat, message_id: int) -> None:
        """A press was answered on ``message_id`` with its buttons gone (callback type 7)."""
        if self.is_live(stored, message_id):
            self._live[stored.id] = replace(self.of(stored), message_id=None, webhook=None)

    def forget(self, combat_id: int) -> None:
        self._live.pop(combat_id, None)

    def keep(self, stored: StoredCombat) -> None:
        """The live prompt asks what ``stored`` asks (the caller compared): it stays, as
        ``stored``'s prompt, with the buttons it has."""
        self._live[stored.id] = replace(self.of(stored), version=stored.version)

    async def replace(self, stored: StoredCombat, channel: discord.PartialMessageable,
                      new: LivePrompt, *, taken_back: str | None = None) -> bool:
        """``new`` is the fight's prompt unless a newer one is out already; whichever of the
        two is older loses its buttons (``taken_back``: the text it then says instead).
        Whether ``new`` is the live prompt."""
        old = self.of(stored)
        if old.version > new.version:
            stale, kept = new, False  # a newer prompt went out meanwhile
        else:
            self._live[stored.id] = new
            stale, kept = old, True
        if stale.message_id is not None and stale.message_id != new.message_id and not \
                await strip(channel, stale, content=taken_back if kept else None,
                            now=self.clock()):
            self.stray(stored.id)
        return kept


async def strip(channel: discord.PartialMessageable, prompt: LivePrompt, *,
                content: str | None = None, now: float | None = None) -> bool:
    """``prompt`` loses its buttons (``content``: and says that instead; else, with ``now``,
    a countdown in what it says tells when its question closed): through its interaction's
    webhook while the token lives (no channel bucket spent), else the channel; a deleted
    prompt has nothing to strip. An edit Discord refuses (an hour-old message's edits spent:
    30046; any other refusal) deletes the prompt instead. Whether its buttons are gone (False:
    the delete was refused too; logged, never raised)."""
    changes: dict[str, object] = {"view": None}
    if content is None and now is not None and prompt.content is not None:
        stopped = settled(prompt.content, now, prompt.language)
        content = stopped if stopped != prompt.content else None
    if content is not None:
        changes["content"] = content
    fresh = prompt.webhook is not None and time.monotonic() - prompt.posted_at < TOKEN_SECONDS
    if prompt.webhook is not None and fresh:
        try:
            await prompt.webhook.edit(**changes)  # type: ignore[arg-type]
            return True
        except discord.HTTPException as error:  # (the token gone) the channel can
            if error.code == UNKNOWN_MESSAGE:
                return True
            log.info("Could not strip prompt %s through its interaction (%s)",
                     prompt.message_id, error)
    assert prompt.message_id is not None
    message = channel.get_partial_message(prompt.message_id)
    try:
        await message.edit(**changes)  # type: ignore[arg-type]
        return True
    except discord.NotFound:
        return True
    except (discord.HTTPException, discord.RateLimited) as error:
        log.info("Discord refused to strip prompt %s (%s): deleting it instead",
                 prompt.message_id, error)
    try:
        await message.delete()
    except discord.NotFound:
        return True
    except (discord.HTTPException, discord.RateLimited) as error:
        log.warning("Discord refused to delete prompt %s too (%s): it keeps its buttons "
                    "until its channel is swept", prompt.message_id, error)
        return False
    return True
