"""What the bot benchmarks share: timing one interaction from the payload going in to the
bot's first response and to its last message out, counting database round trips, statistics
and ratio lines, where the time goes. What drives the bots (the bare baseline bot, the
scripted Unhex fight and its copies) is in the ``testbed`` package.

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

from bot.store import is_postgres
from testbed.harness import Reply, Table
from testbed.postgres_server import MISSING, PostgresServer, server_programs

ROOT = Path(__file__).resolve().parents[1]

__all__ = [
    "ROOT", "DbCounter", "Probe", "Sample", "Stats", "bench_args", "database_bytes",
    "engine_label", "hot_path_summary", "machine", "percentile", "postgres_database",
    "profile_summary", "ratio_line",
]

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
    ("after:    the channel swept (after a 5xx)", "bot/cogs/combat/presenter.py", "_sweep"),
    ("after:  Presenter.show", "bot/cogs/combat/presenter.py", "show"),
    ("after:    board text (render_board)", "engine/combat/board.py", "render_board"),
    ("after:    prompt (prompt_message)", "bot/cogs/combat/layout.py", "prompt_message"),
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
