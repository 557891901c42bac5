"""Benchmark one bot process and then two bot processes on one PostgreSQL: each process is a
separate OS process with its own pool (the bot's default of 4 connections) and memory,
playing 8 fights of its own in 8 channels of its own with 8 actions in flight, exactly as
``bench_throughput.py`` drives one process (its :class:`Clock` and :func:`batch`: each step
of the round handed to the bot in all 8 channels at once, then waited for until every task
it started is done). The two processes are released together once both have started, then
again once both have played a warm-up round, so they measure the same stretch of time.

Printed: actions per second, per process and in total, over the whole measured stretch
(the garbage collector runs by itself, as in the bot: bench_throughput collects between
rounds and leaves that out, which a process cannot do while another one is measured), and
each action's time from its payload going in to its channel's last message out (median /
p90 / p99); the bot process's CPU per action (every thread) and the server's; the database
connections the processes held (the most ``pg_stat_activity`` showed at once during the
run); the round trips, statements and commits each action sent (counted in the processes,
as the other benches count them), the transactions the server counted per action
(``pg_stat_database.xact_commit``, reads included) and the WAL bytes it wrote per action;
and what this PostgreSQL carries alone: one-row commits per second from 8 connections, the
ceiling of its flushes on this disk. The server is the bench's own with PostgreSQL's durable
settings; without its programs the bench says so and measures nothing. Asserts nothing
about time.

Both processes' fights are copies of one real fight (``copy_fights_postgres``), made by
this process before the bot processes start: 8 per process in a range of channels of its
own, each copy a fight of no character, so two processes never touch one fight, one channel
or one character. They are in the harness's one server (guild): the processes set no shards,
which changes nothing in a step's work (shards decide only which process restores which
fights at start-up); both start-ups are done before either process plays, so neither finds
the other's fights mid-step.

Run: python bench/bench_processes.py [--quick]
(a bot process alone: python bench/bench_processes.py --worker URL --index N --rounds R)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
from _driver import DbCounter, Stats, bench_args, machine, postgres_database, ratio_line
from bench_throughput import GOAL_P99_MS, HEAL, IN_FLIGHT, ROUND, Clock, batch

import testbed.harness as harness
from testbed.copies import add_channels, copy_fights_postgres
from testbed.fight import Fight
from testbed.harness import CHANNEL_ID, Table

ROUNDS, QUICK_ROUNDS = 60, 2
#: Process ``n``'s 8 fights are in channels ``FIRST_CHANNEL + n * CHANNEL_SPACE`` on.
FIRST_CHANNEL, CHANNEL_SPACE = 981_000_000_000_000_000, 1_000
#: Message ids of process ``n`` start ``n + 1`` times this past the harness's own.
ID_SPACE = 10**13
#: One-row commits from this many connections: what the server carries alone.
PROBE_CONNECTIONS, PROBE_SECONDS, QUICK_PROBE_SECONDS = 8, 3.0, 0.3
#: Two processes carry at least 1.5× one (one / their total ≤ 0.67), with a p99 at most 1.5×.
GOAL_SCALING, GOAL_P99_GROWTH = 0.67, 1.5


def channels_of(index: int) -> list[int]:
    first = FIRST_CHANNEL + index * CHANNEL_SPACE
    return [first + i for i in range(IN_FLIGHT)]


# -- one bot process ------------------------------------------------------------------------


def say(message: dict[str, Any]) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


async def play(clock: Clock, channels: list[int], numbers: range,
               latencies: Stats) -> None:
    """Rounds ``numbers`` of the 8 fights (a heal every 4th, as bench_throughput plays
    them); each action's latency added to ``latencies``.

    No ``gc.collect()`` between rounds, unlike bench_throughput: in a process of its own
    it would run while the other process is measured, so the garbage collector runs as it
    does in the bot, by itself, and the time counted is the whole stretch's."""
    for number in numbers:
        steps = ROUND + (HEAL if number % 4 == 3 else ())
        for user, command, what, dice in steps:
            _, each = await batch(clock, [(user, c, command, what) for c in channels], dice)
            latencies.values.extend(each)


async def told_to_go_on() -> None:
    """Wait for a line on stdin (the bench releasing this process)."""
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


async def work(url: str, index: int, rounds: int) -> None:
    """One bot process: started (its start-up done), then once released a warm-up round,
    ready, then once released again ``rounds`` measured rounds; one JSON line of results,
    and once released a third time, the end."""
    harness.number_ids_from(harness.FIRST_ID + (index + 1) * ID_SPACE)
    counter = DbCounter.install()
    table = await Table(url).start()
    try:
        say({"started": True, "pid": os.getpid()})
        await told_to_go_on()
        channels = channels_of(index)
        add_channels(table, channels)
        clock = Clock(table)
        warm = Stats()
        await play(clock, channels, range(1), warm)
        gc.collect()  # the warm-up's garbage, before the measured stretch
        say({"ready": True})
        await told_to_go_on()
        before, started, cpu = counter.snapshot(), time.time(), time.process_time()
        latencies = Stats()
        await play(clock, channels, range(1, rounds + 1), latencies)
        after, ended, cpu = counter.snapshot(), time.time(), time.process_time() - cpu
        trips, statements, commits = (a - b for a, b in zip(after[:3], before[:3],
                                                            strict=True))
        say({"actions": len(latencies.values), "warm_up_actions": len(warm.values),
             "started": started, "ended": ended, "latencies": latencies.values,
             "trips": trips, "statements": statements, "commits": commits,
             "cpu": cpu, "pool": table.bot.settings.database_pool})
        await told_to_go_on()  # (the pool's connections stay while the server is looked at)
    finally:
        await table.stop()


# -- the bench: the processes, and what PostgreSQL saw -------------------------------------


@dataclass
class Run:
    """What one run of ``n`` processes measured."""

    results: list[dict[str, Any]]
    connections: int  # the most the processes held at once
    transactions: int  # pg_stat_database.xact_commit over the processes' lives
    wal_bytes: int  # written during the measured rounds
    server_cpu: float  # the server's CPU seconds during the measured rounds

    @property
    def actions(self) -> int:
        return sum(r["actions"] for r in self.results)

    @property
    def seconds(self) -> float:
        """From the first process's measured stretch starting to the last one's ending."""
        return max(float(r["ended"]) for r in self.results) - min(
            float(r["started"]) for r in self.results)

    @property
    def rate(self) -> float:
        """Actions per second, all processes together."""
        return self.actions / self.seconds

    @property
    def latencies(self) -> Stats:
        return Stats([v for r in self.results for v in r["latencies"]])

    def per_action(self, key: str) -> float:
        return sum(float(r[key]) for r in self.results) / self.actions

    @property
    def transactions_per_action(self) -> float:
        every = sum(r["actions"] + r["warm_up_actions"] for r in self.results)
        return self.transactions / float(every)

    @property
    def stagger(self) -> float:
        """How far apart the processes' measured stretches started, plus how far apart they
        ended, in seconds (0 when alone): the time one ran while the other did not."""
        starts = [float(r["started"]) for r in self.results]
        ends = [float(r["ended"]) for r in self.results]
        return (max(ends) - min(ends)) + (max(starts) - min(starts))


async def server_figures(db: asyncpg.Connection) -> tuple[int, int]:
    """The database's committed transactions so far and the server's WAL position."""
    await db.execute("SELECT pg_stat_clear_snapshot()")
    xact = await db.fetchval("SELECT xact_commit FROM pg_stat_database "
                             "WHERE datname = current_database()")
    lsn = await db.fetchval("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")
    return int(xact), int(lsn)


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU seconds each of these processes has used so far, from /proc."""
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # (gone meanwhile, or not readable)
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return used


async def server_cpu(db: asyncpg.Connection) -> dict[int, float]:
    """CPU seconds used so far by each of the server's processes alive now (its
    connections' and its background writers'): the server runs on this machine."""
    return cpu_seconds([r["pid"] for r in await db.fetch("SELECT pid FROM pg_stat_activity")])


async def others(db: asyncpg.Connection) -> int:
    """Connections to this database other than this one."""
    return int(await db.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid()"))


def said(log: Path) -> str:
    """What a bot process wrote to its log (its stderr)."""
    return log.read_text()


async def read_line(process: asyncio.subprocess.Process, log: Path) -> dict[str, Any]:
    assert process.stdout is not None
    line = await process.stdout.readline()
    if not line:
        await process.wait()
        raise RuntimeError(f"a bot process ended ({process.returncode}): "
                           f"{said(log)[-3000:]}")
    return dict(json.loads(line))


async def release(processes: list[asyncio.subprocess.Process], logs: list[Path],
                  said: str) -> None:
    """Wait until every process has ``said`` so, then let them all go on at once."""
    for process, log in zip(processes, logs, strict=True):
        assert (await read_line(process, log))[said]
    await go_on(processes)


async def go_on(processes: list[asyncio.subprocess.Process]) -> None:
    """Let every process go on past the point it waits at."""
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"go on\n")
        await process.stdin.drain()


async def run_processes(url: str, indexes: list[int], rounds: int, folder: Path) -> Run:
    """Start one bot process per index, release them together, wait for their results."""
    db = await asyncpg.connect(url)
    try:
        transactions_before, _ = await server_figures(db)
        logs = [folder / f"process-{i}.log" for i in indexes]
        processes = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--worker", url, "--index", str(i), "--rounds",
            str(rounds), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=log.open("w"), limit=2**24) for i, log in zip(indexes, logs, strict=True)]
        # Every process's start-up is done before any plays: on one guild, a start-up would
        # otherwise find the other's fights mid-step and show them again (on a sharded bot
        # they would be another shard's guilds).
        await release(processes, logs, "started")
        await release(processes, logs, "ready")
        _, wal_before = await server_figures(db)
        cpu_before = await server_cpu(db)
        waiting = [asyncio.ensure_future(read_line(p, log))
                   for p, log in zip(processes, logs, strict=True)]
        connections = 0
        while not all(w.done() for w in waiting):
            connections = max(connections, await others(db))
            await asyncio.wait(waiting, timeout=0.25)
        results = [w.result() for w in waiting]
        _, wal_after = await server_figures(db)
        # (a server process that ended meanwhile is left out; the pools keep theirs open)
        server_seconds = sum(used - cpu_before.get(pid, 0.0)
                             for pid, used in (await server_cpu(db)).items())
        await go_on(processes)
        for process, log in zip(processes, logs, strict=True):
            code, text = await process.wait(), said(log)
            # (a step the bot could not show would be work left out of the figures)
            assert code == 0 and "Traceback" not in text, f"a bot process failed: {text}"
        for _ in range(100):  # their connections' counts reach the server as they close
            if not await others(db):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        transactions_after, _ = await server_figures(db)
    finally:
        await db.close()
    return Run(results, connections, transactions_after - transactions_before,
               wal_after - wal_before, server_seconds)


async def prepare(url: str, indexes: list[int]) -> None:
    """One fight played to its first round in the harness's channel, then 8 copies of it
    for each process, in its own channels. A copy's board and prompt are messages of this
    process's fake Discord, unknown to the bot processes' own: the copies forget them, so
    each bot process posts its boards anew (in the warm-up round)."""
    table = await Table(url).start()
    try:
        await Fight.characters(table)
        await Fight(table, CHANNEL_ID).start()
    finally:
        await table.stop()
    for index in indexes:
        copies = await copy_fights_postgres(url, IN_FLIGHT, channels_of(index)[0],
                                            templates=[CHANNEL_ID])
        assert copies == channels_of(index)
    db = await asyncpg.connect(url)
    try:
        await db.execute("UPDATE combats SET board_message_id = NULL, prompt_message_id = NULL "
                         "WHERE channel_id = ANY($1::bigint[])",
                         [c for i in indexes for c in channels_of(i)])
    finally:
        await db.close()


async def commit_ceiling(url: str, seconds: float) -> float:
    """One-row INSERTs, each its own commit, from 8 connections at once for ``seconds``:
    commits per second (the server's group commit shares a flush among those waiting)."""
    setup = await asyncpg.connect(url)
    await setup.execute("CREATE TABLE commit_probe (id bigint GENERATED ALWAYS AS IDENTITY, "
                        "note text NOT NULL)")
    await setup.close()
    connections = [await asyncpg.connect(url) for _ in range(PROBE_CONNECTIONS)]
    done = 0
    until = time.perf_counter() + seconds

    async def insert(db: asyncpg.Connection) -> None:
        nonlocal done
        while time.perf_counter() < until:
            await db.execute("INSERT INTO commit_probe (note) VALUES ($1)", "x")
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(insert(db) for db in connections))
    took = time.perf_counter() - start
    for db in connections:
        await db.close()
    return done / took


def report(one: Run, two: Run, ceiling: float) -> None:
    print(f"\n{IN_FLIGHT} actions in flight per process, PostgreSQL "
          f"(median / p90 / p99 to the channel's last message out, ms)")
    print(f"  one process        {one.rate:7.0f} actions/s  {one.latencies.ms()}")
    for number, result in enumerate(two.results, 1):
        alone = Run([result], 0, 0, 0, 0.0)
        print(f"  two: process {number}     {alone.rate:7.0f} actions/s  {alone.latencies.ms()}")
    print(f"  two: together      {two.rate:7.0f} actions/s  {two.latencies.ms()}"
          f"  (their measured stretches differ by {two.stagger:.2f} s)")
    print("\nwhat PostgreSQL saw")
    for name, run in (("one process", one), ("two processes", two)):
        print(f"  {name:14} connections held at most {run.connections} (pool "
              f"{run.results[0]['pool']} per process); per action: "
              f"{run.per_action('trips'):.2f} round trips, "
              f"{run.per_action('statements'):.2f} statements, "
              f"{run.per_action('commits'):.2f} commits (counted in the processes), "
              f"{run.per_action('cpu') * 1e3:.2f} ms of the bot process's CPU, "
              f"{run.transactions_per_action:.2f} transactions (the server's xact_commit, "
              f"reads included), {run.wal_bytes / run.actions:,.0f} WAL bytes, "
              f"{run.server_cpu * 1e3 / run.actions:.2f} ms of the server's CPU; "
              f"{run.rate * run.per_action('commits'):,.0f} commits/s")
    print(f"  PostgreSQL alone: {ceiling:,.0f} one-row commits/s from {PROBE_CONNECTIONS} "
          f"connections (durable settings, this disk)")
    print()
    print(ratio_line("processes: one / two processes' total actions/s", one.rate / two.rate,
                     GOAL_SCALING, detail=f"{one.rate:.0f} → {two.rate:.0f} actions/s "
                                          f"(×{two.rate / one.rate:.2f})"))
    print(ratio_line("processes: p99 two processes / one process",
                     two.latencies.p99 / one.latencies.p99, GOAL_P99_GROWTH,
                     detail=f"{one.latencies.p99 * 1e3:.1f} → "
                            f"{two.latencies.p99 * 1e3:.1f} ms"))
    print(ratio_line(f"processes: p99 two processes / {GOAL_P99_MS:g} ms",
                     two.latencies.p99 * 1e3 / GOAL_P99_MS, 1.0,
                     detail=f"{two.latencies.p99 * 1e3:.1f} ms"))


async def main(args: argparse.Namespace) -> None:
    if args.worker is not None:
        await work(args.worker, args.index, args.rounds)
        return
    rounds = QUICK_ROUNDS if args.quick else ROUNDS
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        async with postgres_database("bench_processes") as url:
            if url is None:
                return
            await prepare(url, [0, 1, 2])
            one = await run_processes(url, [0], rounds, Path(tmp))
            two = await run_processes(url, [1, 2], rounds, Path(tmp))
            ceiling = await commit_ceiling(
                url, QUICK_PROBE_SECONDS if args.quick else PROBE_SECONDS)
    print(f"load average after the run: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    report(one, two, ceiling)


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--worker", metavar="URL", default=None,
                        help="be one bot process on the PostgreSQL database URL")
    parser.add_argument("--index", type=int, default=0,
                        help="the bot process's number: which channels its fights are in")
    parser.add_argument("--rounds", type=int, default=QUICK_ROUNDS,
                        help="the bot process's measured rounds")


if __name__ == "__main__":
    asyncio.run(main(bench_args(__doc__, options)))
