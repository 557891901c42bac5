"""What the bot benchmarks share: timing one interaction from the payload going in to the
bot's first response and to its last message out, counting database round trips, a bare
baseline bot driven through the same fake-Discord path, and a scripted Unhex fight.

Both bots are driven by ``testbed/harness.py``'s :class:`Table`: the INTERACTION_CREATE payload
is fed to discord.py's connection state and every HTTP call is answered in-process, so the
Unhex bot and the bare bot pay the same dispatch and fake-HTTP costs. The harness's fake HTTP
answers are wrapped only to time-stamp them; nothing in ``bot/`` is patched, and aiosqlite and
asyncpg only to count the trips to SQLite's thread and to the PostgreSQL server.

The Unhex bot runs on SQLite (a file) and, when PostgreSQL's server programs are on the
machine, on PostgreSQL too: a server the bench starts itself (:func:`postgres_database`), with
PostgreSQL's durable defaults (fsync on, synchronous commit), removed at the end. The bare bot
stays on SQLite: it is the one baseline both are measured against.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import sqlite3
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import discord
import discord.ext.test.backend as dpytest_backend
from discord import app_commands
from discord.ext import commands

from bot.store import is_postgres
from testbed.harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GM,
    GUILD_ID,
    OTHER_CHANNEL_ID,
    Reply,
    Table,
    User,
)
from testbed.postgres_server import MISSING, PostgresServer, server_programs

ROOT = Path(__file__).resolve().parents[1]

__all__ = [
    "ALICE", "BOB", "CHANNEL_ID", "GM", "OTHER_CHANNEL_ID", "ROOT", "BareTable", "DbCounter",
    "Fight", "Probe", "Reply", "Sample", "Stats", "Table", "add_channels", "bench_args",
    "copy_fights", "copy_fights_postgres", "database_bytes", "engine_label", "hot_path_summary",
    "machine", "percentile", "postgres_database", "profile_summary", "ratio_line",
]

#: Reaction windows wait this long in bench fights, so no window closes by itself mid-run.
REACTION_SECONDS = 600


def bench_args(doc: str | None,
               extra: Callable[[argparse.ArgumentParser], None] | None = None,
               ) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes: checks the bench runs, measures nothing useful")
    parser.add_argument("--profile", metavar="STEP", default=None,
                        help="profile this step with cProfile instead of only timing it")
    if extra is not None:
        extra(parser)
    return parser.parse_args()


def machine() -> str:
    cpu = platform.processor() or "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}, discord.py {discord.__version__}; "
            f"load average {load} (other work on the machine skews the tails)")


# -- statistics ---------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values``, by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


@dataclass
class Stats:
    values: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.values.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def p90(self) -> float:
        return percentile(self.values, 0.90)

    @property
    def p99(self) -> float:
        return percentile(self.values, 0.99)

    def ms(self) -> str:
        """``median / p90 / p99`` in milliseconds."""
        return (f"{self.median * 1e3:7.2f} {self.p90 * 1e3:7.2f} {self.p99 * 1e3:7.2f}"
                f"  (n={len(self.values)})")


def ratio_line(name: str, value: float, goal: float, *, unit: str = "×",
               detail: str = "") -> str:
    """The one line per figure that ``make bench`` readers (and the quick test) look for."""
    verdict = "ok" if value <= goal else "OVER"
    return (f"ratio {name:<46} {value:8.2f}{unit}  goal ≤ {goal:g}{unit}  {verdict}"
            + (f"  {detail}" if detail else ""))


# -- counting what one interaction costs ---------------------------------------------------


class DbCounter:
    """Counts every trip to aiosqlite's worker thread (each is a round trip: a statement, a
    fetch, a cursor close, a commit) and to the PostgreSQL server (each statement asyncpg sends,
    BEGIN and COMMIT included, and the reset query its pool sends when a connection goes back
    to it), the statements among them, the commits, and the seconds the bot's coroutines spent
    waiting for those trips to come back.

    A commit is a COMMIT sent or, on a connection that autocommits, a write (INSERT, UPDATE,
    DELETE) sent outside a transaction, which commits by itself. A statement asyncpg prepares
    the first time a connection sees it costs one more trip, not counted (the benches warm up
    first)."""

    installed: DbCounter | None = None

    def __init__(self) -> None:
        self.trips = self.statements = self.commits = 0
        self.wait = 0.0

    @classmethod
    def install(cls) -> DbCounter:
        if cls.installed is not None:
            return cls.installed
        counter = cls.installed = cls()
        original = aiosqlite.Connection._execute

        async def _execute(conn: aiosqlite.Connection, fn: Any, *args: Any,
                           **kwargs: Any) -> Any:
            counter.trips += 1
            name = getattr(fn, "__name__", "")
            if name.startswith(("execute", "_execute")):
                counter.statements += 1
                sql = str(args[0]) if args else ""
                if "COMMIT" in sql.upper() or (
                        conn.isolation_level is None and not conn.in_transaction
                        and sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))):
                    counter.commits += 1  # (a write outside a transaction commits by itself)
            elif name == "commit":
                counter.commits += 1
            start = time.perf_counter()
            try:
                return await original(conn, fn, *args, **kwargs)
            finally:
                counter.wait += time.perf_counter() - start

        aiosqlite.Connection._execute = _execute  # type: ignore[method-assign]
        counter._count_asyncpg()
        return counter

    def _count_asyncpg(self) -> None:
        counter = self
        connection = asyncpg.connection.Connection
        simple, bound = connection.execute, connection._execute

        async def execute(conn: Any, query: str, *args: Any, **kwargs: Any) -> Any:
            if args:  # a bound statement: counted once, in _execute
                return await simple(conn, query, *args, **kwargs)
            counter.trips += 1
            if query != conn.get_reset_query():
                counter.statements += 1
                counter.commits += query.strip().upper() == "COMMIT"
            start = time.perf_counter()
            try:
                return await simple(conn, query, **kwargs)
            finally:
                counter.wait += time.perf_counter() - start

        async def _execute(conn: Any, query: str, *args: Any, **kwargs: Any) -> Any:
            counter.trips += 1
            counter.statements += 1
            if not conn.is_in_transaction() and query.lstrip().upper().startswith(
                    ("INSERT", "UPDATE", "DELETE")):
                counter.commits += 1
            start = time.perf_counter()
            try:
                return await bound(conn, query, *args, **kwargs)
            finally:
                counter.wait += time.perf_counter() - start

        connection.execute = execute  # type: ignore[method-assign]
        connection._execute = _execute  # type: ignore[method-assign]

    def snapshot(self) -> tuple[int, int, int, float]:
        return self.trips, self.statements, self.commits, self.wait


@dataclass
class Sample:
    """One interaction: seconds from the payload going in to the interaction's response, to
    the last message sent or edited, and to the bot having finished everything it started;
    the database round trips, statements and commits, and the seconds spent waiting for them;
    the fake HTTP calls, and among them those on the channel's buckets (a message posted,
    edited or deleted through the channel's routes, not through the interaction's token: on
    Discord these spend the channel's 5 per 5 s); and the CPU seconds the whole process (every
    thread) used meanwhile, which other work on the machine and disk flushes disturb far less
    than the wall clock."""

    first: float
    out: float
    settled: float
    trips: int
    statements: int
    commits: int
    db_wait: float
    http: int
    cpu: float
    reply: Reply
    channel: int = 0


class Probe:
    """Time-stamps what a :class:`Table` sees: the payload fed in, the interaction callback,
    every channel message sent or edited and every webhook call (follow-ups, edits)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.db = DbCounter.install()
        self.fed = self.first = self.last = 0.0
        self.http = self.channel = 0
        self._wrap()

    def _wrap(self) -> None:
        probe, table = self, self.table
        state = table.bot._connection
        parse = state.parse_interaction_create

        def fed(payload: Any) -> None:
            probe.fed = time.perf_counter()
            probe.first = probe.last = 0.0
            probe.http = probe.channel = 0
            parse(payload)

        state.parse_interaction_create = fed  # type: ignore[method-assign]
        answer = table._answer_webhook

        def webhook(method: str, path: str, url: str, body: dict[str, Any]) -> Any:
            now = time.perf_counter()
            if method == "POST" and path.endswith("/callback") and not probe.first:
                probe.first = now
            probe._out(now)
            return answer(method, path, url, body)

        table._answer_webhook = webhook  # type: ignore[method-assign]
        http = table.bot.http
        for name in ("send_message", "edit_message", "delete_message"):
            setattr(http, name, self._stamped(getattr(http, name)))

    def _out(self, now: float) -> None:
        self.last = now
        self.http += 1

    def _stamped(self, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def stamped(*args: Any, **kwargs: Any) -> Any:
            self._out(time.perf_counter())
            self.channel += 1
            return await call(*args, **kwargs)

        return stamped

    async def measure(self, action: Awaitable[Reply]) -> Sample:
        """Run ``action`` (one ``table.slash`` / ``table.click``) and time it."""
        before = self.db.snapshot()
        cpu = time.process_time()
        reply = await action
        settled = time.perf_counter()
        cpu = time.process_time() - cpu
        after = self.db.snapshot()
        assert self.first, f"the bot never answered the interaction: {reply.kind}"
        trips, statements, commits = (int(a - b) for a, b in zip(after[:3], before[:3],
                                                                 strict=True))
        return Sample(self.first - self.fed, self.last - self.fed, settled - self.fed,
                      trips, statements, commits, after[3] - before[3], self.http, cpu, reply,
                      self.channel)


# -- the bare baseline bot -----------------------------------------------------------------


class BareBot(commands.Bot):
    """The least a slash-command bot that keeps state can do: ``/ping`` inserts one row and
    commits (aiosqlite, WAL file database), then replies with one message."""

    def __init__(self, database: Path) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         allowed_mentions=discord.AllowedMentions.none(), help_command=None)
        self.database = database
        self.db: aiosqlite.Connection | None = None

    async def setup_hook(self) -> None:
        if self.db is None:
            db = self.db = await aiosqlite.connect(str(self.database))
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("CREATE TABLE IF NOT EXISTS pings (id INTEGER PRIMARY KEY, "
                             "channel_id INTEGER NOT NULL, user_id INTEGER NOT NULL, "
                             "note TEXT NOT NULL, created_at TEXT NOT NULL "
                             "DEFAULT (datetime('now')))")
            await db.commit()

        @app_commands.command(name="ping", description="Store one row and answer.")
        async def ping(interaction: discord.Interaction[Any], note: str = "") -> None:
            assert self.db is not None
            await self.db.execute(
                "INSERT INTO pings (channel_id, user_id, note) VALUES (?, ?, ?)",
                (interaction.channel_id, interaction.user.id, note))
            await self.db.commit()
            await interaction.response.send_message(f"pong {note}")

        if self.tree.get_command("ping") is None:
            self.tree.add_command(ping)


class BareTable(Table):
    """A :class:`Table` hosting :class:`BareBot` instead of the Unhex bot: the same guild,
    channels, members, payloads and fake HTTP (Table.start, with another bot)."""

    async def start(self, dice: Any = ()) -> BareTable:  # type: ignore[override]
        await self.host(BareBot(self.database))
        return self

    async def stop(self) -> None:
        bot: BareBot = self.bot  # type: ignore[assignment]
        if bot.db is not None:
            await bot.db.close()


def add_channels(table: Table, channel_ids: list[int]) -> None:
    """More text channels on the table's server (the harness makes two)."""
    guild = table.bot.get_guild(GUILD_ID)
    assert guild is not None
    for number, channel_id in enumerate(channel_ids):
        if guild.get_channel(channel_id) is None:
            dpytest_backend.make_text_channel(f"fight-{number}", guild, id_num=channel_id,
                                              position=number + 3)


# -- a scripted Unhex fight ----------------------------------------------------------------

Step = Callable[[], Awaitable[Reply]]


class Fight:
    """Ana (Alice's PC) and Goon (the GM's NPC), level 99, knives, on the nightclub's dance
    floor, in one channel. A round is six actions, each a slash command or a button:

    1. ``attack``: Alice ``/attack target:Goon`` — a reaction window opens for Goon;
    2. ``pass``: the GM presses Pass — Ana hits (dice 1·5) and chooses which die is damage;
    3. ``damage``: Alice presses "1 damage · location 5" — Goon takes 1 on the torso;
    4. the GM ``/attack`` as Goon — Ana has no action left to react: the dice roll at once;
    5. the GM presses the damage button — both sides are spent: round n+1's initiative;
    6. the GM presses "PCs first".

    Every ``heal_every`` rounds two more actions (``/combat set``) put both back at full
    health, so the fight can last as long as a bench needs.
    """

    STEPS = ("attack", "pass", "damage", "npc attack", "npc damage", "order")
    DAMAGE = "1 damage · location 5"

    def __init__(self, table: Table, channel: int = CHANNEL_ID, *, heal_every: int = 4,
                 pc: str = "Ana", npc: str = "Goon") -> None:
        self.table = table
        self.pc, self.npc = pc, npc  # a character fights in one fight at a time
        self.channel = channel
        self.heal_every = heal_every
        self.round = 1
        self.prompt: Any = None
        self.actions = 0  # fight actions so far (every one saved by the bot)

    @staticmethod
    async def characters(table: Table, pc: str = "Ana", npc_name: str = "Goon") -> None:
        for name, user, npc in ((pc, ALICE, False), (npc_name, GM, True)):
            options: dict[str, Any] = {"npc": True} if npc else {}
            for command, extra in (("character create", {"name": name, "level": 99, **options}),
                                   ("character item add", {"character": name, "name": "Knife",
                                                           "kind": "melee_1h"}),
                                   ("character item hold", {"character": name,
                                                            "item": "Knife"})):
                done = await table.slash(command, user=user, **extra)
                assert not done.ephemeral, done.content

    async def _slash(self, command: str, user: User, **options: Any) -> Reply:
        reply = await self.table.slash(command, user=user, channel=self.channel, **options)
        assert not reply.ephemeral, f"/{command}: {reply.content}"
        self.actions += 1
        return reply

    async def _click(self, label: str, user: User) -> Reply:
        reply = await self.table.click(self.prompt, label, user=user)
        assert not reply.ephemeral, f"{label}: {reply.content}"
        self.actions += 1
        return reply

    async def start(self) -> None:
        """Start, place both, roll initiative; round 1 with the PCs acting."""
        await self._slash("combat start", GM, map="Nightclub",
                          reaction_seconds=REACTION_SECONDS)
        await self._slash("combat add", ALICE, character=self.pc, area="Dance Floor")
        await self._slash("combat add", GM, character=self.npc, area="Dance Floor")
        self.table.dice(3, 4, 6, 2)  # the NPCs win initiative: the GM picks the order
        self.prompt = (await self._slash("combat begin", GM)).prompt
        await self._click("PCs first", GM)

    def steps(self) -> list[tuple[str, Step]]:
        """This round's actions, in order, as (name, a callable that runs it)."""
        table = self.table

        async def attack() -> Reply:
            reply = await self._slash("attack", ALICE, target=self.npc)
            self.prompt = reply.prompt
            return reply

        async def pass_() -> Reply:
            table.dice(1, 5)
            reply = await self._click("Pass", GM)
            self.prompt = reply.prompt
            return reply

        async def damage() -> Reply:
            return await self._click(self.DAMAGE, ALICE)

        async def npc_attack() -> Reply:
            table.dice(1, 5)
            reply = await self._slash("attack", GM, target=self.pc, **{"as": self.npc})
            self.prompt = reply.prompt
            return reply

        async def npc_damage() -> Reply:
            table.dice(3, 4, 6, 2)  # round n+1's initiative: the NPCs win again
            reply = await self._click(self.DAMAGE, GM)
            self.prompt = reply.prompt
            return reply

        async def order() -> Reply:
            reply = await self._click("PCs first", GM)
            self.round += 1
            return reply

        return list(zip(self.STEPS, (attack, pass_, damage, npc_attack, npc_damage, order),
                        strict=True))

    async def heal_if_due(self) -> None:
        """Both back to 99 with a clean torso, every ``heal_every`` rounds."""
        if self.round % self.heal_every == 0:
            for name in (self.pc, self.npc):
                await self._slash("combat set", GM, character=name, level=99,
                                  location="torso", marks="none")

    async def play_round(self) -> None:
        for _, step in self.steps():
            await step()
        await self.heal_if_due()


# -- copying a real fight to more channels -------------------------------------------------


def copy_fights(database: Path, count: int, first_channel: int,
                templates: list[int] | None = None) -> list[int]:
    """Insert ``count`` copies of the active fights in ``templates`` (channel ids; default:
    every active fight), round robin, into channels ``first_channel``, +1, ...; each copy is
    the fight's row with its channel changed, plus copies of the rows that belong to it in
    every table with a ``combat_id`` column (its log). Returns the new channel ids.

    The copy reads the column lists from the database itself, so it follows the schema the
    bot's own migrations made."""
    db = sqlite3.connect(database)
    try:
        columns = [r[1] for r in db.execute("PRAGMA table_info(combats)")]
        assert "channel_id" in columns, f"combats has no channel_id column: {columns}"
        children = [t for (t,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'combats'")
            if {"id", "combat_id"} <= {r[1] for r in db.execute(f"PRAGMA table_info({t})")}]
        # (`fighting` is left out: a copy is a fight of no character of the server.)
        if templates is None:
            ids = [i for (i,) in db.execute("SELECT id FROM combats WHERE active = 1 ORDER BY id")]
        else:
            ids = [db.execute("SELECT id FROM combats WHERE channel_id = ? AND active = 1",
                              (c,)).fetchone()[0] for c in templates]
        assert ids, "no active fight to copy"
        fight_cols = [c for c in columns if c != "id"]
        select = ", ".join("?" if c == "channel_id" else c for c in fight_cols)
        insert_fight = (f"INSERT INTO combats ({', '.join(fight_cols)}) "
                        f"SELECT {select} FROM combats WHERE id = ?")
        insert_children = []
        for table in children:
            cols = [r[1] for r in db.execute(f"PRAGMA table_info({table})") if r[1] != "id"]
            select = ", ".join("?" if c == "combat_id" else c for c in cols)
            insert_children.append(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {select} "
                                   f"FROM {table} WHERE combat_id = ? ORDER BY id")
        channels = [first_channel + i for i in range(count)]
        unlinked = {template: _unlinked(db.execute("SELECT state FROM combats WHERE id = ?",
                                                   (template,)).fetchone()[0])
                    for template in ids}
        with db:
            for i, channel in enumerate(channels):
                template = ids[i % len(ids)]
                new_id = db.execute(insert_fight, (channel, template)).lastrowid
                db.execute("UPDATE combats SET state = ? WHERE id = ?",
                           (unlinked[template], new_id))
                for sql in insert_children:
                    db.execute(sql, (new_id, template))
        return channels
    finally:
        db.close()


def _unlinked(text: str) -> str:
    """A fight's state whose fighters are of no character of the server (a character fights in
    one fight at a time): the copy's state forgets their character ids."""
    state = json.loads(text)
    for fighter in state["fighters"]:
        fighter["character_id"] = None
    return json.dumps(state)


async def copy_fights_postgres(url: str, count: int, first_channel: int,
                               templates: list[int] | None = None) -> list[int]:
    """:func:`copy_fights` on the PostgreSQL database ``url``: the same rows copied the same
    way (new ids from the identity columns), through asyncpg, in one transaction."""
    db = await asyncpg.connect(url)
    try:
        async def columns(table: str) -> list[str]:
            return [r[0] for r in await db.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                "current_schema() AND table_name = $1 ORDER BY ordinal_position", table)]

        fight_cols = [c for c in await columns("combats") if c != "id"]
        assert "channel_id" in fight_cols, f"combats has no channel_id column: {fight_cols}"
        children = {}
        for (table,) in await db.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'combats'"):
            cols = await columns(table)
            if {"id", "combat_id"} <= set(cols):  # (`fighting` is left out, as on SQLite)
                children[table] = [c for c in cols if c != "id"]
        if templates is None:
            ids = [r[0] for r in await db.fetch("SELECT id FROM combats WHERE active ORDER BY id")]
        else:
            ids = [await db.fetchval("SELECT id FROM combats WHERE channel_id = $1 AND active",
                                     c) for c in templates]
        assert ids, "no active fight to copy"
        given = {"channel_id": "$1::bigint", "state": "$2::text"}
        insert_fight = (f"INSERT INTO combats ({', '.join(fight_cols)}) SELECT "
                        f"{', '.join(given.get(c, c) for c in fight_cols)} FROM combats "
                        "WHERE id = $3 RETURNING id")
        insert_children = [
            f"INSERT INTO {table} ({', '.join(cols)}) SELECT "
            f"{', '.join('$1::bigint' if c == 'combat_id' else c for c in cols)} FROM {table} "
            "WHERE combat_id = $2 ORDER BY id" for table, cols in children.items()]
        unlinked = {template: _unlinked(await db.fetchval(
            "SELECT state FROM combats WHERE id = $1", template)) for template in ids}
        channels = [first_channel + i for i in range(count)]
        async with db.transaction():
            for i, channel in enumerate(channels):
                template = ids[i % len(ids)]
                new_id = await db.fetchval(insert_fight, channel, unlinked[template], template)
                for sql in insert_children:
                    await db.execute(sql, new_id, template)
        return channels
    finally:
        await db.close()


async def copied_fights(database: Path | str, count: int,
                        first_channel: int) -> tuple[Table, list[int]]:
    """A started table on ``database`` (a SQLite file or a PostgreSQL URL) holding ``count``
    copies of the same fight, the first in ``CHANNEL_ID`` and the others from ``first_channel``
    on, every channel known to it."""
    table = await Table(database).start()
    try:
        await Fight.characters(table)
        await Fight(table, CHANNEL_ID).start()
    finally:
        await table.stop()
    if isinstance(database, str) and is_postgres(database):
        copies = await copy_fights_postgres(database, count - 1, first_channel,
                                            templates=[CHANNEL_ID])
    else:
        copies = copy_fights(Path(database), count - 1, first_channel, templates=[CHANNEL_ID])
    table = await table.start()
    add_channels(table, copies)
    return table, [CHANNEL_ID, *copies]


def engine_label(database: Path | str) -> str:
    """"SQLite" or "PostgreSQL", for the database a bench runs the Unhex bot on."""
    return "PostgreSQL" if isinstance(database, str) and is_postgres(database) else "SQLite"


@contextlib.asynccontextmanager
async def postgres_database(name: str) -> AsyncIterator[str | None]:
    """A PostgreSQL server of the bench's own, with the durable settings the bot promises
    (fsync on, synchronous commit: PostgreSQL's defaults), in a temporary folder, holding one
    database ``name``: its URL, the server stopped and removed at the end. ``None``, said in
    one line, when the server programs are missing."""
    programs = server_programs()
    if programs is None:
        print(f"PostgreSQL: skipped ({MISSING})")
        yield None
        return
    server = PostgresServer(programs, durable=True)
    try:
        server.start()
        print(f"PostgreSQL: server {programs.parent.name} ({programs}), durable settings, "
              f"on 127.0.0.1:{server.port}, data in {server.folder}")
        yield await server.create_database(name)
    finally:
        gc.collect()  # the bot's closed pools and connections, before the server goes
        server.remove()


def database_bytes(database: Path) -> int:
    """The database's size on disk after a full checkpoint (main file plus WAL)."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(p.stat().st_size for p in database.parent.glob(database.name + "*"))


# -- where the time goes --------------------------------------------------------------------

_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("idle: waiting for the db (SQLite's thread, the PostgreSQL server; fsync)",
     ("'poll' of 'select.epoll'",)),
    ("db thread hand-offs (queue put, wake-up pipe, GIL)",
     ("'put_nowait' of '_queue.SimpleQueue'", "'recv' of '_socket.socket'")),
    ("asyncpg (pool, protocol, socket writes)", ("asyncpg/", "'asyncpg.", "uvloop",
                                                 "'send' of '_socket.socket'")),
    ("pydantic: validate / serialise state", ("pydantic",)),
    ("engine: map drawing (maprender)", ("engine/maprender.py",)),
    ("engine: map geometry (maps)", ("engine/maps/",)),
    ("engine: board and sheet text", ("engine/combat/board.py", "engine/sheet.py")),
    ("engine: rules (combat machine, characters)", ("engine/",)),
    ("bot/ (cogs, store, components)", ("/bot/",)),
    ("fake Discord (harness, dpytest, bench)", ("testbed/", "discord/ext/test",
                                                 "/bench/")),
    ("discord.py (dispatch, views, messages)", ("discord/",)),
    ("aiosqlite (main-thread side)", ("aiosqlite/",)),
    ("asyncio event loop", ("asyncio/", "selectors.py")),
    ("stdlib and builtins (str, re, textwrap, ...)", ("",)),
)


def profile_summary(stats: Any, steps: int) -> str:
    """Own time (tottime) of a cProfile run grouped by where the code lives, per step."""
    totals: dict[str, float] = dict.fromkeys((g for g, _ in _GROUPS), 0.0)
    for (filename, _, function), (_, _, own, _, _) in stats.stats.items():
        where = f"{filename}:{function}".replace("\\", "/")
        for group, needles in _GROUPS:
            if any(n in where for n in needles):
                totals[group] += own
                break
    whole = sum(totals.values()) or 1.0
    lines = [f"  {'where (own time, main thread, under the profiler)':52} {'ms/step':>8} "
             f"{'share':>6}"]
    for group, seconds in sorted(totals.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {group:52} {seconds * 1e3 / steps:8.3f} {100 * seconds / whole:5.1f}%")
    return "\n".join(lines)


#: The pieces of a fight step, in the order they run: (label, file, function). Before the
#: commit: dispatch, the checks, the rules and the step's serialisation; after it: the answer
#: and the presenter (board, prompt, the shown version).
HOT_PATH: tuple[tuple[str, str, str], ...] = (
    ("dispatch: payload to Interaction", "discord/state.py", "parse_interaction_create"),
    ("before: FightSession.run (until the lock)", "bot/cogs/combat/session.py", "run"),
    ("before:   is_gm", "bot/permissions.py", "is_gm"),
    ("before:   engine apply (the rules)", "engine/combat/machine.py", "apply"),
    ("before:   store save (serialise, patch, SQL)", "combats.py", "save"),
    ("before:     undo patch, from the models", "bot/store/patches.py",
     "reverse_patch_of_models"),
    ("before:     undo patch, from documents (older)", "bot/store/patches.py", "reverse_patch"),
    ("before:     JSON text (json.dumps)", "bot/store/steps.py", "dumps"),
    ("before:     next_deadline", "bot/store/values.py", "next_deadline"),
    ("before:     asyncpg execute (PostgreSQL)", "asyncpg/pool.py", "execute"),
    ("before:       pool release: its reset query", "asyncpg/connection.py", "reset"),
    ("after:  answer", "bot/cogs/combat/session.py", "answer"),
    ("after:    answered on its prompt (type 7)", "bot/cogs/combat/session.py",
     "_answer_on_prompt"),
    ("after:  the next question as the follow-up", "bot/cogs/combat/presenter.py", "ask"),
    ("after:    its id recorded (one more write)", "combats.py", "prompt_posted"),
    ("after:  Presenter.show", "bot/cogs/combat/presenter.py", "show"),
    ("after:    board text (render_board)", "engine/combat/board.py", "render_board"),
    ("after:    prompt (prompt_message)", "bot/cogs/combat/views.py", "prompt_message"),
    ("after:    shown version saved", "combats.py", "shown"),
    ("after:  compacting the state in memory", "bot/store/compact.py", "compact_state"),
)


def hot_path_summary(stats: Any, steps: int) -> str:
    """Calls and cumulative time (main thread, under the profiler) per step of each piece in
    :data:`HOT_PATH`; a coroutine's calls count each time it resumes."""
    lines = [f"  {'piece (cumulative, per step)':48} {'calls':>6} {'ms':>7}"]
    for label, where, function in HOT_PATH:
        calls = seconds = 0.0
        for (filename, _, name), (_, ncalls, _, cumulative, _) in stats.stats.items():
            if name == function and filename.replace("\\", "/").endswith(where):
                calls += ncalls
                seconds += cumulative
        lines.append(f"  {label:48} {calls / steps:6.1f} {seconds * 1e3 / steps:7.3f}")
    return "\n".join(lines)
