"""The local table's server, as the local Discord is seeded with it: a guild with a GM (its
owner, the GM role allowing Manage Server), four players (alice, bob, carol, dave), the bot
(its role allowing what it asks for), ``#fight`` and ``#tavern``. The ids are fixed: a
restart, and the state file kept beside the database, find the bot's fights where they were.
"""

from __future__ import annotations

from localdiscord.model import APP_ID, Channel, Guild, Member, Permission, Role, Seed, User

GUILD_ID = 900_000_000_000_000_100
GM_ID = 800_000_000_000_000_010
PLAYERS = ("alice", "bob", "carol", "dave")
CHANNELS = ("fight", "tavern")
BOT_NAME = "Unhex"

#: What everyone may do at the table (the @everyone role).
PLAYER = (Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.READ_MESSAGE_HISTORY
          | Permission.USE_APPLICATION_COMMANDS | Permission.SEND_MESSAGES_IN_THREADS)
#: The bot's role: what it asks for (bot/permissions.py), and embeds and threads managed.
BOT = (PLAYER | Permission.EMBED_LINKS | Permission.ATTACH_FILES | Permission.PIN_MESSAGES
       | Permission.CREATE_PUBLIC_THREADS | Permission.MANAGE_THREADS)


def table_seed() -> Seed:
    """The local table: a new value each time (the server works on its own copy anyway)."""
    gm = User(GM_ID, "gamemaster")
    players = [User(GM_ID + 1 + i, name) for i, name in enumerate(PLAYERS)]
    guild = Guild(GUILD_ID, "Unhex Table", owner_id=gm.id)
    guild.roles[guild.id] = Role(guild.id, "@everyone", PLAYER, position=0)
    gm_role = Role(guild.id + 1, "GM", Permission.MANAGE_GUILD | PLAYER)
    bot_role = Role(guild.id + 2, BOT_NAME, BOT, position=2)
    guild.roles |= {gm_role.id: gm_role, bot_role.id: bot_role}
    guild.members[gm.id] = Member(gm, [gm_role.id])
    for player in players:
        guild.members[player.id] = Member(player)
    guild.members[APP_ID] = Member(User(APP_ID, BOT_NAME, bot=True), [bot_role.id])
    for position, name in enumerate(CHANNELS):
        channel = Channel(guild.id + 10 + position, guild.id, name, position=position)
        guild.channels[channel.id] = channel
    return Seed([guild], bot_name=BOT_NAME)
