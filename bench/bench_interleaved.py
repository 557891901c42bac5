"""Benchmark 1,000 fights at once: one fight in each of 1,000 channels, their actions
interleaved (every fight's attack, then every fight's Pass, then every damage button, ... for
whole rounds), each action timed from the payload going in to the bot's first response and to
its last message out; p99 per action against the 50 ms goal, and against a bare bot (one
slash command, one INSERT + COMMIT, one reply) driven the same way in the same run. Prints
numbers; asserts nothing about time.

The fights are copies of one real fight, played through the bot to round 1 with the PCs
acting, each in its own channel (the fight's row and its log rows); the bot is then restarted
on that database, as after a deploy. The Unhex bot runs on SQLite, then on PostgreSQL (a
server of the bench's own, skipped when its programs are missing), between the two halves of
the bare bot's runs.

Run: python bench/bench_interleaved.py [--quick]
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from pathlib import Path

from _driver import (
    Probe,
    Sample,
    Stats,
    bench_args,
    engine_label,
    machine,
    postgres_database,
    ratio_line,
)

from testbed.bare_bot import BareTable
from testbed.copies import copied_fights
from testbed.fight import Fight

FIGHTS, ROUNDS, BARE = 1_000, 1, 1_000
QUICK_FIGHTS, QUICK_ROUNDS, QUICK_BARE = 10, 1, 30
FIRST_COPY_CHANNEL = 960_000_000_000_000_000
GOAL_MS = 50.0


async def measure_unhex(database: Path | str, fights: int,
                        rounds: int) -> dict[str, list[Sample]]:
    table, channels = await copied_fights(database, fights, FIRST_COPY_CHANNEL)
    samples: dict[str, list[Sample]] = {name: [] for name in Fight.STEPS}
    try:
        playing = [Fight(table, channel) for channel in channels]
        probe = Probe(table)
        for _ in range(rounds):
            plans = [fight.steps() for fight in playing]
            for index, name in enumerate(Fight.STEPS):
                for plan in plans:
                    samples[name].append(await probe.measure(plan[index][1]()))
            for fight in playing:
                await fight.heal_if_due()
    finally:
        await table.stop()
    return samples


async def measure_bare(directory: Path, count: int) -> list[Sample]:
    table = await BareTable(directory / "bare.sqlite3").start()
    try:
        probe = Probe(table)
        for i in range(count // 10):
            await table.slash("ping", note=f"warm {i}")
        return [await probe.measure(table.slash("ping", note=str(i))) for i in range(count)]
    finally:
        await table.stop()


async def main() -> None:
    args = bench_args(__doc__)
    fights, rounds, bare_count = ((QUICK_FIGHTS, QUICK_ROUNDS, QUICK_BARE) if args.quick
                                  else (FIGHTS, ROUNDS, BARE))
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        async with postgres_database("bench_interleaved") as url:
            bare = await measure_bare(Path(tmp), bare_count // 2)  # half before, half after
            databases: list[Path | str] = [Path(tmp) / "unhex.sqlite3", *([url] if url else [])]
            unhex = {engine_label(d): await measure_unhex(d, fights, rounds) for d in databases}
            (Path(tmp) / "bare.sqlite3").unlink()
            bare += await measure_bare(Path(tmp), bare_count - bare_count // 2)
    for engine, samples in unhex.items():
        report(engine, samples, bare, fights, rounds)


def stats(samples: list[Sample], what: str) -> Stats:
    return Stats([getattr(s, what) for s in samples])


def report(engine: str, unhex: dict[str, list[Sample]], bare: list[Sample], fights: int,
           rounds: int) -> None:
    every = [s for samples in unhex.values() for s in samples]
    print(f"\nUnhex bot on {engine}: {fights:,} fights in {fights:,} channels, {rounds} round(s) "
          f"each, actions interleaved: {len(every):,} actions")
    print(f"  {'actions':16} {'measure':18} {'median':>7} {'p90':>7} {'p99':>7}  ms")
    rows = [("bare /ping", bare), ("every action", every), *unhex.items()]
    for name, samples in rows:
        for what, label in (("first", "first response"), ("out", "every message out"),
                            ("settled", "all done"), ("cpu", "CPU, all threads")):
            print(f"  {name if what == 'first' else '':16} {label:18} "
                  f"{stats(samples, what).ms()}")
        if name != "bare /ping":
            print(f"  {'':16} db round trips {statistics.median(s.trips for s in samples):g}, "
                  f"commits {statistics.median(s.commits for s in samples):g} (median)")
    print()
    on = "" if engine == "SQLite" else f"{engine}: "  # SQLite's lines keep their names
    for what, label in (("out", "every message out"), ("first", "first response")):
        p99 = stats(every, what).p99
        print(ratio_line(f"{on}p99 per action, {label} / {GOAL_MS:g} ms", p99 * 1e3 / GOAL_MS,
                         1.0, detail=f"{p99 * 1e3:.1f} ms; {p99 / stats(bare, what).p99:.1f}× "
                                     "the bare bot's p99"))


if __name__ == "__main__":
    asyncio.run(main())
