"""Drive the real bot the way Discord does, and read back what a user would see.

A :class:`Table` is one Discord server with one bot on it. Tests call
``await table.slash("roll", level=40)``, ``await table.click(message, "Keep")`` or
``await table.submit(reply.modal, {"New value": "38"})``; each builds the INTERACTION_CREATE
payload Discord would send, feeds it to the bot's connection state (the real discord.py
dispatch: command tree, dynamic items, modals), waits until the bot has finished handling it,
and returns a :class:`Reply` with everything the bot sent or edited because of it.

The bot's HTTP calls never leave the process: interaction callbacks, follow-ups and webhook
edits are answered by patching discord.py's webhook adapter; channel messages by patching the
bot's (dpytest) HTTP client. Every message the bot has shown is kept in ``table.messages``
with its current content and components, so a test can click a button on any of them.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import itertools
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import discord.ext.test.backend as dpytest_backend
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.client import UnhexBot, create_bot
from bot.cogs.combat.session import FightSession
from bot.settings import Settings
from bot.text import SOURCE
from engine.dice import ScriptedDice
from engine.textwidth import width
from localdiscord.limits import Errors, autocomplete_errors, message_errors, modal_errors
from testbed.languages import PreferredLocale, PseudoTable
from testbed.pseudo import LOCALE, watching
from testbed.seen import EPHEMERAL, Button, Message, Modal, Reply, message_of, modal_of

__all__ = ["ALICE", "APP_ID", "BOB", "CHANNEL_ID", "DM_CHANNEL_ID", "EPHEMERAL", "FIRST_ID",
           "GM", "GM_PERMISSIONS", "GUILD_ID", "OTHER_CHANNEL_ID", "OTHER_GUILD_CHANNEL_ID",
           "OTHER_GUILD_ID", "PHONE_COLUMNS", "PLAYER_PERMISSIONS", "Button", "Message", "Modal",
           "Reply", "Role", "Table", "User", "check_phone_columns", "number_ids_from",
           "snowflake"]

APP_ID = 900_000_000_000_000_001
GUILD_ID = 900_000_000_000_000_100
CHANNEL_ID = 900_000_000_000_000_200
OTHER_CHANNEL_ID = 900_000_000_000_000_201
#: Another server the bot is on, with its own channel (``guild=OTHER_GUILD_ID``), and a direct
#: message with the bot (``guild=None, channel=DM_CHANNEL_ID``).
OTHER_GUILD_ID = 900_000_000_000_000_300
OTHER_GUILD_CHANNEL_ID = 900_000_000_000_000_301
DM_CHANNEL_ID = 900_000_000_000_000_400

PLAYER_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, use_application_commands=True
)
GM_PERMISSIONS = PLAYER_PERMISSIONS | discord.Permissions(manage_guild=True)

#: The first id :func:`snowflake` hands out.
FIRST_ID = 910_000_000_000_000_000
_ids = itertools.count(FIRST_ID)


def snowflake() -> int:
    return next(_ids)


def number_ids_from(first: int) -> None:
    """Hand out ids from ``first`` on: processes sharing one database each take their own
    range, so no two make the same id."""
    global _ids
    _ids = itertools.count(first)


@dataclass(frozen=True)
class User:
    """Somebody at the table. ``gm`` users have Manage Server."""

    id: int
    name: str
    gm: bool = False
    roles: tuple[int, ...] = ()

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0",
                "global_name": self.name, "avatar": None}

    def member_payload(self) -> dict[str, Any]:
        permissions = GM_PERMISSIONS if self.gm else PLAYER_PERMISSIONS
        return {
            "user": self.user_payload(), "roles": [str(r) for r in self.roles], "nick": None,
            "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
            "permissions": str(permissions.value),
        }


@dataclass(frozen=True)
class Role:
    """A role of the server, made with :meth:`Table.add_role`; give it to a user with
    ``dataclasses.replace(BOB, roles=(role.id,))`` and pass it as a role option's value."""

    id: int
    name: str

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "color": 0, "hoist": False,
                "position": 1, "permissions": "0", "managed": False, "mentionable": False,
                "flags": 0}


ALICE = User(800_000_000_000_000_001, "alice")
BOB = User(800_000_000_000_000_002, "bob")
GM = User(800_000_000_000_000_003, "gamemaster", gm=True)


class Table:
    """One server, one channel (plus a second), one bot: see the module docstring."""

    #: The server's preferred locale (its Community settings), as interactions say and the
    #: cached guild holds it.
    guild_locale = PreferredLocale(GUILD_ID)

    def __init__(self, database: Path | str, *, dev_guild: int | None = None,
                 settings: dict[str, Any] | None = None, checks: bool = True) -> None:
        self.database = database
        #: Whether every body the bot sends is checked against Discord's limits and the
        #: phone's 40 columns (the tests' guard). Benches turn it off: the checks are the
        #: fake Discord's work, not the bot's, and would be counted against the bot.
        self.checks = checks
        self.dev_guild = dev_guild
        #: More settings, by their environment names (``UNHEX_SHARD_IDS``...).
        self.settings = dict(settings or {})
        self.messages: dict[int, dict[str, Any]] = {}
        self._token_message: dict[str, int] = {}
        self._token_channel: dict[str, int] = {}
        self._channel_guild: dict[int, int | None] = {}
        self._current: Reply | None = None
        self.synced: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.roles: list[Role] = []
        #: What the bot may do in the channels (Discord sends it as ``app_permissions``).
        self.app_permissions = discord.Permissions.all()
        self._replies: dict[str, Reply] = {}
        self._nonces: dict[tuple[int, Any], int] = {}  # (channel, nonce) -> message id
        #: Per channel, what Discord does before sending or editing a message there (sleep,
        #: raise an HTTP error): a slow or refusing Discord.
        self.channel_faults: dict[int, Callable[[], Awaitable[None]]] = {}
        #: When true, Discord refuses every interaction answer (the 3-second window passed).
        self.expired_tokens = False
        #: When true, Discord refuses follow-up messages (an outage past the first answer).
        self.followups_down = False
        #: The messages pinned now, per channel, oldest first.
        self.pins: dict[int, list[int]] = {}
        #: Threads the bot opened: thread id -> the channel it was opened from.
        self.threads: dict[int, int] = {}
        #: The errors of each body Discord refused (50035): :meth:`stop` fails the test on any.
        self.refused: list[Errors] = []
        #: Direct-message channels the bot opened: channel id -> the user it reaches.
        self.dm_channels: dict[int, int] = {}
        #: Users who take no direct message from the bot (Discord refuses: 403, 50007).
        self.no_dms: set[int] = set()
        #: Where what the bot sends is read for English (testbed/languages.py): a table
        #: made while a pseudo-locale run watches plays in it.
        watch = watching()
        self.pseudo = None if watch is None else PseudoTable(watch, self, GUILD_ID)
        #: Each user's Discord client language (:attr:`user_locale` when not set), as
        #: interactions say.
        self.locales: dict[int, str] = {}
        self.user_locale = self.guild_locale = "en-US" if watch is None else LOCALE
        self.bot: UnhexBot

    # -- life cycle ----------------------------------------------------------------------

    async def start(self, dice: Iterable[int] = ()) -> Table:
        settings = Settings(UNHEX_DATABASE=self.database, DISCORD_TOKEN=None,
                            UNHEX_DEV_GUILD=self.dev_guild, **self.settings)
        await self.host(create_bot(settings, dice=ScriptedDice(dice)))
        return self

    async def host(self, bot: Any) -> None:
        """Put ``bot`` (the Unhex bot, or another discord.py bot to compare with) on this
        table's server: members, channels, roles, the fake HTTP; then run its set-up and wait
        for what its start-up does."""
        await bot._async_setup_hook()
        allowed_mentions = bot._connection.allowed_mentions
        # (dpytest.configure refuses a sharded bot; its backend alone is what the table needs)
        dpytest_backend.configure(bot)
        state = bot._connection
        # The bot's user is the same after a restart, in this process or a new one (a crash
        # test's), as on Discord, where it is the application's id: its old messages are its own.
        state.user.id = APP_ID
        state.stop_dispatch()
        guild = dpytest_backend.make_guild("Unhex Table", id_num=GUILD_ID)
        PreferredLocale.on_guild(guild, self.guild_locale)  # (read without an interaction)
        dpytest_backend.make_text_channel("fight", guild, id_num=CHANNEL_ID)
        dpytest_backend.make_text_channel("tavern", guild, id_num=OTHER_CHANNEL_ID)
        for user in (ALICE, BOB, GM):
            member = dpytest_backend.make_user(user.name, "0001", id_num=user.id)
            dpytest_backend.make_member(member, guild)
        dpytest_backend.make_member(state.user, guild)
        for role in self.roles:
            dpytest_backend.make_role(role.name, guild, id_num=role.id)
        state.start_dispatch()
        # dpytest swapped in its own connection state: give it the bot's command tree and id.
        state._command_tree = bot.tree
        state.application_id = APP_ID
        state.allowed_mentions = allowed_mentions
        bot.tree._http = bot.http  # the tree kept the HTTP client dpytest replaced
        self._patch_http(bot)
        before = asyncio.all_tasks()
        self.bot = bot  # (what start-up posts as it restores the fights is the new bot's)
        await bot.setup_hook()
        await self._judge_english(look=True)
        self._connect_shards(bot)
        await self._settle(before)  # what start-up shows again (prompts, boards)

    @staticmethod
    def _connect_shards(bot: Any) -> None:
        """What the gateway says as the bot's shards connect (one shard, unless the settings
        name more)."""
        if not isinstance(bot, UnhexBot):
            return
        plan = bot.settings.shards
        bot.shard_count = bot.shard_count or plan.count or 1
        for shard in plan.ids or range(bot.shard_count):
            bot.dispatch("shard_ready", shard)

    async def restart(self, dice: Iterable[int] = ()) -> Table:
        """Stop the bot as a crash would (the store simply closes) and start a new one on the
        same database; messages already shown stay, so their buttons can be pressed."""
        self._as_a_crash()
        await self.bot.store.close()
        return await self.start(dice)

    async def stop(self) -> None:
        """Stop the bot as a clean shutdown does (what was shown written down), then its store."""
        fights = getattr(self.bot, "fights", None)
        if isinstance(fights, FightSession):
            await fights.close()
        await self._judge_english()
        await self.bot.store.close()
        # The bot froze what its start made (UnhexBot.setup_hook); a test process starts
        # many bots, so each one's objects go back to the collector once it is done with.
        gc.unfreeze()
        assert not self.refused, f"Discord refused what the bot sent: {self.refused}"

    def _as_a_crash(self) -> None:
        """A process that dies leaves no timer behind: the old bot's (a fight's shown record
        waiting to be written) must not fire on a closed store, nor write what a crash loses."""
        fights = getattr(self.bot, "fights", None)
        if isinstance(fights, FightSession):
            fights.presenter.records.close()

    def add_role(self, name: str) -> Role:
        """A new role on the server (kept across restarts)."""
        role = Role(snowflake(), name)
        guild = self.bot.get_guild(GUILD_ID)
        assert guild is not None
        dpytest_backend.make_role(role.name, guild, id_num=role.id)
        self.roles.append(role)
        return role

    def dice(self, *faces: int) -> ScriptedDice:
        """Script the next die faces the bot rolls (tens, ones, tens, ones, ...)."""
        scripted = ScriptedDice(faces)
        self.bot.dice = scripted
        return scripted

    # -- what users do -------------------------------------------------------------------

    async def slash(self, command: str, *, user: User = ALICE, channel: int = CHANNEL_ID,
                    guild: int | None = GUILD_ID, **options: Any) -> Reply:
        """Run ``/command`` (``"character create"`` for a subcommand) with ``options``; from
        another server with ``guild=OTHER_GUILD_ID``, in a DM with ``guild=None``."""
        data = self._command_data(command, options, focused=None)
        return await self._interact(2, data, user=user, channel=channel, guild=guild)

    async def autocomplete(self, command: str, focused: str, *, user: User = ALICE,
                           channel: int = CHANNEL_ID, guild: int | None = GUILD_ID,
                           **options: Any) -> list[str]:
        """The choices offered while ``user`` types option ``focused`` (its value in options)."""
        return [c["name"] for c in await self.autocomplete_choices(
            command, focused, user=user, channel=channel, guild=guild, **options)]

    async def autocomplete_choices(self, command: str, focused: str, *, user: User = ALICE,
                                   channel: int = CHANNEL_ID, guild: int | None = GUILD_ID,
                                   **options: Any) -> list[dict[str, Any]]:
        """Like :meth:`autocomplete`, each choice as Discord gets it (``name`` and ``value``)."""
        options.setdefault(focused, "")
        data = self._command_data(command, options, focused=focused)
        reply = await self._interact(4, data, user=user, channel=channel, guild=guild)
        assert reply.kind == "autocomplete", f"no autocomplete answer, got {reply.kind}"
        return reply.choices

    async def click(self, message: Message | int, label: str, *, user: User = ALICE,
                    guild: int | None = GUILD_ID) -> Reply:
        """Press the button labelled ``label`` on ``message`` as it is now."""
        current = self.message(message if isinstance(message, int) else message.id)
        button = current.button(label)
        data = {"custom_id": button.custom_id, "component_type": 2}
        return await self._interact(3, data, user=user, channel=current.channel_id,
                                    message=self.messages[current.id], guild=guild)

    async def click_stale(self, message: Message, label: str, *, user: User = ALICE,
                          guild: int | None = GUILD_ID) -> Reply:
        """Press ``label`` on ``message`` as it looked in that snapshot: what a second click
        sends when it left the user's client before the first click's result arrived."""
        data = {"custom_id": message.button(label).custom_id, "component_type": 2}
        return await self._interact(3, data, user=user, channel=message.channel_id,
                                    message=message.raw, guild=guild)

    async def choose_stale(self, message: Message, values: Sequence[str], *,
                           user: User = ALICE, index: int = 0) -> Reply:
        """Pick ``values`` in a select menu of ``message`` as it looked in that snapshot (a
        client that had not yet received the message's update)."""
        select = message.selects()[index]
        data = {"custom_id": select["custom_id"], "component_type": select["type"],
                "values": list(values)}
        return await self._interact(3, data, user=user, channel=message.channel_id,
                                    message=message.raw)

    async def press(self, custom_id: str, *, message: Message, user: User = ALICE,
                    channel: int | None = None, guild: int | None = GUILD_ID) -> Reply:
        """Send a button press with any ``custom_id`` (as a forged or outdated client may) on
        ``message``, from ``channel`` (default: the message's)."""
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, data, user=user,
                                    channel=message.channel_id if channel is None else channel,
                                    message=message.raw, guild=guild)

    async def choose(self, message: Message, values: Sequence[str], *, user: User = ALICE,
                     index: int = 0, guild: int | None = GUILD_ID) -> Reply:
        """Pick ``values`` in the ``index``-th select menu of ``message``."""
        select = self.message(message.id).selects()[index]
        data = {"custom_id": select["custom_id"], "component_type": select["type"],
                "values": list(values)}
        return await self._interact(3, data, user=user, channel=message.channel_id,
                                    message=self.messages[message.id], guild=guild)

    async def pick(self, message: Message, label: str, *, user: User = ALICE,
                   stale: bool = False, guild: int | None = GUILD_ID) -> Reply:
        """Pick the entry labelled ``label`` in whichever select menu of ``message`` offers it
        (as the message is now, or with ``stale`` as it looked in that snapshot)."""
        shown = message if stale else self.message(message.id)
        for select in shown.selects():
            for option in select.get("options", ()):
                if option["label"] == label:
                    data = {"custom_id": select["custom_id"], "component_type": select["type"],
                            "values": [option["value"]]}
                    return await self._interact(3, data, user=user, channel=shown.channel_id,
                                                message=shown.raw, guild=guild)
        offered = [o["label"] for s in shown.selects() for o in s.get("options", ())]
        raise AssertionError(f"no menu entry {label!r} on message; entries: {offered}")

    async def submit(self, modal: Modal | None, values: dict[str, str], *, user: User = ALICE,
                     message: Message | None = None, channel: int = CHANNEL_ID,
                     guild: int | None = GUILD_ID) -> Reply:
        """Submit ``modal`` with ``values`` keyed by each field's label: a text input's text,
        or the value picked in a labelled menu."""
        assert modal is not None, "no modal was shown"
        unknown = set(values) - set(modal.fields) - set(modal.menus)
        assert not unknown, (f"modal has no fields {unknown}; it has {list(modal.fields)} "
                             f"and menus {list(modal.menus)}")
        rows = [modal.field_component(label, value) for label, value in values.items()]
        if self.pseudo is not None:
            self.pseudo.allow(values.values())
        data = {"custom_id": modal.custom_id, "components": rows}
        raw = self.messages[message.id] if message is not None else None
        return await self._interact(5, data, user=user,
                                    channel=message.channel_id if message else channel,
                                    message=raw, guild=guild)

    # -- reading -------------------------------------------------------------------------

    def message(self, message_id: int) -> Message:
        return message_of(self.messages[message_id])

    def direct_messages(self, user: User) -> list[Message]:
        """What the bot sent ``user`` by direct message, oldest first."""
        return [self.message(i) for i, raw in sorted(self.messages.items())
                if self.dm_channels.get(int(raw["channel_id"])) == user.id]

    def channel_messages(self, channel: int = CHANNEL_ID) -> list[Message]:
        """Non-ephemeral messages in ``channel``, oldest first, as they look now."""
        return [message_of(m) for m in self.messages.values()
                if int(m["channel_id"]) == channel and not m["flags"] & EPHEMERAL]

    # -- payloads ------------------------------------------------------------------------

    def _command_data(self, command: str, options: dict[str, Any],
                      focused: str | None) -> dict[str, Any]:
        names = command.split()
        found: app_commands.Command[Any, ..., Any] | app_commands.Group | None
        found = self.bot.tree.get_command(names[0])
        assert found is not None, f"no command /{names[0]}"
        for name in names[1:]:
            assert isinstance(found, app_commands.Group), f"/{command}: no such subcommand"
            found = found.get_command(name)
            assert found is not None, f"no command /{command}"
        assert isinstance(found, app_commands.Command), f"/{command} is a group"
        params = {p.display_name: p for p in found.parameters}
        unknown = set(options) - set(params)
        assert not unknown, f"/{command} has no options {unknown}"
        if self.pseudo is not None:
            self.pseudo.allow(options.values())
        leaf: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in options.items():
            param = params[name]
            if isinstance(value, User):
                value = str(value.id)
            elif isinstance(value, Role):  # Discord sends the role itself alongside its id
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
                value = str(value.id)
            option = {"name": name, "type": param.type.value, "value": value}
            if name == focused:
                option["focused"] = True
            leaf.append(option)
        nested: list[dict[str, Any]] = leaf
        for depth in range(len(names) - 1, 0, -1):
            nested = [{"name": names[depth], "type": 1 if depth == len(names) - 1 else 2,
                       "options": nested}]
        data = {"id": str(snowflake()), "name": names[0], "type": 1, "options": nested}
        if resolved:
            data["resolved"] = resolved
        return data

    def _payload(self, kind: int, data: dict[str, Any], *, user: User, channel: int,
                 token: str, guild: int | None = GUILD_ID) -> dict[str, Any]:
        self._channel_guild[channel] = guild
        common = {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": kind,
            "token": token, "version": 1, "channel_id": str(channel), "data": data,
            "locale": self.locales.get(user.id, self.user_locale),
            "app_permissions": str(self.app_permissions.value), "entitlements": [],
            "attachment_size_limit": 10_485_760,
        }
        if guild is None:  # a direct message with the bot: a user, no member, no server
            return {
                **common, "user": user.user_payload(),
                "channel": {"id": str(channel), "type": 1, "last_message_id": None,
                            "recipients": [user.user_payload()]},
                "authorizing_integration_owners": {"0": str(GUILD_ID)}, "context": 1,
            }
        return {
            **common, "guild_id": str(guild),
            "channel": self._channel_payload(channel, guild),
            "member": user.member_payload(), "guild_locale": self.guild_locale,
            "authorizing_integration_owners": {"0": str(guild)}, "context": 0,
        }

    def _channel_payload(self, channel: int, guild: int) -> dict[str, Any]:
        """A text channel, or a public thread the bot opened (with its parent)."""
        parent = self.threads.get(channel)
        if parent is None:
            return {"id": str(channel), "type": 0, "guild_id": str(guild), "name": "fight",
                    "position": 0, "permission_overwrites": [], "nsfw": False,
                    "parent_id": None}
        return {"id": str(channel), "type": 11, "guild_id": str(guild), "name": "fight thread",
                "parent_id": str(parent), "owner_id": str(APP_ID), "message_count": 0,
                "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                    "locked": False}}

    async def _interact(self, kind: int, data: dict[str, Any], *, user: User, channel: int,
                        message: dict[str, Any] | None = None,
                        guild: int | None = GUILD_ID) -> Reply:
        token = f"token-{snowflake()}"
        payload = self._payload(kind, data, user=user, channel=channel, token=token,
                                guild=guild)
        self._token_channel[token] = channel
        if message is not None:
            payload["message"] = message
            self._token_message[token] = int(message["id"])
        reply = Reply()
        self._replies[token] = reply
        self._current = reply
        before = asyncio.all_tasks()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self._settle(before)
        self._current = None
        return reply

    async def at_once(self, *requests: tuple[str, dict[str, Any]]) -> list[Reply]:
        """Send several slash commands ``(command, options)`` before the bot has handled any
        of them, as when people press at the same moment; then wait for all of them. Each
        reply holds its interaction's own answers (channel posts are in ``messages``)."""
        replies = [self.send_slash(command, **options) for command, options in requests]
        await self.settle()
        return replies

    def send_slash(self, command: str, *, user: User = ALICE, channel: int = CHANNEL_ID,
                   guild: int | None = GUILD_ID, **options: Any) -> Reply:
        """Hand ``/command`` to the bot without waiting for it (see :meth:`settle`); the reply
        fills in as the bot answers."""
        data = self._command_data(command, options, focused=None)
        token = f"token-{snowflake()}"
        payload = self._payload(2, data, user=user, channel=channel, token=token, guild=guild)
        reply = self._replies[token] = Reply()
        self._token_channel[token] = channel
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return reply

    def send_click(self, message: Message, label: str, *, user: User = ALICE) -> Reply:
        """Press ``label`` on ``message`` without waiting for the bot (see :meth:`settle`)."""
        data = {"custom_id": message.button(label).custom_id, "component_type": 2}
        token = f"token-{snowflake()}"
        payload = self._payload(3, data, user=user, channel=message.channel_id, token=token)
        payload["message"] = message.raw
        self._token_message[token] = message.id
        reply = self._replies[token] = Reply()
        self._token_channel[token] = message.channel_id
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return reply

    async def settle(self) -> None:
        """Wait until the bot has finished everything it is doing (but its timers)."""
        await self._settle(set())

    async def _settle(self, before: set[asyncio.Task[Any]]) -> None:
        """Wait until every task the interaction started (and those they started) is done."""
        me = asyncio.current_task()
        for _ in range(1000):
            pending = [t for t in asyncio.all_tasks() - before
                       if t is not me and not t.done()
                       and not t.get_name().startswith("unhex-background")]
            if not pending:
                await self._judge_english()
                return
            _, still = await asyncio.wait(pending, timeout=30)
            assert not still, f"the bot did not finish handling the interaction: {still}"
        raise AssertionError("the bot kept starting tasks")

    # -- the fake Discord HTTP API ---------------------------------------------------------

    def _record(self, raw: dict[str, Any], reply: Reply | None = None) -> None:
        self.messages[int(raw["id"])] = raw
        reply = reply or self._current
        if reply is not None:
            reply.messages.append(message_of(raw))

    async def _judge_english(self, *, look: bool = False) -> None:
        """In the pseudo-locale, once the bot is done: the texts suspected of English judged by
        what the store holds (names a set-up or a template made, not typed in this test);
        ``look``: the store's servers looked at in any case (a database started with, maybe a
        copy; not its fights, whose states a test may count as start-up builds them)."""
        if self.pseudo is None:
            return
        store = getattr(self.bot, "store", None)  # (a bot to compare with has none)
        if store is None:
            return
        guilds = {GUILD_ID, OTHER_GUILD_ID}
        channels = {CHANNEL_ID, OTHER_CHANNEL_ID, OTHER_GUILD_CHANNEL_ID, *self.threads}
        if look:
            await self.pseudo.look(store, guilds, ())
        await self.pseudo.judge(store, guilds, channels)

    def _read_for_english(self, body: dict[str, Any]) -> None:
        """In the pseudo-locale: what ``body`` (a message sent or its edit) shows, read for
        English (:mod:`testbed.pseudo`)."""
        if self.pseudo is not None:
            self.pseudo.read_message(body)

    def _new_message(self, channel_id: int, body: dict[str, Any], *, flags: int = 0,
                     message_id: int | None = None) -> dict[str, Any]:
        content = body.get("content") or ""
        rows = body.get("components") or []
        if self.checks:
            self._refuse(message_errors(body))
            check_phone_columns(content)
        self._read_for_english(body)
        guild = self._channel_guild.get(channel_id, GUILD_ID)
        raw = {
            "id": str(message_id or snowflake()), "channel_id": str(channel_id),
            **({} if guild is None else {"guild_id": str(guild)}),
            "author": {"id": str(self.bot.user.id if self.bot.user else APP_ID),
                       "username": "Unhex", "discriminator": "0", "avatar": None, "bot": True},
            "content": content, "timestamp": dt.datetime.now(dt.UTC).isoformat(),
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
            "mention_roles": [], "attachments": _attachments(body),
            "embeds": body.get("embeds") or [],
            "pinned": False, "type": 0, "components": rows,
            "flags": flags | int(body.get("flags") or 0),
            "allowed_mentions": body.get("allowed_mentions"), "nonce": body.get("nonce"),
        }
        return raw

    def _edit(self, message_id: int, body: dict[str, Any],
              reply: Reply | None = None) -> dict[str, Any]:
        raw = dict(self.messages[message_id])
        for key in ("content", "components", "embeds"):
            if key in body:
                raw[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if self.checks:
            self._refuse(message_errors(raw))
            check_phone_columns(raw["content"] or "")
        self._read_for_english(body)
        raw["edited_timestamp"] = dt.datetime.now(dt.UTC).isoformat()
        self._record(raw, reply)
        return raw

    def _patch_http(self, bot: UnhexBot) -> None:
        table = self
        http = bot.http

        async def webhook_request(adapter: AsyncWebhookAdapter, route: Any, session: Any = None,
                                  *, payload: dict[str, Any] | None = None,
                                  multipart: list[dict[str, Any]] | None = None,
                                  **kwargs: Any) -> Any:
            if payload is None and multipart:
                payload = _with_files(json.loads(multipart[0]["value"]), multipart[1:])
            return table._answer_webhook(route.method, route.path, route.url, payload or {})

        # The patch is process-wide; each Table re-points it at itself when it starts.
        AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign,assignment]

        async def send_message(channel_id: int, *, params: Any) -> dict[str, Any]:
            await table._channel_call(int(channel_id))
            if table.dm_channels.get(int(channel_id)) in table.no_dms:
                raise discord.Forbidden(_FakeResponse(403), {
                    "code": 50007, "message": "Cannot send messages to this user"})
            body = params.payload or _with_files(json.loads(params.multipart[0]["value"]),
                                                 params.multipart[1:])
            nonce = (int(channel_id), body.get("nonce")) if body.get("enforce_nonce") else None
            made = table._nonces.get(nonce) if nonce is not None else None
            if made in table.messages:  # Discord returns the message made with this nonce
                return table.messages[made]
            raw = table._new_message(int(channel_id), body)
            table._record(raw)
            if nonce is not None:
                table._nonces[nonce] = int(raw["id"])
            return raw

        async def edit_message(channel_id: int, message_id: int, *, params: Any) -> dict[str, Any]:
            await table._channel_call(int(channel_id))
            if int(message_id) not in table.messages:  # (as Discord: 10008)
                raise discord.NotFound(_FakeResponse(404), "Unknown Message")
            return table._edit(int(message_id), params.payload or {})

        async def get_message(channel_id: int, message_id: int) -> dict[str, Any]:
            try:
                return table.messages[int(message_id)]
            except KeyError:
                raise discord.NotFound(_FakeResponse(404), "Unknown Message") from None

        async def logs_from(channel_id: int, limit: int, **_: Any) -> list[dict[str, Any]]:
            """The channel's newest ``limit`` messages, newest first (no ephemeral one)."""
            shown = [raw for raw in table.messages.values()
                     if int(raw.get("channel_id") or 0) == int(channel_id)
                     and not int(raw.get("flags") or 0) & 64]
            return sorted(shown, key=lambda raw: int(raw["id"]), reverse=True)[:limit]

        async def delete_message(channel_id: int, message_id: int, **_: Any) -> None:
            table.messages.pop(int(message_id), None)

        async def bulk_upsert_global_commands(application_id: int, *, payload: Any) -> list[Any]:
            table.synced.append((None, payload))
            return []

        async def bulk_upsert_guild_commands(application_id: int, guild_id: int,
                                             *, payload: Any) -> list[Any]:
            table.synced.append((int(guild_id), payload))
            return []

        async def pin_message(channel_id: int, message_id: int, reason: str | None = None) -> None:
            await table._channel_call(int(channel_id))
            pinned = table.pins.setdefault(int(channel_id), [])
            if int(message_id) not in pinned:
                pinned.append(int(message_id))

        async def unpin_message(channel_id: int, message_id: int,
                                reason: str | None = None) -> None:
            await table._channel_call(int(channel_id))
            pinned = table.pins.get(int(channel_id), [])
            if int(message_id) in pinned:
                pinned.remove(int(message_id))

        async def start_thread_without_message(channel_id: int, *, name: str,
                                               **_: Any) -> dict[str, Any]:
            await table._channel_call(int(channel_id))
            thread = snowflake()
            table.threads[thread] = int(channel_id)
            table._channel_guild[thread] = table._channel_guild.get(int(channel_id), GUILD_ID)
            if table.pseudo is not None:
                table.pseudo.read("thread name", [name])
            guild = table._channel_guild[thread] or GUILD_ID
            return {**table._channel_payload(thread, guild), "name": name}

        async def start_private_message(user_id: int) -> dict[str, Any]:
            """The user's direct-message channel with the bot (the same one each time)."""
            channel = next((c for c, u in table.dm_channels.items() if u == int(user_id)),
                           None) or snowflake()
            table.dm_channels[channel] = int(user_id)
            table._channel_guild[channel] = None
            return {"id": str(channel), "type": 1, "last_message_id": None,
                    "recipients": [{"id": str(user_id), "username": "user",
                                    "discriminator": "0", "avatar": None}]}

        http.start_private_message = start_private_message  # type: ignore[method-assign,assignment]
        http.pin_message = pin_message  # type: ignore[method-assign,assignment]
        http.unpin_message = unpin_message  # type: ignore[method-assign,assignment]
        http.start_thread_without_message = start_thread_without_message  # type: ignore[method-assign,assignment]
        http.send_message = send_message  # type: ignore[method-assign,assignment]
        http.edit_message = edit_message  # type: ignore[method-assign,assignment]
        http.get_message = get_message  # type: ignore[method-assign,assignment]
        http.logs_from = logs_from  # type: ignore[method-assign,assignment]
        http.delete_message = delete_message  # type: ignore[method-assign,assignment]
        http.bulk_upsert_global_commands = bulk_upsert_global_commands  # type: ignore[method-assign,assignment]
        http.bulk_upsert_guild_commands = bulk_upsert_guild_commands  # type: ignore[method-assign,assignment]

    def _refuse(self, errors: Errors | None) -> None:
        """Answer as Discord does a body past its limits (:mod:`localdiscord.limits`): 400,
        50035 Invalid Form Body with the fields at fault; the test fails at :meth:`stop`
        even when the bot carries on."""
        if errors:
            self.refused.append(errors)
            response = _FakeResponse(400)
            response.reason = "Bad Request"
            raise discord.HTTPException(response, {
                "code": 50035, "message": "Invalid Form Body", "errors": errors})

    async def _channel_call(self, channel_id: int) -> None:
        """What Discord does before a channel message is sent or edited: by default nothing;
        a test may make it slow or refuse (``table.channel_faults[channel] = async fn``)."""
        fault = self.channel_faults.get(channel_id)
        if fault is not None:
            await fault()

    def _answer_webhook(self, method: str, path: str, url: str,
                        body: dict[str, Any]) -> Any:
        if method == "POST" and path.endswith("/callback"):
            token = url.split("/")[-2]
            if self.expired_tokens:  # the user waited too long: Discord forgot the interaction
                raise discord.NotFound(_FakeResponse(404), "Unknown interaction")
            return self._callback(token, body, self._replies.get(token, self._current))
        parts = url.split("/webhooks/")[1].split("/")
        token = parts[1]
        reply = self._replies.get(token, self._current)
        if method == "POST":  # a follow-up message
            if self.followups_down:
                response = _FakeResponse(503)
                response.reason = "Service Unavailable"
                raise discord.DiscordServerError(response, "refused")
            flags = int(body.get("flags") or 0)
            raw = self._new_message(self._channel_of(token), body, flags=flags)
            self._record(raw, reply)
            return raw
        target = parts[3] if len(parts) > 3 else "@original"
        message_id = self._token_message[token] if target == "@original" else int(target)
        if method == "PATCH":
            return self._edit(message_id, body, reply)
        if method == "GET":
            return self.messages[message_id]
        if method == "DELETE":
            self.messages.pop(message_id, None)
            return None
        raise AssertionError(f"unexpected webhook call {method} {url}")

    def _channel_of(self, token: str) -> int:
        message_id = self._token_message.get(token)
        if message_id is not None and message_id in self.messages:
            return int(self.messages[message_id]["channel_id"])
        return self._token_channel[token]

    def _callback(self, token: str, body: dict[str, Any], reply: Reply | None) -> dict[str, Any]:
        kind = body["type"]
        data = body.get("data") or {}
        interaction = {"id": str(snowflake()), "type": kind}
        resource: dict[str, Any] = {"type": kind}
        names = {4: "message", 5: "defer", 6: "defer-update", 7: "update", 8: "autocomplete",
                 9: "modal"}
        if reply is not None:
            reply.kind = names.get(kind, str(kind))
        if kind == 4:
            flags = int(data.get("flags") or 0)
            raw = self._new_message(self._token_channel[token], data, flags=flags)
            self._token_message[token] = int(raw["id"])
            self._record(raw, reply)
            resource["message"] = raw
            interaction.update(response_message_id=raw["id"],
                               response_message_ephemeral=bool(flags & EPHEMERAL))
        elif kind == 5:
            flags = int(data.get("flags") or 0)
            raw = self._new_message(self._token_channel[token], {"content": ""}, flags=flags)
            self._token_message[token] = int(raw["id"])
            self.messages[int(raw["id"])] = raw
            interaction.update(response_message_id=raw["id"], response_message_loading=True,
                               response_message_ephemeral=bool(flags & EPHEMERAL))
        elif kind == 7:
            message_id = self._token_message[token]
            raw = self._edit(message_id, data, reply)
            resource["message"] = raw
            interaction.update(response_message_id=raw["id"])
        elif kind == 8:
            if self.checks:
                self._refuse(autocomplete_errors(data))
            choices = list(data.get("choices") or [])
            if self.pseudo is not None:
                choices = self.pseudo.read_choices(choices)
            if reply is not None:
                reply.choices = choices
        elif kind == 9:
            if self.checks:
                self._refuse(modal_errors(data))
            if self.pseudo is not None:
                data = self.pseudo.read_modal(data)
            if reply is not None:
                reply.modal = modal_of(data)
        return {"interaction": interaction, "resource": resource}


PHONE_COLUMNS = 40


def check_phone_columns(content: str) -> None:
    """Ours, not Discord's: a code block's line a phone shows whole (40 columns)."""
    for block in content.split("```")[1::2]:
        language, _, text = block.partition("\n")
        if language in ("json", SOURCE):
            continue  # text to copy, not to read: its lines are the writer's
        for line in text.splitlines():
            assert width(line) <= PHONE_COLUMNS, f"code block line past 40 columns: {line!r}"


def _with_files(body: dict[str, Any], parts: list[dict[str, Any]]) -> dict[str, Any]:
    """``body`` (a message, or an interaction answer holding one in ``data``) with the bytes
    of each file sent beside it (multipart) on its attachment."""
    message = body.get("data", body)
    for attachment, part in zip(message.get("attachments") or (), parts, strict=False):
        fp = part["value"]
        attachment["data"] = fp if isinstance(fp, bytes) else fp.read()
    return body


def _attachments(body: dict[str, Any]) -> list[dict[str, Any]]:
    """A message's attachments as Discord shows them, each with the file's bytes (``data``)."""
    return [{"id": str(snowflake()), "filename": a["filename"], "size": len(a["data"]),
             "url": f"https://cdn.invalid/{a['filename']}",
             "proxy_url": f"https://cdn.invalid/{a['filename']}", "data": a["data"]}
            for a in body.get("attachments") or () if "data" in a]


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found"
