"""The local Discord: its state, its HTTP server (REST API and gateway) on 127.0.0.1, and
the changes it makes the way Discord does (each one told to the bot over the gateway and to
the :class:`~localdiscord.feed.Feed`).

``server = await LocalDiscord().start()`` serves ``server.api`` (the bot's
``UNHEX_DISCORD_API``) with a seeded guild: a GM (the owner) and four players, a ``fight``
channel and a ``tavern``. People act with :attr:`LocalDiscord.people` (``slash``, ``press``,
``pick``, ``submit``); a test flips Discord's behaviours with :attr:`LocalDiscord.faults`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSCloseCode, web

from localdiscord.buckets import RateLimiter
from localdiscord.feed import Feed
from localdiscord.gateway import Gateway
from localdiscord.keep import Keeper
from localdiscord.model import (
    BOT,
    PLAYER,
    Channel,
    Guild,
    Member,
    Message,
    Permission,
    Role,
    User,
    snowflake,
)

if TYPE_CHECKING:
    from localdiscord.interactions import Interaction

APP_ID = 900_000_000_000_000_001
BOT_USER = User(APP_ID, "Unhex", bot=True)
#: Discord keeps at most this many pins a channel (``resources/message``, 30003).
MAX_PINS = 250
#: How long a stop waits for the open websockets (a page's feed, the bot's gateway) to say
#: goodbye and for requests in flight to finish, before it cuts them off.
STOP_SECONDS = 1.0


@dataclass(frozen=True)
class Call:
    """One REST request the bot made, and Discord's status."""

    method: str
    path: str
    status: int
    body: Any
    at: float


class LocalDiscord:
    """``state_file``: where channels and messages are kept across a restart (None: only in
    memory)."""

    def __init__(self, state_file: Path | None = None) -> None:
        from localdiscord.faults import Faults
        from localdiscord.people import People

        self.guilds: dict[int, Guild] = {}
        self.messages: dict[int, Message] = {}
        self.deleted: set[int] = set()
        #: (channel, nonce) -> the message made with it (``enforce_nonce``)
        self.nonces: dict[tuple[int, str], int] = {}
        #: By token: every interaction sent to the bot.
        self.interactions: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.calls: list[Call] = []
        self.limiter = RateLimiter()
        self.feed = Feed()
        self.gateway = Gateway(lambda: f"ws{self.base.removeprefix('http')}/gateway",
                               self._ready)
        self.faults = Faults(self)
        self.people = People(self)
        self.port = 0
        self.host = "127.0.0.1"
        #: The pages' open feeds (with the gateway's connections, closed first at a stop).
        self.sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()
        self._runner: web.AppRunner | None = None
        self.seed()
        self.keeper = None if state_file is None else Keeper(self, state_file)

    # -- life cycle ----------------------------------------------------------------------

    @property
    def base(self) -> str:
        """Where the bot and a browser reach the server (on a wildcard address: here)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{host}:{self.port}"

    @property
    def api(self) -> str:
        return f"{self.base}/api/v10"

    async def start(self, port: int = 0, host: str = "127.0.0.1") -> LocalDiscord:
        """Serve on ``host`` (127.0.0.1 unless told otherwise) and ``port`` (0: a free one)."""
        from localdiscord.rest import build_app

        if self.keeper is not None:
            self.keeper.load()
            self.feed.listeners.append(self.keeper.changed)
        self._runner = web.AppRunner(build_app(self), access_log=None,
                                     shutdown_timeout=STOP_SECONDS)
        await self._runner.setup()
        self.host = host
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        """Close the open websockets (their handlers would hold the server up for a minute),
        then the server, within about :data:`STOP_SECONDS` each."""
        if self._runner is None:
            return
        closing = [ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
                   for ws in [*self.sockets, *self.gateway.connections]]
        if closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True),
                                       STOP_SECONDS)
        await self._runner.cleanup()
        self._runner = None
        if self.keeper is not None:
            await self.keeper.close()

    def seed(self) -> None:
        """The table: a guild with a GM (its owner), four players, the bot, ``fight`` and
        ``tavern``; the GM role allows Manage Server, the bot's role what it asks for. Their
        ids are fixed, so a restart finds the bot's fights where it left them."""
        gm = User(800_000_000_000_000_010, "gamemaster")
        players = [User(800_000_000_000_000_011 + i, name)
                   for i, name in enumerate(("alice", "bob", "carol", "dave"))]
        guild = Guild(900_000_000_000_000_100, "Unhex Table", owner_id=gm.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", PLAYER, position=0)
        gm_role = Role(guild.id + 1, "GM", Permission.MANAGE_GUILD | PLAYER)
        bot_role = Role(guild.id + 2, "Unhex", BOT, position=2)
        guild.roles |= {gm_role.id: gm_role, bot_role.id: bot_role}
        guild.members[gm.id] = Member(gm, [gm_role.id])
        for player in players:
            guild.members[player.id] = Member(player)
        guild.members[APP_ID] = Member(BOT_USER, [bot_role.id])
        for position, name in enumerate(("fight", "tavern")):
            channel = Channel(guild.id + 10 + position, guild.id, name, position=position)
            guild.channels[channel.id] = channel
        self.guilds[guild.id] = guild

    # -- reading -------------------------------------------------------------------------

    @property
    def guild(self) -> Guild:
        """The seeded guild."""
        return next(iter(self.guilds.values()))

    def user(self, name: str) -> User:
        for guild in self.guilds.values():
            for member in guild.members.values():
                if member.user.name == name:
                    return member.user
        raise KeyError(f"nobody called {name!r}")

    def channel(self, key: int | str) -> Channel:
        """A channel or thread by id, or by name in the seeded guild."""
        for guild in self.guilds.values():
            for channel in guild.channels.values():
                if key in (channel.id, channel.name):
                    return channel
        raise KeyError(f"no channel {key!r}")

    def find_channel(self, channel_id: int) -> Channel | None:
        try:
            return self.channel(channel_id)
        except KeyError:
            return None

    def channel_messages(self, channel: int | str) -> list[Message]:
        """The messages of ``channel`` (not deleted), oldest first."""
        found = self.channel(channel).id
        return sorted((m for m in self.messages.values() if m.channel_id == found),
                      key=lambda m: m.id)

    def pins(self, channel: int | str) -> list[Message]:
        return [m for m in self.channel_messages(channel) if m.pinned]

    def permissions(self, user_id: int, channel: Channel) -> int:
        return self.guilds[channel.guild_id].permissions(user_id, channel)

    def message_payload(self, message: Message) -> dict[str, Any]:
        return message.payload(self.base)

    # -- changes, told to the bot and the feed -------------------------------------------

    def post(self, message: Message) -> Message:
        self.messages[message.id] = message
        payload = self.message_payload(message)
        self.feed.publish("message_create", message.channel_id, payload, message.visible_to)
        if not message.ephemeral:
            self.gateway.dispatch("MESSAGE_CREATE", payload, message.guild_id)
        return message

    def edited(self, message: Message, *, content_changed: bool) -> Message:
        if content_changed:
            message.edited_at = time.time()
        payload = self.message_payload(message)
        self.feed.publish("message_update", message.channel_id, payload, message.visible_to)
        if not message.ephemeral:
            self.gateway.dispatch("MESSAGE_UPDATE", payload, message.guild_id)
        return message

    def delete(self, message: Message) -> None:
        self.messages.pop(message.id, None)
        self.deleted.add(message.id)
        data = {"id": str(message.id), "channel_id": str(message.channel_id),
                **({} if message.guild_id is None else {"guild_id": str(message.guild_id)})}
        self.feed.publish("message_delete", message.channel_id, data, message.visible_to)
        if not message.ephemeral:
            self.gateway.dispatch("MESSAGE_DELETE", data, message.guild_id)

    def set_pinned(self, message: Message, pinned: bool) -> None:
        message.pinned = pinned
        channel = self.channel(message.channel_id)
        data = {"channel_id": str(channel.id), "guild_id": str(channel.guild_id),
                "last_pin_timestamp": None}
        self.feed.publish("pins_update", channel.id,
                          {"message_id": str(message.id), "pinned": pinned} | data)
        self.gateway.dispatch("CHANNEL_PINS_UPDATE", data, channel.guild_id)
        if pinned:  # Discord's notice in the channel: "Unhex pinned a message"
            self.post(Message(snowflake(), channel.id, channel.guild_id, BOT_USER, kind=6))

    def channel_changed(self, channel: Channel) -> None:
        payload = channel.payload()
        kind = "thread_update" if channel.is_thread else "channel_update"
        self.feed.publish(kind, channel.id, payload)
        self.gateway.dispatch(kind.upper(), payload, channel.guild_id)

    def thread_created(self, thread: Channel) -> None:
        payload = thread.payload() | {"newly_created": True}
        self.feed.publish("thread_create", thread.id, payload)
        self.gateway.dispatch("THREAD_CREATE", payload, thread.guild_id)

    # -- the gateway's READY -------------------------------------------------------------

    def _ready(self, shard: tuple[int, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        index, count = shard
        mine = [g for g in self.guilds.values() if (g.id >> 22) % count == index]
        ready = {"v": 10, "user": BOT_USER.payload() | {"verified": True, "mfa_enabled": False,
                                                        "flags": 0},
                 "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                 "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                 "relationships": [], "presences": []}
        return ready, [g.payload(self.base) for g in mine]
