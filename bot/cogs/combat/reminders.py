"""Reminders at the table (``engine.combat.reminders``): the late players of a question are
pinged once, in the fight's channel, by one message that mentions only them, saying what
waits for each and by when (as Discord timestamps), with a link to the prompt. A player who
chose `/settings reminders where: dm` is reminded by direct message instead; when Discord refuses
it (the player takes no direct messages from the bot: 50007, or any other refusal), they are
reminded in the channel, and the first such message tells them so: the player's settings
keep that they were told (not again), until Discord takes a direct message of theirs again.
The direct message is tried every time: they may have opened their privacy settings since.

Both are said in the server's language: a reminder answers no interaction, so the player's
Discord language is not known then (the bot keeps no one's locale), and the direct message
speaks of the server's fight as its channel does."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.cogs.combat.board_message import board_link
from bot.cogs.combat.fight_language import fight_language
from bot.i18n import N_, render
from bot.store.values import StoredCombat
from bot.text import clip
from engine.combat.asking import Question
from engine.combat.reminders import LEAST_LEFT, Reminder
from engine.phrases import phrase

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger(__name__)

__all__ = ["CANNOT_DM", "DM_REFUSED", "send_reminders"]

#: Discord's code for a direct message the user does not take.
CANNOT_DM = 50007
#: What a player whose direct message was refused is told, in the channel.
DM_REFUSED = N_("I couldn't send you a direct message (Discord refused it: your privacy "
                "settings may block messages from me), so you are reminded here.")


def _by_when(deadline: float) -> str:
    return f"<t:{int(deadline)}:f> (<t:{int(deadline)}:R>)"


def _waits(questions: Sequence[Question], language: str) -> str:
    return "; ".join(f"{q.who} {render(q.text, language)}" for q in questions)


def _channel_text(saved: StoredCombat, reminder: Reminder, users: Sequence[int],
                  refused: Sequence[int], link: str | None, language: str) -> str:
    lines = [render(phrase("⏰ Reminder: the fight waits for you until {when}.",
                           when=_by_when(reminder.deadline)), language)]
    lines += [f"<@{u}>: {_waits(reminder.asking(saved.state, u), language)}." for u in users]
    lines += [f"-# <@{u}>: {render(DM_REFUSED, language)}" for u in refused]
    if link is not None:
        lines.append(render(phrase("[Go to the prompt]({link})", link=link), language))
    return clip("\n".join(lines))


def _dm_text(saved: StoredCombat, reminder: Reminder, user_id: int, link: str | None,
             language: str) -> str:
    return clip(render(phrase(
        "⏰ Reminder: the fight in {channel} waits for you until {when}.\n{waits}.\n"
        "Answer there: {where}", channel=f"<#{saved.channel_id}>",
        when=_by_when(reminder.deadline),
        waits=_waits(reminder.asking(saved.state, user_id), language),
        where=link or f"<#{saved.channel_id}>"), language))


def _link(saved: StoredCombat, prompt_id: int | None) -> str | None:
    message = prompt_id or saved.board_message_id
    return None if message is None else board_link(saved, message)


async def _direct(bot: Host, user_id: int, text: str) -> bool:
    """Send ``text`` to the user by direct message: whether Discord took it."""
    try:
        channel = await bot.http.start_private_message(user_id)
        await bot.get_partial_messageable(int(channel["id"])).send(
            text, allowed_mentions=discord.AllowedMentions.none())
    except (discord.HTTPException, discord.RateLimited) as error:
        code = getattr(error, "code", None)
        if code != CANNOT_DM:
            log.warning("Could not remind user %s by direct message (%s)", user_id, error)
        return False
    return True


async def send_reminders(bot: Host, saved: StoredCombat, due: Sequence[Reminder], *,
                         now: float, prompt_id: int | None) -> None:
    """Remind the late players of each of ``due`` (recorded as sent already): those with
    less than ``LEAST_LEFT`` to go are let be. A refusal is logged: nobody is waiting on it."""
    due = [r for r in due if r.deadline - now >= LEAST_LEFT]
    if not due:
        return
    asked = sorted({u for r in due for u in r.users})
    by_dm = await bot.store.players.reminded_by_dm(asked)
    told = await bot.store.players.dm_refused(sorted(by_dm))
    link = _link(saved, prompt_id)
    language = await fight_language(bot, saved.guild_id)
    for reminder in due:
        here: list[int] = []
        refused: list[int] = []
        for user_id in reminder.users:
            if user_id not in by_dm:
                here.append(user_id)
            elif await _direct(bot, user_id, _dm_text(saved, reminder, user_id, link, language)):
                if user_id in told:  # taken again: a later refusal is said again
                    told.discard(user_id)
                    await bot.store.players.set_dm_refused(user_id, False)
            else:
                here.append(user_id)
                if user_id not in told:
                    refused.append(user_id)
        if here and await _in_channel(bot, saved, _channel_text(saved, reminder, here, refused,
                                                                 link, language), here):
            for user_id in refused:  # told now: not again, until a DM is taken
                told.add(user_id)
                await bot.store.players.set_dm_refused(user_id, True)


async def _in_channel(bot: Host, saved: StoredCombat, text: str, users: Sequence[int]) -> bool:
    """Post ``text`` in the fight's channel, pinging ``users`` alone: whether Discord took it."""
    channel = bot.get_partial_messageable(saved.channel_id, guild_id=saved.guild_id)
    try:
        await channel.send(text, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in users]))
    except (discord.HTTPException, discord.RateLimited) as error:
        log.warning("Could not remind the late in channel %s (%s)", saved.channel_id, error)
        return False
    return True
