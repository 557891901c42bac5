"""Fuzz every slash command, autocomplete, button and form with what a Discord client, an
outdated client or a forged payload can send, against a server with a fight in progress.

For every interaction, whatever it carried:

- the bot answers: a message or a form (never nothing, never "Something went wrong", which
  means an unhandled exception, and never discord.py's raw "Failed to convert …");
- nothing is logged at ERROR by the bot's or discord.py's loggers;
- a refusal (an ephemeral answer) and opening a form change nothing in the database;
- no message can ping: ``allowed_mentions`` never parses mentions out of the text (user-typed
  text is echoed in many answers) and lists only members the message names.

Commands are enumerated from the bot's own command tree, so a new command is fuzzed as soon as
it exists. The table is built once (another server with its own character, map and fight, a
finished fight with a Recover offer, pending delete confirmations, rolls waiting for a
decision, and a fight with a reaction window open); each test function starts a fresh bot on a
copy of it and reuses that bot across its examples: whenever an example changed the database,
the table is put back as it was built (which also restarts the bot). The tests after the fuzz
pin down, example by example, what it found.

The fuzz of buttons and forms runs on SQLite and on PostgreSQL (:data:`ON_BOTH_ENGINES`), the
rest on SQLite: on SQLite the table's copy is a file, on PostgreSQL a database made with
``CREATE DATABASE ... TEMPLATE`` from the one it was built in.

``make test`` runs a short, derandomized pass (well under a minute); ``make fuzz`` (or
``HYPOTHESIS_PROFILE=long``) a long random one.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import logging
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cogs.characters import PASTE_LABEL
from bot.cogs.maps import TEXT_LABEL
from engine.dice import RandomDice
from testbed.harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    DM_CHANNEL_ID,
    GM,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    OTHER_GUILD_CHANNEL_ID,
    OTHER_GUILD_ID,
    Message,
    Modal,
    Reply,
    Role,
    Table,
    User,
)
from tests.rows import Reader

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"


def fuzz_settings(short: int, long: int) -> settings:
    """``short`` examples in ``make test`` (derandomized: the same every run), ``long`` in
    ``make fuzz``. One table serves all examples of a test on purpose."""
    return settings(
        max_examples=long if LONG else short, deadline=None, derandomize=not LONG,
        database=None if not LONG else settings.default.database,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                               HealthCheck.data_too_large, HealthCheck.large_base_example],
    )


# -- who, where and what they send --------------------------------------------------------------

STRANGER = User(800_000_000_000_000_009, "stranger")  # a member the bot has never seen
ROLE_GM_ID = 910_999_000_000_000_001
ROLE_GM = User(800_000_000_000_000_008, "rolegm", roles=(ROLE_GM_ID,))
USERS = (ALICE, BOB, GM, ROLE_GM, STRANGER)


@dataclasses.dataclass(frozen=True)
class Place:
    name: str
    guild: int | None
    channel: int


MAIN = Place("the fight's channel", GUILD_ID, CHANNEL_ID)
PLACES = (
    MAIN, MAIN,  # most interactions happen where the fight is
    Place("another channel", GUILD_ID, OTHER_CHANNEL_ID),
    Place("another server", OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID),
    Place("a DM", None, DM_CHANNEL_ID),
)

#: Names that exist: this server's characters, items, areas and maps, another server's.
NAMES = ("Ana", "ana", " ANA ", "Goon", "Bea", "Zed", "Lair", "Den", "nightclub", "Nightclub",
         "Dance Floor", "Bar", "Knife", "1", "2", "right", "left", "both", "head", "melee_1h",
         "good at running", "Leader: Rally", "PCs", "NPCs")
NASTY = (
    "", " ", "\n\n", "\t", "²", "①", "٣", "٣٩", "１２", "-0", "+5", "1e3", "0x10", " 38 ",
    "9" * 25,
    "@everyone", "@here", "<@123>", "<@!123>", "<@&456>", f"<@{ALICE.id}>", f"<@&{GUILD_ID}>",
    "<#1>", "<t:0:R>", "\u200b", "\u200d\u200d", "\ufeff", "\u202eAna", "Ana\u200b", "مرحبا",
    "\u202b\u202c", "**bold**", "`", "```", "```json\n{}\n```", "||x||", "> q", "# h",
    "[l](https://example.com)", "\\", "_", "~~", "null", "None", "true", "{}", "[]", "%s",
    "{0}", "' OR 1=1 --", "\x00", "a:b", "Ana:Goon", "x" * 101, "é" * 33,
)


@st.composite
def long_text(draw: st.DrawFn) -> str:
    """Up to 6,000 characters, Discord's most for an option or a form field."""
    unit = draw(st.sampled_from(["x", "名", "a\u200b", "<@&456> ", "**", "`", "\n", "٣"]))
    return (unit * 6000)[: draw(st.sampled_from([101, 1999, 2001, 4001, 6000]))]


TEXT = st.one_of(st.sampled_from(NAMES), st.sampled_from(NASTY), st.text(max_size=40),
                 long_text())
WRONG_TYPES = st.sampled_from([0, 1, -1, 2**63, 2**70, -(2**70), 1.5, True, False, None, [], {},
                               "12", "abc", "٣"])


def value_for(param: app_commands.Parameter) -> st.SearchStrategy[Any]:
    """Values for one option: what the client offers, odd text, and the wrong type."""
    kind = param.type
    typed: st.SearchStrategy[Any]
    if param.choices:
        typed = st.sampled_from([c.value for c in param.choices])
    elif kind is discord.AppCommandOptionType.string:
        typed = TEXT
    elif kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        low = int(param.min_value) if param.min_value is not None else -(2**53)
        high = int(param.max_value) if param.max_value is not None else 2**53
        typed = st.one_of(st.integers(low, high), st.sampled_from([low - 1, high + 1, 0]))
    elif kind is discord.AppCommandOptionType.boolean:
        typed = st.booleans()
    elif kind is discord.AppCommandOptionType.role:
        typed = st.sampled_from([Role(ROLE_GM_ID, "Game masters"), Role(GUILD_ID, "@everyone"),
                                 str(ROLE_GM_ID), "456"])
    else:
        typed = st.sampled_from(["123"])
    return st.one_of(typed, typed, TEXT, WRONG_TYPES)


# -- the table ---------------------------------------------------------------------------------


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def text(self) -> str:
        formatter = logging.Formatter("%(name)s: %(message)s")
        lines = []
        for r in self.records:
            lines.append(formatter.format(r))
            if r.exc_info and r.exc_info[1] is not None:
                lines.append(f"  {type(r.exc_info[1]).__name__}: {r.exc_info[1]}")
        return "\n".join(lines)


class SqliteFiles:
    """The fuzz's databases on SQLite: files in a folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def database(self, name: str) -> str:
        """Where the database ``name`` is."""
        return str(self.folder / f"{name}.sqlite3")

    def empty(self, name: str) -> str:
        """The database ``name``, with nothing in it (the bot makes the file)."""
        database = self.database(name)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        return database

    def keep(self, database: str) -> str:
        """A template of ``database`` as it is now (SQLite's online backup)."""
        template = self.database("template")
        with contextlib.closing(sqlite3.connect(database)) as src, \
                contextlib.closing(sqlite3.connect(template)) as dst:
            src.backup(dst)
        return template

    def copy(self, template: str, database: str) -> None:
        """``database`` made a copy of ``template``, by a bot that is not running."""
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        shutil.copy(template, database)


class PostgresDatabases:
    """The fuzz's databases on PostgreSQL: databases of the test session's server."""

    def __init__(self, server: Any) -> None:
        self.server = server

    def database(self, name: str) -> str:
        """The URL of the database ``name``."""
        url: str = self.server.url(name)
        return url

    def empty(self, name: str) -> str:
        """The database ``name``, made again with nothing in it."""
        self.server.drop_database_now(name)
        self.server.create_database_now(name)
        return self.database(name)

    def keep(self, database: str) -> str:
        """The database itself serves as the template: once its bot has stopped, nothing is
        connected to it (PostgreSQL copies a database only then)."""
        return database

    def copy(self, template: str, database: str) -> None:
        """``database`` dropped and made again from ``template`` (``CREATE DATABASE ...
        TEMPLATE``), with no connection to either."""
        name = _database_name(database)
        self.server.drop_database_now(name)
        self.server.create_database_now(name, template=_database_name(template))


def postgres_server(request: pytest.FixtureRequest) -> Any:
    """The test session's PostgreSQL server (the ``postgres_server`` fixture)."""
    return request.getfixturevalue("postgres_server")


def _database_name(url: str) -> str:
    return url.rsplit("/", 1)[1].split("?")[0]


Databases = SqliteFiles | PostgresDatabases


@dataclasses.dataclass
class Arena:
    """A table with a fight in progress, driven from synchronous hypothesis tests."""

    loop: asyncio.AbstractEventLoop
    table: Table
    databases: Databases
    template: str
    errors: _Errors
    #: Reads the table's database (what the checks compare), not through the bot's store.
    read: Reader
    template_messages: dict[int, dict[str, Any]] = dataclasses.field(default_factory=dict)
    pristine: dict[str, list[tuple[Any, ...]]] = dataclasses.field(default_factory=dict)
    #: Every button the table was shown while it was built, with the message as it was then.
    buttons: list[tuple[str, Message]] = dataclasses.field(default_factory=list)
    resets: int = 0

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return self.loop.run_until_complete(coro)

    def seen(self, *replies: Reply) -> None:
        for reply in replies:
            for message in reply.messages:
                self.buttons += [(b.custom_id, message) for b in message.buttons]
                self.buttons += [(s["custom_id"], message) for s in message.selects()]

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, to compare before and after an interaction."""
        return self.read.every_row()

    def interact(self, what: str, send: Callable[[], Coroutine[Any, Any, Reply]]) -> Reply:
        """Send one interaction, check every property, and put the table back if it changed."""
        before = self.dump()
        self.errors.records.clear()
        try:
            reply = self.run(send())
            check(self, what, reply, before)
        finally:
            self.table.app_permissions = discord.Permissions.all()
            if self.dump() != self.pristine:
                self.reset()
        return reply

    def reset(self) -> None:
        """The table as it was built: the database, the messages and a fresh bot (which has
        forgotten every form it opened)."""
        t = self.table
        if hasattr(t, "bot"):
            self.run(t.bot.fights.close())
            self.run(t.bot.store.close())
        self.read.close()
        self.databases.copy(self.template, str(t.database))
        self.resets += 1
        t.messages = copy.deepcopy(self.template_messages)
        self.run(t.start())
        _steady(t)


def _steady(table: Table) -> None:
    """Dice that never run out, and a clock that stands still (reaction windows stay open)."""
    table.bot.dice = RandomDice(7)
    now = table.bot.fights.clock()
    table.bot.fights.clock = lambda: now


def check(arena: Arena, what: str, reply: Reply, before: dict[str, Any]) -> None:
    shown = [m.content for m in reply.messages]
    answered = reply.messages or reply.modal or reply.kind == "autocomplete"
    assert answered, f"{what}: the bot did not answer (kind {reply.kind})\n{arena.errors.text()}"
    for m in reply.messages:
        assert "Something went wrong" not in m.content, f"{what}: {arena.errors.text()}"
        assert "Failed to convert" not in m.content, f"{what}: {m.content}"
        assert m.content.strip() or m.embeds or m.raw.get("attachments") or m.buttons, (
            f"{what}: an empty message")
        if m.raw.get("edited_timestamp") is None:  # an edit pings nobody
            _no_live_ping(what, m)
    assert not arena.errors.records, f"{what}: logged\n{arena.errors.text()}\nshown: {shown}"
    saved_ephemerally = any(m.content.startswith(("Saved the new map", "Saved your changes to",
                                                  "⏰ You are now reminded"))
                            for m in reply.messages)  # (one's own choices, said to oneself)
    refused = reply.messages and all(m.ephemeral for m in reply.messages)
    if reply.modal is not None or (refused and not saved_ephemerally):
        after = arena.dump()
        changed = [t for t in after if after[t] != before.get(t)]
        assert not changed, f"{what}: refused ({shown}) but changed {changed}"


def _no_live_ping(what: str, m: Message) -> None:
    mentions = m.allowed_mentions
    assert mentions is not None, f"{what}: no allowed_mentions (Discord would ping): {m.content}"
    assert mentions.get("parse") == [], f"{what}: parses mentions: {mentions}"
    assert not mentions.get("roles"), f"{what}: may ping roles: {mentions}"
    for user in mentions.get("users", []):
        assert int(user) in {u.id for u in USERS}, f"{what}: pings {user}: {m.content}"
        assert f"<@{user}>" in m.content, f"{what}: pings {user}, not named: {m.content}"


async def _character(table: Table, name: str, *, user: User, level: int = 40,
                     npc: bool = False, place: Place = MAIN) -> list[Reply]:
    where = {"guild": place.guild, "channel": place.channel}
    replies = [await table.slash("character create", user=user, name=name, level=level,
                                 npc=npc, **where)]
    replies.append(await table.slash("character item add", user=user, character=name,
                                     name="Knife", kind="melee_1h", **where))
    replies.append(await table.slash("character item hold", user=user, character=name,
                                     item="Knife", **where))
    for r in replies:
        assert not r.ephemeral, r.content
    return replies


async def _map(table: Table, name: str, text: str, *, place: Place = MAIN) -> Reply:
    opened = await table.slash("map new", user=GM, name=name, guild=place.guild,
                               channel=place.channel)
    saved = await table.submit(opened.modal, {TEXT_LABEL: text}, user=GM, guild=place.guild,
                               channel=place.channel)
    assert saved.content.startswith("Saved the new map"), saved.content
    return saved


async def build(t: Table, seen: Callable[..., None]) -> None:
    """The table every fuzz test starts from (see the module docstring)."""
    seen(await t.slash("gm role", user=GM, role=Role(ROLE_GM_ID, "Game masters")))
    # Another server: a character and a map of its own, and a fight in its channel.
    other = Place("another server", OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID)
    await _character(t, "Zed", user=GM, npc=True, place=other)
    await _map(t, "Lair", "Hall -- Cellar", place=other)
    seen(await t.slash("combat start", user=GM, map="Lair", guild=OTHER_GUILD_ID,
                       channel=OTHER_GUILD_CHANNEL_ID))
    # This server: Ana (Alice's), Bea (Bob's), Goon (an NPC); a map of its own.
    for name, user, npc in (("Ana", ALICE, False), ("Bea", BOB, False), ("Goon", GM, True)):
        seen(*await _character(t, name, user=user, npc=npc))
    await _map(t, "Den", "Hall -- Cellar\nHall @ 0,0\nCellar @ 1,0")
    # A fight in the tavern that is over: Bea is offered Recovery.
    t.dice(9, 9, 9, 9)
    seen(await t.slash("combat start", user=GM, map="Warehouse", channel=OTHER_CHANNEL_ID))
    seen(await t.slash("combat add", user=BOB, character="Bea", area="Office",
                       channel=OTHER_CHANNEL_ID))
    seen(await t.slash("combat set", user=GM, character="Bea", level=30,
                       channel=OTHER_CHANNEL_ID))
    ended = await t.slash("combat end", user=GM, channel=OTHER_CHANNEL_ID)
    assert "may recover" in ended.prompt.content, [m.content for m in ended.messages]
    seen(ended)
    # The fight: Ana and Goon on the dance floor, PCs first, Ana attacks, Goon may react.
    seen(await t.slash("combat start", user=GM, map="Nightclub", reaction="10m"))
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        seen(await t.slash("combat add", user=user, character=name, area="Dance Floor"))
    t.dice(3, 4, 6, 2)
    begun = await t.slash("combat begin", user=GM)
    seen(begun, await t.click(begun.prompt, "PCs first"))
    declared = await t.slash("attack", target="Goon")
    assert "may react" in declared.prompt.content, declared.prompt.content
    seen(declared)
    # Waiting: a roll's decision, two delete confirmations.
    t.dice(1, 1)
    crit = await t.slash("roll", level=40)
    t.dice(5, 6)
    seen(crit, await t.slash("roll", level=40, good=True))
    seen(await t.slash("character delete", user=BOB, character="Bea"))
    seen(await t.slash("map delete", user=GM, name="Den"))
    # Ana's hands panel: a menu per hand and Apply (one action).
    seen(await t.slash("item hands"))
    _steady(t)


@dataclasses.dataclass(frozen=True)
class Built:
    """The table as :func:`build` left it: its database (a template), messages and buttons."""

    databases: Databases
    template: str
    messages: dict[int, dict[str, Any]]
    buttons: list[tuple[str, Message]]


@contextlib.contextmanager
def _running(databases: Databases, database: str, template: str = "") -> Iterator[Arena]:
    """An arena on ``database`` with its own event loop and error capture, for one test."""
    loop = asyncio.new_event_loop()
    errors = _Errors()
    loggers = [logging.getLogger(n) for n in ("bot", "discord", "engine")]
    for logger in loggers:
        logger.addHandler(errors)
    table = Table(database)  # a path or a URL
    table.roles.append(Role(ROLE_GM_ID, "Game masters"))
    a = Arena(loop, table, databases, template, errors, Reader(database))
    try:
        yield a
    finally:
        for logger in loggers:
            logger.removeHandler(errors)
        with contextlib.suppress(Exception):
            a.run(table.bot.fights.close())
            a.run(table.stop())
        a.read.close()
        loop.run_until_complete(_cancel_the_rest())
        loop.close()


#: A test that runs on PostgreSQL too (the others run on SQLite only): the fuzz of buttons and
#: forms, whose fight steps, stale versions, undo, deletions, imports and map saves exercise the
#: store most, at a fraction of the cost of every command's fuzz.
ON_BOTH_ENGINES = pytest.mark.parametrize("built", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="module", params=["sqlite"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Built once per engine; each test starts a fresh bot on a copy (see :func:`arena`)."""
    databases: Databases
    if request.param == "postgresql":
        databases = PostgresDatabases(postgres_server(request))
    else:
        databases = SqliteFiles(tmp_path_factory.mktemp("fuzz"))
    with _running(databases, databases.empty("fuzz_build")) as a:
        a.run(a.table.start())
        a.run(build(a.table, a.seen))
        assert not a.errors.records, a.errors.text()
        messages, buttons = copy.deepcopy(a.table.messages), a.buttons
        database = str(a.table.database)
    # The bot has stopped: nothing holds the database now.
    return Built(databases, databases.keep(database), messages, buttons)


@pytest.fixture
def arena(built: Built) -> Iterator[Arena]:
    """A table with a fight in progress for one test function, reused across its examples."""
    with _running(built.databases, built.databases.database("fuzz_arena"),
                  built.template) as a:
        a.template_messages = built.messages
        a.buttons = list(built.buttons)
        a.reset()
        a.pristine = a.dump()
        yield a


async def _cancel_the_rest() -> None:
    me = asyncio.current_task()
    rest = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


# -- the commands, from the bot's own tree -----------------------------------------------------


def _walk() -> list[tuple[str, list[str]]]:
    """Every slash command's name with its autocompleted options, from a bot as it starts."""

    async def walk() -> list[tuple[str, list[str]]]:
        with tempfile.TemporaryDirectory() as folder:
            table = await Table(Path(folder) / "walk.sqlite3").start()
            try:
                return sorted(
                    (c.qualified_name, [p.display_name for p in c.parameters if p.autocomplete])
                    for c in table.bot.tree.walk_commands()
                    if isinstance(c, app_commands.Command))
            finally:
                await table.bot.fights.close()
                await table.stop()

    return asyncio.run(walk())


COMMANDS = _walk()
AUTOCOMPLETED = [(name, option) for name, options in COMMANDS for option in options]


def command(table: Table, name: str) -> app_commands.Command[Any, ..., Any]:
    found: Any = table.bot.tree
    for part in name.split():
        found = found.get_command(part)
    assert isinstance(found, app_commands.Command), name
    return found


def test_every_command_is_fuzzed() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"roll", "character create", "map new", "combat start", "attack", "item use",
            "gm role", "sheet"} <= names
    assert len(names) >= 40, sorted(names)


@st.composite
def options_for(draw: st.DrawFn, cmd: app_commands.Command[Any, ..., Any]) -> dict[str, Any]:
    options = {}
    for param in cmd.parameters:
        # A required option is now and then left out: a client with stale commands.
        present = draw(st.integers(0, 9)) > 0 if param.required else draw(st.booleans())
        if present:
            options[param.display_name] = draw(value_for(param))
    return options


@pytest.mark.parametrize("name", [name for name, _ in COMMANDS])
def test_slash_command_fuzz(arena: Arena, name: str) -> None:
    cmd = command(arena.table, name)

    @fuzz_settings(short=20, long=300)
    @given(options=options_for(cmd), user=st.sampled_from(USERS),
           place=st.sampled_from(PLACES), send_messages=st.integers(0, 9))
    def fuzz(options: dict[str, Any], user: User, place: Place, send_messages: int) -> None:
        table = arena.table
        if not send_messages:  # the bot lost Send Messages in the channel
            table.app_permissions = discord.Permissions.all()
            table.app_permissions.send_messages = False
        required = {p.display_name for p in cmd.parameters if p.required}
        missing = required - set(options)
        # The harness builds the payload; a stale client's one simply lacks some options.
        data = table._command_data(name, options, focused=None)
        what = f"/{name} {options!r:.300} by {user.name} in {place.name}" + (
            f" without {sorted(missing)}" if missing else "")
        arena.interact(what, lambda: table._interact(
            2, data, user=user, channel=place.channel, guild=place.guild))

    fuzz()


@pytest.mark.parametrize(("name", "option"), AUTOCOMPLETED)
def test_autocomplete_fuzz(arena: Arena, name: str, option: str) -> None:
    cmd = command(arena.table, name)

    @fuzz_settings(short=8, long=200)
    @given(options=options_for(cmd), typed=TEXT, user=st.sampled_from(USERS),
           place=st.sampled_from(PLACES))
    def fuzz(options: dict[str, Any], typed: str, user: User, place: Place) -> None:
        table = arena.table
        options[option] = typed  # Discord sends what is typed so far as a string
        what = f"autocomplete /{name} {option}={typed!r:.100} by {user.name} in {place.name}"
        reply = arena.interact(what, lambda: table._interact(
            4, table._command_data(name, options, focused=option), user=user,
            channel=place.channel, guild=place.guild))
        assert reply.kind == "autocomplete", what
        for choice in reply.choices:
            assert 1 <= len(choice["name"]) <= 100, f"{what}: {choice}"
            assert not isinstance(choice["value"], str) or len(choice["value"]) <= 100, choice

    fuzz()


# -- buttons -------------------------------------------------------------------------------------

_NUMBER = re.compile(r"\d+")


@st.composite
def custom_ids(draw: st.DrawFn, arena: Arena) -> tuple[str, Message]:
    """A button press: a real button (now or long gone), the same with its numbers or words
    changed, or an id no version of the bot ever made."""
    custom_id, message = draw(st.sampled_from(arena.buttons))
    how = draw(st.sampled_from(["as shown", "as shown", "number", "suffix", "cut", "unknown"]))
    if how == "number":
        numbers = list(_NUMBER.finditer(custom_id))
        if numbers:
            m = draw(st.sampled_from(numbers))
            new = draw(st.sampled_from(["0", "1", "9" * 30, str(2**63), "٣", "00", "4242"]))
            custom_id = custom_id[: m.start()] + new + custom_id[m.end():]
    elif how == "suffix":
        custom_id += draw(st.sampled_from([":", ":1", "x", ":keep", "\u200b"]))
    elif how == "cut":
        custom_id = custom_id[: draw(st.integers(0, len(custom_id)))]
    elif how == "unknown":
        custom_id = draw(st.one_of(
            st.text(min_size=1, max_size=100),
            st.sampled_from(["roll:1:explode", "cb:1:1:act:0:0", "cb:1:1:resolve::",
                             "character-delete:1:zzzzzzzz:delete", "recover:1",
                             "map-delete:1:00000000:1:delete", "old-format:Ana:defend",
                             "cb:1:1:react:0:0:extra"])))
    # Discord sends the message the button is on, as the user's client had it.
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "?",
                                      "custom_id": custom_id}]}
    raw = {**message.raw, "components": [row]}
    return custom_id, dataclasses.replace(message, components=(row,), raw=raw)


@ON_BOTH_ENGINES
def test_button_fuzz(arena: Arena) -> None:
    labels = {b.label for _, m in arena.buttons for b in m.buttons}
    assert labels >= {"Keep", "Adjust", "Recover Bea", "Delete character", "Delete map",
                      "PCs first", "Defend", "Resolve now (GM)"}, labels

    @fuzz_settings(short=250, long=3000)
    @given(pressed=custom_ids(arena), user=st.sampled_from(USERS),
           place=st.sampled_from([None, None, None, *PLACES]))
    def fuzz(pressed: tuple[str, Message], user: User, place: Place | None) -> None:
        custom_id, message = pressed
        table = arena.table
        channel = message.channel_id if place is None else place.channel
        guild = GUILD_ID if place is None else place.guild
        what = f"button {custom_id!r} by {user.name} in {channel} ({guild})"
        arena.interact(what, lambda: table.press(custom_id, message=message, user=user,
                                                 channel=channel, guild=guild))

    fuzz()


# -- forms ---------------------------------------------------------------------------------------

FIELD_TEXT = st.one_of(
    TEXT, long_text(),
    st.sampled_from(["38", "1", "0", "99", "100", "-5", "²", "①", "٣", "٣٩", "١",
                     '{"schema_version": 1, "name": "Cal"}',
                     '{"schema_version": 1, "name": "Ana"}',
                     '{"schema_version": 1, "name": "Npc", "npc": true}',
                     '{"schema_version": 99, "name": "Cal"}',
                     '{"schema_version": 1, "name": "' + "x" * 300 + '"}',
                     '{"schema_version": 1, "name": "Cal", "level": 500}',
                     '{"schema_version": 1, "name": "Cal", "items": [{}]}',
                     "```json\n{\"schema_version\": 1, \"name\": \"Cal\"}\n```",
                     "A -- B", "A -- B\nA @ 0,0\nB @ 99999,99999", "A -- A", "A -> ",
                     "A: " + "note " * 700, "```\nA -- B\n```", "A -- B\n" * 500]),
)


@st.composite
def forms(draw: st.DrawFn, arena: Arena) -> tuple[str, Modal, str, User, Place, Message | None]:
    """A form's submit: the kinds the bot opens, with real and forged ids, from anyone. A form
    opened by a button comes with the button's message, as Discord sends it."""
    table = arena.table
    message = None
    fight = arena.run(table.bot.fights.fight(CHANNEL_ID))
    kind = draw(st.sampled_from(["roll adjust", "fight adjust", "import", "map new",
                                 "map edit", "map form across a restart", "forged"]))
    user = draw(st.sampled_from(USERS))
    place = draw(st.sampled_from(PLACES))
    if kind == "roll adjust":
        roll_id = draw(st.sampled_from([1, 2, 3, 9999, 2**63]))
        modal = Modal(f"roll-adjust:{roll_id}", "", {"v": "roll-value"})
        message = draw(st.sampled_from([m for c, m in arena.buttons if c.startswith("roll:")]))
    elif kind == "fight adjust":
        assert fight is not None
        modal = Modal(f"cb-adjust:{fight.id}:{draw(st.sampled_from([fight.version, 0, 10**20]))}"
                      f":{draw(st.sampled_from(['0', '1', '7', '9' * 25]))}", "", {"v": "x"})
        message = draw(st.sampled_from([m for c, m in arena.buttons if c.startswith("cb:")]))
    elif kind == "import":
        modal = Modal("character-import:" + draw(st.sampled_from(["ab12", "0"])), "",
                      {PASTE_LABEL: "paste"})
    elif kind.startswith("map"):
        command_ = "map edit" if kind == "map edit" else "map new"
        name = "Den" if kind == "map edit" else "Keep"
        opened = arena.run(table.slash(command_, user=GM, name=name))
        assert opened.modal is not None, opened.content
        modal = opened.modal
        if kind == "map form across a restart":
            arena.reset()
    else:
        modal = Modal(draw(st.text(min_size=1, max_size=100)), "", {"v": "x"})
    return kind, modal, draw(FIELD_TEXT), user, place, message


@ON_BOTH_ENGINES
def test_form_fuzz(arena: Arena) -> None:
    @fuzz_settings(short=120, long=2000)
    @given(form=forms(arena))
    def fuzz(form: tuple[str, Modal, str, User, Place, Message | None]) -> None:
        kind, modal, text, user, place, message = form
        table = arena.table
        label = next(iter(modal.fields))
        what = f"{kind} form {modal.custom_id!r} with {text!r:.200} by {user.name} in {place.name}"
        arena.interact(what, lambda: table.submit(modal, {label: text}, user=user,
                                                  channel=place.channel, guild=place.guild,
                                                  message=message))

    fuzz()


@pytest.mark.parametrize("typed", ["²", "①", "٣", "٣٩", "１２", "-5", "0", "100", "+5", " 7 ",
                                   "1e3", "", "x" * 4000])
def test_number_forms_read_ascii_digits_only(arena: Arena, typed: str) -> None:
    """The Adjust forms (a chat roll's and a fight's) with what a keyboard can type: always a
    sentence, never an unhandled error (Python's ``isdigit`` accepts "²", ``int`` refuses it)."""
    table = arena.table
    crit = next(m for c, m in arena.buttons if c.endswith(":adjust"))
    roll_id = crit.button("Adjust").custom_id.split(":")[1]
    fight = arena.run(table.bot.fights.fight(CHANNEL_ID))
    assert fight is not None
    prompt = next(m for c, m in arena.buttons if c.startswith(f"cb:{fight.id}:"))
    for custom_id, message in ((f"roll-adjust:{roll_id}", crit),
                               (f"cb-adjust:{fight.id}:{fight.version}:0", prompt)):
        modal = Modal(custom_id, "Adjust", {"value": "value"})
        arena.interact(f"{custom_id} with {typed!r:.50}", lambda: table.submit(
            modal, {"value": typed}, message=message))  # noqa: B023 (run at once)


def test_every_form_and_button_id_the_bot_makes_is_one_it_answers(arena: Arena) -> None:
    """A custom id matching none of ``bot.answered_ids`` gets "That button no longer works":
    so each form pattern of the cogs must be registered, or its submit would be answered
    twice. Guard it for forms added later."""
    import importlib
    import pkgutil

    import bot.cogs

    answered = {p.pattern for p in arena.table.bot.answered_ids}
    modules = [m.name for m in pkgutil.walk_packages(bot.cogs.__path__, "bot.cogs.")]
    found = {}
    for name in modules:
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if attribute.endswith("_ID") and isinstance(value, re.Pattern):
                found[f"{name}.{attribute}"] = value.pattern
    assert {"bot.cogs.combat.views.ADJUST_MODAL_ID", "bot.cogs.maps.MAP_FORM_ID"} <= set(found)
    missing = {k: v for k, v in found.items() if v not in answered}
    assert not missing, f"form ids the bot does not register with bot.answers(): {missing}"


def _stale(arena: Arena, what: str, data: dict[str, Any]) -> Reply:
    table = arena.table
    return arena.interact(what, lambda: table._interact(2, data, user=GM, channel=CHANNEL_ID))


def test_a_client_with_the_commands_of_an_older_bot_is_told_to_reload(arena: Arena) -> None:
    """Discord checks options against the commands the bot registered; until a client has the
    new ones (or when a payload is forged) it may send a command the bot no longer has, an
    option it no longer takes, or miss a new one: the answer says to reload Discord."""
    table = arena.table
    cases = {
        "a command it no longer has": {"id": "1", "name": "duel", "type": 1, "options": []},
        "a subcommand it no longer has": {"id": "1", "name": "character", "type": 1,
                                          "options": [{"name": "clone", "type": 1,
                                                       "options": []}]},
        "an option it no longer takes": table._command_data("combat status", {}, None),
        "an option of another type": table._command_data("roll", {"level": 40}, None),
        "without a new option": table._command_data("attack", {}, None),
    }
    cases["an option it no longer takes"]["options"][0]["options"] = [
        {"name": "colour", "type": 3, "value": "red"}]
    cases["an option of another type"]["options"][0]["type"] = 3
    for what, data in cases.items():
        reply = _stale(arena, what, data)
        assert reply.ephemeral and reply.content.startswith(
            "This command has changed since Discord showed it to you: reload Discord"), (
            what, reply.content)


@pytest.mark.parametrize(("options", "says"), [
    ({"level": "40"}, "The `level` option takes a number; it got “40”."),
    ({"level": 40, "good": "yes"}, "The `good` option takes True or False."),
    ({"level": 40, "note": "x" * 6000}, "The `note` option takes at most 200 characters; yours "
                                        "has 6,000."),
    ({"level": 40, "note": 7}, "The `note` option takes text."),
])
def test_an_option_of_the_wrong_type_or_length_is_named(
    arena: Arena, options: dict[str, Any], says: str
) -> None:
    reply = _stale(arena, "/roll", arena.table._command_data("roll", options, None))
    assert reply.ephemeral and reply.content == f"{says} Nothing was changed.", reply.content


def test_a_role_option_discord_did_not_resolve_is_refused(arena: Arena) -> None:
    data = arena.table._command_data("gm role", {"role": str(ROLE_GM_ID)}, None)
    reply = _stale(arena, "/gm role unresolved", data)
    assert reply.ephemeral and "Pick the role" in reply.content, reply.content


def test_an_unknown_button_or_form_gets_an_answer(arena: Arena) -> None:
    _, message = arena.buttons[0]
    pressed = arena.interact("an old button", lambda: arena.table.press(
        "combat:Ana:defend", message=dataclasses.replace(message, raw={
            **message.raw, "components": [{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Defend", "custom_id": "combat:Ana:defend"}]}]})))
    assert pressed.ephemeral and pressed.content.startswith("That button no longer works")
    form = Modal("old-form:1", "Old", {"Text": "text"})
    sent = arena.interact("an old form", lambda: arena.table.submit(form, {"Text": "Ana -- Bo"}))
    assert sent.ephemeral and sent.content.startswith("That form no longer works")
    assert "Ana -- Bo" in sent.content  # what was typed is not lost


def test_a_map_form_left_open_across_a_restart_still_saves(arena: Arena) -> None:
    opened = arena.run(arena.table.slash("map new", user=GM, name="Keep"))
    arena.reset()
    sent = arena.interact("the map form after a restart", lambda: arena.table.submit(
        opened.modal, {TEXT_LABEL: "Quay -- Boat"}, user=GM))
    assert sent.ephemeral and sent.content.startswith("Saved the new map **Keep**"), sent.content
