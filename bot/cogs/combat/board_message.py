"""A fight's board: one message, edited at each step and pinned while the fight lasts.

Discord refuses to edit a message for good in three ways a long fight meets: an hour-old
message edited too often (30046, as a 400, or as a 429 the bot's HTTP trace raises at once),
a message a moderator deleted (10008), a thread archived while idle (50083). Each time the
board is posted afresh (a post brings an archived thread back), pinned, and the old board
unpinned. When the board cannot be pinned (250 pins, or Pin Messages taken away) the fight
goes on and the table is told once where the board is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING

import discord
from discord.http import handle_message_parameters

from bot.cogs.combat.views import code
from bot.i18n import SOURCE, render
from bot.permissions import permission_label
from bot.store.values import StoredCombat
from engine.catalog import Rules
from engine.combat import render_board
from engine.phrases import Phrase, Said, phrase

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

__all__ = ["REPOSTED_ON", "BoardMessages", "board_link", "board_text"]

UNKNOWN_MESSAGE = 10008
OLD_MESSAGE_EDITS = 30046
THREAD_ARCHIVED = 50083
PINS_FULL = 30003
#: The refusals after which Discord will not edit the board but takes a new one.
REPOSTED_ON = frozenset({UNKNOWN_MESSAGE, OLD_MESSAGE_EDITS, THREAD_ARCHIVED})


def board_link(stored: StoredCombat, message_id: int) -> str:
    """The link that opens the board's message in Discord's client."""
    return f"https://discord.com/channels/{stored.guild_id}/{stored.channel_id}/{message_id}"


def unpinned_notice(stored: StoredCombat, message_id: int,
                    error: discord.HTTPException) -> Phrase:
    """What the table is told when Discord refused to pin the board (``error``)."""
    link = board_link(stored, message_id)
    if error.code == PINS_FULL:
        return phrase("📌 The fight's board is not pinned: this channel has Discord's most pins "
                      "(250): unpin an old message and the next new board is pinned. The "
                      "board is here: {link}", link=link)
    return phrase("📌 The fight's board is not pinned: I lack the **{permission}** permission "
                  "here. The board is here: {link}", permission=permission_label("pin_messages"),
                  link=link)


@cache
def _sayer(language: str) -> Callable[[Said], str]:
    """How the board says a phrase in ``language``: one function per language, so that the
    board's drawn map is kept across steps (it is kept per way of saying); a partial, so the
    board's dozen words a step cost no Python call each."""
    return partial(render, language=language)


def board_text(stored: StoredCombat, rules: Rules, language: str, *, gm: bool = False) -> str:
    """The fight's board as the channel reads it in ``language``."""
    return render_board(stored.state, rules=rules, gm=gm, say=_sayer(language))


class BoardMessages:
    """Keeps each fight's board message up to date (called from the per-channel worker)."""

    def __init__(self, rules: Rules, bot: Host) -> None:
        self.rules = rules
        self.bot = bot

    async def show(self, channel: discord.PartialMessageable, stored: StoredCombat,
                   board_id: int | None, *, nonce: str, language: str = SOURCE) -> int:
        """Edit the board (post it, when there is none yet or Discord will not edit it);
        its message id. ``nonce``: the new message's, should one be posted. The board reads
        in ``language`` (the channel's)."""
        content = code(board_text(stored, self.rules, language))
        replaced = None
        if board_id is not None:
            try:
                await self._edit(channel.id, board_id, content)
                return board_id
            except discord.HTTPException as error:
                if error.code not in REPOSTED_ON:
                    raise  # a permission or an outage: the next step (or a retry) shows it
                log.info("Board %s of fight %s refused (%s %s): posting it afresh", board_id,
                         stored.id, error.status, error.code)
                replaced = None if error.code == UNKNOWN_MESSAGE else board_id
        message = await channel.send(content, nonce=nonce)
        if stored.pin and stored.active:
            await self._pin(channel, stored, message, language)
        if stored.pin and replaced is not None:
            await self._unpin(channel, replaced, reason="A newer board of the fight replaces it")
        return message.id

    async def _edit(self, channel_id: int, board_id: int, content: str) -> None:
        """Edit the board's text through the bot's HTTP client (its rate limits kept), not
        ``PartialMessage.edit``: that builds a whole ``Message`` from Discord's answer, which
        nothing here reads."""
        with handle_message_parameters(content=content,
                                       previous_allowed_mentions=self.bot.allowed_mentions
                                       ) as params:
            await self.bot.http.edit_message(channel_id, board_id, params=params)

    async def end(self, channel: discord.PartialMessageable, stored: StoredCombat,
                  board_id: int | None) -> None:
        """The fight is over: its board is unpinned."""
        if stored.pin and board_id is not None:
            await self._unpin(channel, board_id, reason="The fight is over")

    @staticmethod
    async def _pin(channel: discord.PartialMessageable, stored: StoredCombat,
                   message: discord.Message, language: str) -> None:
        """Pin the board so the table finds it whatever the channel's traffic. Refused for
        good (pins full, Pin Messages missing), the table is told where the board is; the
        fight goes on either way."""
        try:
            await message.pin(reason="The fight's board, while the fight lasts")
        except discord.HTTPException as error:
            log.warning("Could not pin the board %s: %s", message.id, error)
            if error.code == PINS_FULL or isinstance(error, discord.Forbidden):
                await _post_quietly(channel, render(unpinned_notice(stored, message.id, error),
                                                    language))
        except discord.RateLimited as error:
            log.warning("Could not pin the board %s: %s", message.id, error)

    @staticmethod
    async def _unpin(channel: discord.PartialMessageable, board_id: int, *,
                     reason: str) -> None:
        try:
            await channel.get_partial_message(board_id).unpin(reason=reason)
        except (discord.HTTPException, discord.RateLimited) as error:
            log.warning("Could not unpin the board %s: %s", board_id, error)


async def _post_quietly(channel: discord.PartialMessageable, text: str) -> None:
    """Post ``text`` pinging nobody; a refusal is logged (there is nobody else to tell)."""
    try:
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except (discord.HTTPException, discord.RateLimited) as error:
        log.warning("Could not post in channel %s: %s", channel.id, error)
