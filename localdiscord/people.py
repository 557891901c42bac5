"""People in the guild: what they do in Discord's client, sent to the bot as the
INTERACTION_CREATE Discord builds (``interactions/receiving-and-responding``), and what the
bot answered.

``await server.people.slash("player", "general", "roll", level=40)`` builds the command's data
from the commands the bot synced (each option typed as the bot declared it), dispatches it
on the gateway, waits for the answer (3 s, as Discord) and until the bot has been quiet for a
moment, and returns a :class:`Reply`. ``press``, ``pick``, ``submit`` and ``autocomplete``
do the same for buttons, menus, modals and autocomplete. ``people.dm("player")`` is their direct
messages with the bot, a place to use a command too (the bot's global commands, no guild);
``people.refuse_dms("player")`` makes Discord refuse the bot's messages there (50007).
``people.say("player", "general", "hello")`` posts a message as them, as their client does.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from localdiscord.enums import InteractionType, MessageFlag, MessageType
from localdiscord.interactions import FIRST_ANSWER_SECONDS
from localdiscord.model import (
    APP_ID,
    Channel,
    DirectMessages,
    Interaction,
    Permission,
    Role,
    User,
    snowflake,
)
from localdiscord.state import DiscordState

#: How long the bot must have made no request for its work on an interaction to count as
#: done (it may post more messages after answering).
QUIET_SECONDS = 0.3
SETTLE_LIMIT_SECONDS = 20.0
#: The longest message a person may send (Discord's, without Nitro).
MAX_MESSAGE_LENGTH = 2000


@dataclass(frozen=True)
class Shown:
    """A message as the bot had made it at one moment (Discord's JSON in ``raw``)."""

    raw: dict[str, Any]

    @property
    def id(self) -> int:
        return int(self.raw["id"])

    @property
    def channel_id(self) -> int:
        return int(self.raw["channel_id"])

    @property
    def content(self) -> str:
        return str(self.raw.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.raw.get("flags") or 0) & MessageFlag.EPHEMERAL)

    @property
    def parts(self) -> list[dict[str, Any]]:
        """Every component of its rows."""
        return [c for row in self.raw.get("components") or [] for c in row.get("components", [])]

    @property
    def labels(self) -> list[str]:
        return [c.get("label", "") for c in self.parts if c.get("type") == 2]


@dataclass(frozen=True)
class Modal:
    custom_id: str
    title: str
    #: label -> (custom id, the component's type, whether it came in a Label component)
    fields: dict[str, tuple[str, int, bool]]

    @staticmethod
    def of(data: dict[str, Any]) -> Modal:
        fields = {}
        for row in data.get("components") or []:
            labelled = row.get("type") == 18
            for part in [row["component"]] if labelled else row.get("components") or []:
                label = row.get("label") if labelled else part.get("label")
                fields[str(label)] = (part["custom_id"], int(part["type"]), labelled)
        return Modal(data["custom_id"], data.get("title", ""), fields)


@dataclass
class Reply:
    """What the bot did about one interaction."""

    interaction: Interaction
    #: Messages the bot posted or edited meanwhile (anywhere), as they were then, in order.
    messages: list[Shown] = field(default_factory=list)

    @property
    def kind(self) -> str | None:
        """``message``, ``defer``, ``defer-update``, ``update``, ``autocomplete``, ``modal``;
        None when the bot did not answer within 3 s (the user saw "This interaction
        failed")."""
        return self.interaction.answer_kind

    @property
    def message(self) -> Shown:
        assert self.messages, f"the bot showed no message (answer: {self.kind})"
        return self.messages[-1]

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.interaction.choices

    @property
    def modal(self) -> Modal:
        assert self.interaction.modal is not None, f"no modal (answer: {self.kind})"
        return Modal.of(self.interaction.modal)


class People:
    def __init__(self, server: DiscordState) -> None:
        self.server = server

    def dm(self, user: str | User) -> DirectMessages:
        """``user``'s direct messages with the bot (opened the first time; the same channel
        the bot opens with ``POST /users/@me/channels``)."""
        return self.server.open_dm(self._who(user))

    def refuse_dms(self, user: str | User, refused: bool = True) -> None:
        """``user`` takes no direct message from the bot any more (they turned off "Allow
        direct messages from server members", or blocked the bot): the bot's messages there
        are refused with 50007. ``refused=False``: they take them again."""
        who = self._who(user).id
        if refused:
            self.server.dms_refused.add(who)
        else:
            self.server.dms_refused.discard(who)

    def set_locale(self, user: str | User, locale: str) -> None:
        """``user`` sets their Discord client's language to ``locale`` (Discord's code:
        ``de``, ``en-US``): their interactions carry it as ``locale`` from now on."""
        self.server.set_locale(self._who(user).id, locale)

    def _who(self, user: str | User) -> User:
        return self.server.user(user) if isinstance(user, str) else user

    def _place(self, channel: str | int | Channel | DirectMessages) -> Channel | DirectMessages:
        if isinstance(channel, Channel | DirectMessages):
            return channel
        return (self.server.find_dm(channel) if isinstance(channel, int) else None) or \
            self.server.channel(channel)

    # -- what people do ------------------------------------------------------------------

    async def slash(self, user: str | User, channel: str | int | DirectMessages, command: str,
                    **options: Any) -> Reply:
        """``/command`` (``"character create"`` for a subcommand) with ``options``, in a
        channel of the guild or in someone's :meth:`dm`."""
        where = self._place(channel)
        data = self.command_data(where, command, options, focused=None)
        return await self.wait(self.send(user, where, InteractionType.APPLICATION_COMMAND, data))

    async def autocomplete(self, user: str | User, channel: str | int, command: str,
                           focused: str, **options: Any) -> list[dict[str, Any]]:
        """The choices offered while ``user`` types option ``focused``."""
        where = self.server.channel(channel)
        options.setdefault(focused, "")
        data = self.command_data(where, command, options, focused=focused)
        return (await self.wait(self.send(
            user, where, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE, data))).choices

    async def press(self, user: str | User, message: Shown | int, label: str) -> Reply:
        """Press the button labelled ``label`` on ``message`` as it is now."""
        return await self.wait(self.send_press(user, message, label))

    def send_press(self, user: str | User, message: Shown | int, label: str) -> Interaction:
        """:meth:`press` without waiting for the bot (see :meth:`wait`)."""
        now = self._now(message)
        for part in now.parts:
            if part.get("type") == 2 and part.get("label") == label and "custom_id" in part:
                data = {"custom_id": part["custom_id"], "component_type": 2}
                return self.send(user, self._where(now), InteractionType.MESSAGE_COMPONENT, data,
                                 now)
        raise AssertionError(f"no button {label!r} on the message; buttons: {now.labels}")

    async def pick(self, user: str | User, message: Shown | int, label: str) -> Reply:
        """Pick the entry labelled ``label`` in whichever menu of ``message`` offers it."""
        now = self._now(message)
        for part in now.parts:
            for option in part.get("options") or ():
                if option["label"] == label:
                    data = {"custom_id": part["custom_id"], "component_type": part["type"],
                            "values": [option["value"]]}
                    return await self.wait(self.send(user, self._where(now),
                                                    InteractionType.MESSAGE_COMPONENT, data, now))
        raise AssertionError(f"no menu entry {label!r} on the message")

    async def submit(self, user: str | User, shown: Reply, values: dict[str, str]) -> Reply:
        """Fill in the modal the bot answered ``shown`` with (``values`` by field label)."""
        modal, origin = shown.modal, shown.interaction
        unknown = set(values) - set(modal.fields)
        assert not unknown, f"the modal has no fields {unknown}: {list(modal.fields)}"
        rows = []
        for label, value in values.items():
            custom_id, kind, labelled = modal.fields[label]
            part = {"type": kind, "custom_id": custom_id,
                    **({"values": [value]} if kind == 3 else {"value": value})}
            rows.append({"type": 18, "component": part} if labelled
                        else {"type": 1, "components": [part]})
        data = {"custom_id": modal.custom_id, "components": rows}
        on = self.server.messages.get(origin.message_id or 0)
        where = self._place(origin.channel_id)
        return await self.wait(self.send(user, where, InteractionType.MODAL_SUBMIT, data,
                                         None if on is None else self._now(on.id)))

    def say(self, user: str | User, channel: str | int | Channel | DirectMessages,
            content: str) -> Shown:
        """``user`` posts ``content`` in ``channel``, as their client does: the message is
        made and every viewer and the bot see MESSAGE_CREATE. It mentions nobody, whatever it
        says (``<@id>`` and ``@everyone`` stay text). :class:`ValueError` for an empty or too
        long message, :class:`PermissionError` where they may not send."""
        who = self.server.user(user) if isinstance(user, str) else user
        where = self._place(channel)
        if not content.strip():
            raise ValueError("an empty message cannot be sent")
        if len(content) > MAX_MESSAGE_LENGTH:
            raise ValueError(f"a message holds at most {MAX_MESSAGE_LENGTH} characters")
        if isinstance(where, Channel):
            needed = Permission.SEND_MESSAGES_IN_THREADS if where.is_thread else \
                Permission.SEND_MESSAGES
            if not self.server.permissions(who.id, where) & needed or \
                    (where.archived and where.locked):
                raise PermissionError(f"{who.name} may not send messages in #{where.name}")
            if where.archived:  # a message in an unlocked archived thread unarchives it
                where.archived = False
                self.server.channel_changed(where)
        made = self.server.new_message(where.id, where.guild_id, who, content=content)
        return Shown(self.server.message_payload(self.server.post(made)))

    # -- building and sending ------------------------------------------------------------

    def send(self, user: str | User, channel: Channel | DirectMessages, kind: int,
             data: dict[str, Any], message: Shown | None = None) -> Interaction:
        """Dispatch an interaction to the bot without waiting (see :meth:`wait`)."""
        who = self.server.user(user) if isinstance(user, str) else user
        now = self.server.clock.now()
        interaction = Interaction(snowflake(now), f"token-{snowflake(now)}", kind, channel.id,
                                  channel.guild_id, who, created_at=now,
                                  message_id=None if message is None else message.id)
        self.server.interactions[interaction.token] = interaction
        interaction.feed_start = len(self.server.feed.events)
        self.server.gateway.dispatch("INTERACTION_CREATE",
                                     self.payload(interaction, data, message),
                                     channel.guild_id)
        return interaction

    def payload(self, interaction: Interaction, data: dict[str, Any],
                message: Shown | None) -> dict[str, Any]:
        if interaction.guild_id is None:
            return self._dm_payload(interaction, data)
        channel = self.server.channel(interaction.channel_id)
        guild = self.server.guilds[channel.guild_id]
        member = guild.members[interaction.user.id]
        made = {
            "id": str(interaction.id), "application_id": str(APP_ID), "type": interaction.kind,
            "token": interaction.token, "version": 1, "channel_id": str(channel.id),
            "channel": channel.payload(), "guild_id": str(guild.id), "data": data,
            "member": member.payload(guild.permissions(member.user.id, channel)),
            "locale": self.server.locale_of(member.user.id),
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(guild.permissions(APP_ID, channel)), "entitlements": [],
            "attachment_size_limit": 10_485_760,
            "authorizing_integration_owners": {"0": str(guild.id)}, "context": 0}
        if message is not None:
            made["message"] = message.raw
        return made

    def _dm_payload(self, interaction: Interaction, data: dict[str, Any]) -> dict[str, Any]:
        """INTERACTION_CREATE in a DM: ``user`` instead of ``member``, context 1 (the bot's
        DM), installed by the person rather than a guild."""
        user = interaction.user.payload()
        return {
            "id": str(interaction.id), "application_id": str(APP_ID), "type": interaction.kind,
            "token": interaction.token, "version": 1,
            "channel_id": str(interaction.channel_id),
            "channel": self.dm(interaction.user).payload(), "data": data, "user": user,
            "locale": self.server.locale_of(interaction.user.id), "app_permissions": "0",
            "entitlements": [],
            "attachment_size_limit": 10_485_760,
            "authorizing_integration_owners": {"1": user["id"]}, "context": 1}

    def command_data(self, channel: Channel | DirectMessages, command: str, options: dict[str, Any],
                     focused: str | None) -> dict[str, Any]:
        """The data of ``/command`` as Discord sends it, typed from the synced commands."""
        names = command.split()
        synced = self.server.commands.get(None, []) if channel.guild_id is None else \
            self.server.commands.get(channel.guild_id, []) + self.server.commands.get(None, [])
        found = next((c for c in synced if c["name"] == names[0]), None)
        assert found is not None, f"the bot synced no /{names[0]}"
        path, declared = [], found.get("options") or []
        for name in names[1:]:
            sub = next((o for o in declared if o["name"] == name), None)
            assert sub is not None and sub["type"] in (1, 2), f"no subcommand /{command}"
            path.append(sub)
            declared = sub.get("options") or []
        types = {o["name"]: o["type"] for o in declared}
        unknown = set(options) - set(types)
        assert not unknown, f"/{command} has no options {unknown}"
        resolved: dict[str, dict[str, Any]] = {}
        leaf = [self._option(channel, name, types[name], value, name == focused, resolved)
                for name, value in options.items()]
        for sub in reversed(path):
            leaf = [{"name": sub["name"], "type": sub["type"], "options": leaf}]
        data = {"id": found["id"], "name": names[0], "type": 1, "options": leaf}
        if found.get("guild_id"):
            data["guild_id"] = found["guild_id"]
        return data | ({"resolved": resolved} if resolved else {})

    def _option(self, channel: Channel | DirectMessages, name: str, kind: int, value: Any,
                focused: bool, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
        if kind not in (6, 7, 8):
            return {"name": name, "type": kind, "value": value} | (
                {"focused": True} if focused else {})
        assert isinstance(channel, Channel), "a user, role or channel option needs a guild"
        guild = self.server.guilds[channel.guild_id]
        if kind == 6:  # a user: Discord sends who it is beside the id
            user = self.server.user(value) if isinstance(value, str) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = guild.members[user.id].payload(guild.permissions(user.id, channel))
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
            value = str(user.id)
        elif kind == 8:
            role = value if isinstance(value, Role) else guild.roles[int(value)]
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            value = str(role.id)
        elif kind == 7:
            target = self.server.channel(int(value) if str(value).isdigit() else value)
            resolved.setdefault("channels", {})[str(target.id)] = target.payload() | {
                "permissions": str(guild.everyone.permissions)}
            value = str(target.id)
        option = {"name": name, "type": kind, "value": value}
        return option | ({"focused": True} if focused else {})

    # -- waiting for the bot -------------------------------------------------------------

    async def wait(self, interaction: Interaction) -> Reply:
        """The bot's answer to ``interaction``: once it answered (or 3 s passed without) and
        has been quiet for a moment (a deferred answer: once it was given)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(interaction.done.wait(), FIRST_ANSWER_SECONDS + 0.5)
        deadline = time.monotonic() + SETTLE_LIMIT_SECONDS
        while time.monotonic() < deadline:
            await asyncio.sleep(QUIET_SECONDS / 3)
            last = self.server.calls[-1].at if self.server.calls else 0.0
            original = self.server.messages.get(interaction.original_id or 0)
            thinking = original is not None and bool(original.flags & MessageFlag.LOADING)
            if time.time() - last >= QUIET_SECONDS and not thinking:
                break
        shown = [Shown(c.data) for c in self.server.feed.events[interaction.feed_start:]
                 if c.kind in ("message_create", "message_update")
                 and c.data.get("author", {}).get("bot")
                 and c.data.get("type") == MessageType.DEFAULT]
        return Reply(interaction, shown)

    def _now(self, message: Shown | int) -> Shown:
        ident = message if isinstance(message, int) else message.id
        found = self.server.messages.get(ident)
        assert found is not None, f"message {ident} is gone"
        return Shown(self.server.message_payload(found))

    def _where(self, message: Shown) -> Channel | DirectMessages:
        return self._place(message.channel_id)
