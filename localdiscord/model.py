"""What the local Discord keeps: guilds, channels and threads, roles, members, messages,
interactions; the fixed ids and figures they use; the :class:`Seed` a server starts from.

The objects are plain mutable classes (the server changes them as Discord would); each one
turns itself into the JSON Discord sends (``payload()``). Permissions are worked out as
Discord's ``topics/permissions`` says: the @everyone role, then the member's roles, then the
channel's overwrites (@everyone's, the roles', the member's), Administrator allowing all; a
thread takes its parent's.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from localdiscord.enums import CallbackType, ChannelType, MessageFlag, MessageType
from localdiscord.locales import DEFAULT_LOCALE

DISCORD_EPOCH_MS = 1_420_070_400_000
#: The application's id, and its bot user's (fixed: a kept state file names it).
APP_ID = 900_000_000_000_000_001
#: Discord keeps at most this many pins a channel (``resources/message``, 30003).
MAX_PINS = 250


class Permission:
    """The permission bits Discord checks for what a bot does here (``topics/permissions``)."""

    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    SEND_MESSAGES_IN_THREADS = 1 << 38
    PIN_MESSAGES = 1 << 51
    ALL = (1 << 52) - 1


_counter = itertools.count()


def snowflake(at: float | None = None) -> int:
    """A new id in Discord's form: milliseconds since 2015 above 22 bits of counter."""
    ms = int((time.time() if at is None else at) * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0",
                "global_name": None if self.bot else self.name, "avatar": None,
                **({"bot": True} if self.bot else {})}


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 1

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "color": 0, "hoist": False,
                "position": self.position, "permissions": str(self.permissions),
                "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None}


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        made = {"user": self.user.payload(), "roles": [str(r) for r in self.roles],
                "nick": None, "avatar": None, "joined_at": iso(self.joined_at), "deaf": False,
                "mute": False, "flags": 0, "pending": False}
        if permissions is not None:  # as an interaction carries it: in that channel
            made["permissions"] = str(permissions)
        return made


@dataclass
class Overwrite:
    """A channel's exception for a role (``kind`` 0) or a member (1)."""

    id: int
    kind: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.kind, "allow": str(self.allow),
                "deny": str(self.deny)}


@dataclass
class Channel:
    """A text channel, or a thread (``parent_id`` set, ``kind`` 11)."""

    id: int
    guild_id: int
    name: str
    kind: int = ChannelType.GUILD_TEXT
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    created_at: float = field(default_factory=time.time)

    @property
    def is_thread(self) -> bool:
        return self.parent_id is not None

    def payload(self) -> dict[str, Any]:
        made: dict[str, Any] = {
            "id": str(self.id), "type": self.kind, "guild_id": str(self.guild_id),
            "name": self.name, "position": self.position, "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "rate_limit_per_user": 0, "flags": 0, "last_message_id": None}
        if not self.is_thread:
            made["permission_overwrites"] = [o.payload() for o in self.overwrites]
            made["topic"] = None
            return made
        return made | {"owner_id": str(self.owner_id), "message_count": 0, "member_count": 1,
                       "thread_metadata": {"archived": self.archived,
                                           "auto_archive_duration": 1440,
                                           "archive_timestamp": iso(self.created_at),
                                           "locked": self.locked}}


@dataclass(frozen=True)
class DirectMessages:
    """A person's direct messages with the bot (``resources/channel``, a type 1 DM channel):
    no guild, so no member, roles or overwrites; one channel per person."""

    id: int
    user: User
    guild_id: None = None

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": ChannelType.DM, "last_message_id": None,
                "flags": 0, "recipients": [self.user.payload()]}


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None

    def payload(self, base: str) -> dict[str, Any]:
        url = f"{base}/attachments/{self.id}/{self.filename}"
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                "url": url, "proxy_url": url,
                **({"content_type": self.content_type} if self.content_type else {})}


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    pinned: bool = False
    kind: int = MessageType.DEFAULT
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    nonce: str | int | None = None
    #: The interaction this message answers (Discord's ``interaction_metadata``).
    interaction_id: int | None = None
    #: Its one reader: an ephemeral message's (the user of its interaction), a DM's (its
    #: recipient); None: whoever sees the channel.
    visible_to: int | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    def age(self, now: float | None = None) -> float:
        return (time.time() if now is None else now) - self.created_at

    def payload(self, base: str) -> dict[str, Any]:
        made: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": self.kind,
            "author": self.author.payload(), "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [a.payload(base) for a in self.attachments],
            "embeds": self.embeds, "pinned": self.pinned, "components": self.components,
            "flags": self.flags}
        if self.guild_id is not None:
            made["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            made["nonce"] = self.nonce
        return made


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    #: The language its community settings prefer (sent with interactions as
    #: ``guild_locale``).
    preferred_locale: str = DEFAULT_LOCALE

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]  # Discord's @everyone role has the guild's id

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return Permission.ALL
        member = self.members[user_id]
        bits = self.everyone.permissions
        for role_id in member.roles:
            bits |= self.roles[role_id].permissions
        return Permission.ALL if bits & Permission.ADMINISTRATOR else bits

    def permissions(self, user_id: int, channel: Channel) -> int:
        """What ``user_id`` may do in ``channel`` (a thread: in its parent)."""
        if channel.parent_id is not None:
            channel = self.channels[channel.parent_id]
        bits = self.base_permissions(user_id)
        if bits & Permission.ADMINISTRATOR:
            return Permission.ALL
        by_id = {(o.kind, o.id): o for o in channel.overwrites}
        steps: list[Overwrite | None] = [by_id.get((0, self.id))]
        roles = [by_id.get((0, r)) for r in self.members[user_id].roles]
        allow = deny = 0
        for o in roles:
            if o is not None:
                allow, deny = allow | o.allow, deny | o.deny
        steps.append(Overwrite(0, 0, allow, deny))
        steps.append(by_id.get((1, user_id)))
        for step in steps:
            if step is not None:
                bits = (bits & ~step.deny) | step.allow
        return bits

    def payload(self, base: str) -> dict[str, Any]:
        """GUILD_CREATE as the gateway sends it (threads apart from channels)."""
        threads = [c for c in self.channels.values() if c.is_thread and not c.archived]
        return self.update_payload() | {
            "joined_at": iso(time.time()),
            "large": False, "unavailable": False, "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [t.payload() for t in threads], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": []}

    def update_payload(self) -> dict[str, Any]:
        """The guild object itself, as GUILD_UPDATE carries it (``resources/guild``)."""
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(self.owner_id), "region": None,
            "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()], "emojis": [],
            "stickers": [], "features": [], "mfa_level": 0, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": self.preferred_locale, "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False}


@dataclass
class Interaction:
    """One interaction sent to the bot, and what it has answered so far."""

    id: int
    token: str
    kind: int  # an InteractionType
    channel_id: int
    guild_id: int | None
    user: User
    message_id: int | None = None  # the message whose component was used
    created_at: float = field(default_factory=time.time)
    answered: int | None = None  # the callback's CallbackType
    original_id: int | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    #: The messages posted or edited through this interaction, as they were then.
    shown: list[dict[str, Any]] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    #: Where the feed stood when it was sent (what the bot changed since is its work).
    feed_start: int = 0

    @property
    def answer_kind(self) -> str | None:
        """How it was answered, in a word (None: not yet)."""
        return None if self.answered is None else ANSWER_NAMES.get(self.answered,
                                                                   str(self.answered))


#: How each callback type is told in a word (a test's ``reply.kind``).
ANSWER_NAMES: dict[int, str] = {
    CallbackType.CHANNEL_MESSAGE_WITH_SOURCE: "message",
    CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: "defer",
    CallbackType.DEFERRED_UPDATE_MESSAGE: "defer-update",
    CallbackType.UPDATE_MESSAGE: "update",
    CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: "autocomplete",
    CallbackType.MODAL: "modal"}


@dataclass
class Seed:
    """What a server starts with, a plain value: its guilds, each with its roles, members
    (the bot among them, as ``User(APP_ID, bot_name, bot=True)``) and channels; and the
    name of the application's bot user. The server works on a copy, so one seed may start
    many servers. For example::

        owner = User(1, "owner")
        guild = Guild(100, "A guild", owner_id=owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", Permission.VIEW_CHANNEL, 0)
        guild.members[owner.id] = Member(owner)
        guild.channels[110] = Channel(110, guild.id, "general")
        LocalDiscord(Seed([guild], bot_name="helper"))
    """

    guilds: list[Guild] = field(default_factory=list)
    bot_name: str = "bot"

    @property
    def bot_user(self) -> User:
        return User(APP_ID, self.bot_name, bot=True)
