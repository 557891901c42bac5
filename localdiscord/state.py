"""The local Discord's state: the guilds, messages and interactions, read as Discord shows
them, and the changes made the way Discord makes them (each one told to the bot over the
gateway and to the :class:`~localdiscord.feed.Feed`). The HTTP server around it is
:class:`localdiscord.server.LocalDiscord`.
"""

from __future__ import annotations

import copy
import weakref
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from localdiscord.buckets import RateLimiter
from localdiscord.clock import Clock
from localdiscord.enums import MessageType
from localdiscord.feed import Feed
from localdiscord.gateway import Gateway
from localdiscord.locales import DEFAULT_LOCALE, check_locale
from localdiscord.model import (
    APP_ID,
    Channel,
    DirectMessages,
    Guild,
    Interaction,
    Message,
    Seed,
    User,
    snowflake,
)


@dataclass(frozen=True)
class Call:
    """One REST request the bot made, and Discord's status."""

    method: str
    path: str
    status: int
    body: Any
    at: float


class DiscordState:
    """Everything the server holds, started from ``seed`` (a copy of it: the seed stays as
    it was)."""

    def __init__(self, seed: Seed) -> None:
        self.guilds: dict[int, Guild] = {g.id: g for g in copy.deepcopy(seed.guilds)}
        #: The application's bot user (its id is :data:`~localdiscord.model.APP_ID`).
        self.bot_user = seed.bot_user
        self.bot_name = seed.bot_name
        self.messages: dict[int, Message] = {}
        self.deleted: set[int] = set()
        #: (channel, nonce) -> the message made with it (``enforce_nonce``)
        self.nonces: dict[tuple[int, str], int] = {}
        #: By token: every interaction sent to the bot.
        self.interactions: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        #: By the person's id: their direct messages with the bot, once opened.
        self.dms: dict[int, DirectMessages] = {}
        #: Who takes no direct message from the bot (``people.refuse_dms``): 50007.
        self.dms_refused: set[int] = set()
        #: By the person's id: their client's language, when not :data:`DEFAULT_LOCALE`.
        self.locales: dict[int, str] = {}
        self.calls: list[Call] = []
        #: Discord's time: every age, expiry and bucket here reads it (a test advances it).
        self.clock = Clock()
        self.limiter = RateLimiter(clock=self.clock)
        self.feed = Feed()
        self.gateway = Gateway(lambda: f"ws{self.base.removeprefix('http')}/gateway",
                               self._ready)
        self.port = 0
        self.host = "127.0.0.1"
        #: The pages' open feeds (with the gateway's connections, closed first at a stop).
        self.sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()

    @property
    def base(self) -> str:
        """Where the bot and a browser reach the server (on a wildcard address: here)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{host}:{self.port}"

    @property
    def api(self) -> str:
        return f"{self.base}/api/v10"

    # -- reading -------------------------------------------------------------------------

    @property
    def guild(self) -> Guild:
        """The seed's first guild."""
        return next(iter(self.guilds.values()))

    def user(self, name: str) -> User:
        for guild in self.guilds.values():
            for member in guild.members.values():
                if member.user.name == name:
                    return member.user
        raise KeyError(f"nobody called {name!r}")

    def channel(self, key: int | str) -> Channel:
        """A channel or thread by id, or by name (the first of that name)."""
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

    def find_user(self, user_id: int) -> User | None:
        """Anyone in a guild here (Discord knows every user: here, those of the seed)."""
        for guild in self.guilds.values():
            if user_id in guild.members:
                return guild.members[user_id].user
        return None

    def open_dm(self, user: User) -> DirectMessages:
        """``user``'s direct messages with the bot: the same channel every time."""
        if user.id not in self.dms:
            self.dms[user.id] = DirectMessages(snowflake(self.clock.now()), user)
        return self.dms[user.id]

    def find_dm(self, channel_id: int) -> DirectMessages | None:
        return next((d for d in self.dms.values() if d.id == channel_id), None)

    def takes_dms(self, user_id: int) -> bool:
        """Whether Discord lets the bot's message through to ``user_id``: not a bot, in a
        guild with the bot, and not refusing them (:attr:`dms_refused`)."""
        shared = any(user_id in g.members and APP_ID in g.members for g in self.guilds.values())
        user = self.find_user(user_id)
        return shared and user is not None and not user.bot and user_id not in self.dms_refused

    def locale_of(self, user_id: int) -> str:
        """The language ``user_id``'s client is set to (their interactions' ``locale``)."""
        return self.locales.get(user_id, DEFAULT_LOCALE)

    def channel_messages(self, channel: int | str | DirectMessages) -> list[Message]:
        """The messages of ``channel`` (not deleted; a DM: by its id, or itself), oldest
        first."""
        if isinstance(channel, DirectMessages):
            found = channel.id
        else:
            direct = self.find_dm(channel) if isinstance(channel, int) else None
            found = direct.id if direct is not None else self.channel(channel).id
        return sorted((m for m in self.messages.values() if m.channel_id == found),
                      key=lambda m: m.id)

    def pins(self, channel: int | str) -> list[Message]:
        return [m for m in self.channel_messages(channel) if m.pinned]

    def permissions(self, user_id: int, channel: Channel) -> int:
        return self.guilds[channel.guild_id].permissions(user_id, channel)

    def message_payload(self, message: Message) -> dict[str, Any]:
        return message.payload(self.base)

    def new_message(self, channel_id: int, guild_id: int | None, author: User,
                    **fields: Any) -> Message:
        """A message made now by Discord's clock (its id and ``created_at``), not yet
        posted."""
        now = self.clock.now()
        return Message(snowflake(now), channel_id, guild_id, author, created_at=now, **fields)

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
            message.edited_at = self.clock.now()
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
        if pinned:  # Discord's notice in the channel: "<bot> pinned a message"
            self.post(self.new_message(channel.id, channel.guild_id, self.bot_user,
                                       kind=MessageType.CHANNEL_PINNED_MESSAGE))

    def channel_changed(self, channel: Channel) -> None:
        payload = channel.payload()
        kind = "thread_update" if channel.is_thread else "channel_update"
        self.feed.publish(kind, channel.id, payload)
        self.gateway.dispatch(kind.upper(), payload, channel.guild_id)

    def set_locale(self, user_id: int, locale: str) -> None:
        """``user_id`` sets their client's language to ``locale`` (a code of Discord's; else
        :class:`ValueError`): their interactions say it from now on. Nothing is told: a
        client's language is no event."""
        self.locales[user_id] = check_locale(locale)

    def set_preferred_locale(self, guild: Guild, locale: str) -> None:
        """``guild``'s community settings now prefer ``locale`` (a code of Discord's; else
        :class:`ValueError`): GUILD_UPDATE, and its interactions' ``guild_locale``."""
        guild.preferred_locale = check_locale(locale)
        self.gateway.dispatch("GUILD_UPDATE", guild.update_payload(), guild.id)

    def thread_created(self, thread: Channel) -> None:
        payload = thread.payload() | {"newly_created": True}
        self.feed.publish("thread_create", thread.id, payload)
        self.gateway.dispatch("THREAD_CREATE", payload, thread.guild_id)

    # -- the gateway's READY -------------------------------------------------------------

    def _ready(self, shard: tuple[int, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        index, count = shard
        mine = [g for g in self.guilds.values() if (g.id >> 22) % count == index]
        user = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        ready = {"v": 10, "user": user,
                 "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                 "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                 "relationships": [], "presences": []}
        return ready, [g.payload(self.base) for g in mine]
