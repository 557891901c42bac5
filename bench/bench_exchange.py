"""Benchmark an attack exchange through the real dispatch path: each step (Alice's `/attack`,
the GM's Pass button, Alice's damage-die button), from the INTERACTION_CREATE payload going
in to the bot's first response, and to the last message it sends or edits, as ratios to a
bare bot (one slash command, one aiosqlite INSERT + COMMIT, one reply) driven the same way in
the same run. Also counts database round trips, statements and commits per step. Prints
numbers; asserts nothing about time.

Run: python bench/bench_exchange.py [--quick] [--profile attack|pass|damage|...]
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import io
import pstats
import tempfile
from pathlib import Path

from _driver import (
    BareTable,
    Fight,
    Probe,
    Sample,
    Stats,
    Table,
    bench_args,
    machine,
    ratio_line,
)

ROUNDS, WARMUP_ROUNDS, BARE = 200, 3, 600
QUICK_ROUNDS, QUICK_WARMUP, QUICK_BARE = 3, 1, 30
TIMED = ("attack", "pass", "damage")  # the exchange the goals are about
GOALS = {"first": 1.5, "out": 3.0}


async def measure_bare(directory: Path, count: int) -> list[Sample]:
    table = await BareTable(directory / "bare.sqlite3").start()
    try:
        probe = Probe(table)
        for i in range(count // 10):  # warm-up
            await table.slash("ping", note=f"warm {i}")
        return [await probe.measure(table.slash("ping", note=str(i))) for i in range(count)]
    finally:
        await table.stop()


async def measure_unhex(directory: Path, rounds: int, warmup: int,
                        profile: str | None) -> tuple[dict[str, list[Sample]], pstats.Stats | None]:
    table = await Table(directory / "unhex.sqlite3").start()
    profiler = cProfile.Profile() if profile else None
    samples: dict[str, list[Sample]] = {name: [] for name in Fight.STEPS}
    try:
        await Fight.characters(table)
        fight = Fight(table)
        await fight.start()
        for _ in range(warmup):
            await fight.play_round()
        probe = Probe(table)
        for _ in range(rounds):
            for name, step in fight.steps():
                if profiler is not None and name == profile:
                    profiler.enable()
                    sample = await probe.measure(step())
                    profiler.disable()
                else:
                    sample = await probe.measure(step())
                samples[name].append(sample)
            await fight.heal_if_due()
    finally:
        await table.stop()
    return samples, (pstats.Stats(profiler) if profiler is not None else None)


def stats(samples: list[Sample], what: str) -> Stats:
    return Stats([getattr(s, what) for s in samples])


def median_int(samples: list[Sample], what: str) -> str:
    values = sorted(getattr(s, what) for s in samples)
    low, high = values[0], values[-1]
    middle = values[len(values) // 2]
    return f"{middle}" if low == high else f"{middle} ({low}-{high})"


async def main() -> None:
    args = bench_args(__doc__)
    rounds, warmup, bare_count = ((QUICK_ROUNDS, QUICK_WARMUP, QUICK_BARE) if args.quick
                                  else (ROUNDS, WARMUP_ROUNDS, BARE))
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        directory = Path(tmp)
        gc.collect()
        bare = await measure_bare(directory, bare_count // 2)
        unhex, profiled = await measure_unhex(directory, rounds, warmup, args.profile)
        (directory / "bare.sqlite3").unlink()
        gc.collect()
        bare += await measure_bare(directory, bare_count - bare_count // 2)

    print(f"\nbare bot, /ping (one INSERT + COMMIT, one reply), {len(bare)} runs "
          "(half before, half after the Unhex bot)")
    print(f"  {'measure':22} {'median':>7} {'p90':>7} {'p99':>7}  ms")
    for what, label in (("first", "first response"), ("out", "every message out"),
                        ("settled", "all done"), ("db_wait", "waiting on the db")):
        print(f"  {label:22} {stats(bare, what).ms()}")
    print(f"  db round trips {median_int(bare, 'trips')}, statements "
          f"{median_int(bare, 'statements')}, commits {median_int(bare, 'commits')}, "
          f"http calls {median_int(bare, 'http')}")

    print(f"\nUnhex bot, {rounds} rounds of Ana vs Goon (6 actions a round; the exchange is "
          "attack, pass, damage)")
    print(f"  {'step':11} {'measure':18} {'median':>7} {'p90':>7} {'p99':>7}  ms")
    for name in Fight.STEPS:
        for what, label in (("first", "first response"), ("out", "every message out"),
                            ("settled", "all done"), ("db_wait", "waiting on the db")):
            print(f"  {name if what == 'first' else '':11} {label:18} "
                  f"{stats(unhex[name], what).ms()}")
        s = unhex[name]
        print(f"  {'':11} db round trips {median_int(s, 'trips')}, statements "
              f"{median_int(s, 'statements')}, commits {median_int(s, 'commits')}, "
              f"http calls {median_int(s, 'http')}")

    print()
    for what, label in (("first", "first response"), ("out", "every message out")):
        base = stats(bare, what).median
        for name in TIMED:
            step = stats(unhex[name], what)
            print(ratio_line(f"{name}: {label} / bare (median)", step.median / base,
                             GOALS[what], detail=f"p90 {step.p90 / stats(bare, what).p90:.2f}×"))

    if profiled is not None:
        out = io.StringIO()
        profiled.stream = out  # type: ignore[attr-defined]
        profiled.sort_stats("cumulative").print_stats(40)
        profiled.sort_stats("tottime").print_stats(20)
        print(f"\ncProfile of the {args.profile!r} step over {rounds} rounds "
              "(main thread only: SQLite runs in aiosqlite's thread)")
        print(out.getvalue())


if __name__ == "__main__":
    asyncio.run(main())
