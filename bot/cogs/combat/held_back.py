"""Fights a missing permission holds back.

A moderator may take a permission away from the bot in a fight's channel at any moment, even
while a press is on its way (Discord checked the press against the permissions the bot had
then). The step is committed either way, and its answers go through the interaction's token,
which needs no permission in the channel; what the channel's worker is then refused (403:
50013 Missing Permissions, 50001 Missing Access) waits here, not retried, until the
permissions change (the gateway's CHANNEL_UPDATE or GUILD_ROLE_UPDATE) so that the bot may
show the fight again, in full. The next step in the channel shows it too. The presser is
told at once, in the answer, which permission the bot lacks, from what the gateway last
said of the channel.
"""

from __future__ import annotations

import discord

from bot.cogs.combat.fight_permissions import permissions_named
from bot.host import Host
from bot.permissions import missing_to_show_a_fight
from bot.store.values import StoredCombat
from engine.phrases import Phrase, phrase

__all__ = ["HeldBack", "lacking_notice"]


def lacking_notice(missing: list[Phrase]) -> Phrase:
    """What the presser is told when the bot lacks ``missing`` (labels, as Discord names
    them) in the channel."""
    return phrase("⚠️ I lack the **{permissions}** permission in this channel now: this step is "
                  "saved, but I may not post the fight's messages here. Ask a server admin to "
                  "grant it back; the table is shown in full once it is.",
                  permissions=permissions_named(missing))


class HeldBack:
    """The fights whose newest version Discord refused to show for a missing permission."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._fights: dict[int, StoredCombat] = {}  # fight -> its newest version refused

    def missing(self, channel_id: int) -> list[Phrase]:
        """The permissions a fight's messages need that the bot lacks in the channel now, as
        the gateway last told (none when the channel is not known)."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return []
        me = channel.guild.me
        if me is None:
            return []
        return missing_to_show_a_fight(channel.permissions_for(me),
                                       in_thread=isinstance(channel, discord.Thread))

    def hold(self, stored: StoredCombat) -> None:
        """Discord refused to show ``stored`` for a missing permission."""
        held = self._fights.get(stored.id)
        if held is None or held.version <= stored.version:
            self._fights[stored.id] = stored

    def shown(self, stored: StoredCombat) -> None:
        """``stored`` is shown in full: nothing older of its fight is held back."""
        held = self._fights.get(stored.id)
        if held is not None and held.version <= stored.version:
            del self._fights[stored.id]

    def released(self, guild_id: int) -> list[StoredCombat]:
        """The held fights of the guild that the bot may show now (no longer held)."""
        found = [s for s in self._fights.values()
                 if s.guild_id == guild_id and not self.missing(s.channel_id)]
        for stored in found:
            del self._fights[stored.id]
        return found
