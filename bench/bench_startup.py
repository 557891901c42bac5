"""Benchmark start-up with 10,000 active fights against an empty database: the time to start
the bot (open the store, migrate, load every cog, re-arm the fights' reaction windows; what
``Table.start`` runs, after the imports) in a fresh process, as a ratio to the same on a
database without fights, measured in the same run; the peak RSS of each process; how much of
the start the garbage collector took. Prints numbers; asserts nothing about time.

The fights are copies of two real ones played through the bot (a round each): half wait
in an open reaction window (a timer to re-arm), half for the next action. Each copy is the
fight's row and its log rows, in its own channel.

Run: python bench/bench_startup.py [--quick] [--profile startup]
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import io
import json
import pstats
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _driver import ROOT, bench_args, database_bytes, machine, profile_summary, ratio_line

from testbed.copies import copy_fights
from testbed.fight import Fight
from testbed.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Table

FIGHTS, REPEATS = 10_000, 5
QUICK_FIGHTS, QUICK_REPEATS = 50, 1
FIRST_COPY_CHANNEL = 950_000_000_000_000_000
CHILD_HELP = "internal: start the bot once on this database and report as one JSON line"


async def child(database: Path, profile: bool) -> None:
    """In a fresh process: start the bot on ``database`` and report as one JSON line."""
    gc_seconds = 0.0
    gc_runs = 0
    gc_started = 0.0

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        nonlocal gc_seconds, gc_runs, gc_started
        if phase == "start":
            gc_started = time.perf_counter()
        else:
            gc_seconds += time.perf_counter() - gc_started
            gc_runs += 1

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    profiler = cProfile.Profile() if profile else None
    gc.callbacks.append(on_gc)
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    table = await Table(database).start()
    if profiler is not None:
        profiler.disable()
    seconds = time.perf_counter() - start
    gc.callbacks.remove(on_gc)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    timers = sum(1 for t in asyncio.all_tasks() if t.get_name().startswith("unhex-background"))
    await table.stop()
    print(json.dumps({"seconds": seconds, "gc_seconds": gc_seconds, "gc_runs": gc_runs,
                      "rss_kb": rss, "rss_before_kb": rss_before, "timers": timers}))
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        print(profile_summary(stats, 1).replace("ms/step", "ms"), file=out)
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("tottime").print_stats(15)
        print(out.getvalue(), file=sys.stderr)


def start_in_child(database: Path, profile: bool = False) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(database),
         *(["--profile", "startup"] if profile else [])],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=600,
    )
    if result.returncode != 0:
        raise SystemExit(f"the bot did not start on {database}:\n{result.stderr}")
    if profile:
        print(result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


async def seed(directory: Path, fights: int) -> tuple[Path, Path]:
    """An empty (migrated) database, and one with ``fights`` active fights."""
    empty = directory / "empty.sqlite3"
    await (await Table(empty).start()).stop()
    full = directory / "fights.sqlite3"
    table = await Table(full).start()
    try:
        await Fight.characters(table)
        waiting = Fight(table, CHANNEL_ID)  # a round, then an attack: a window is open
        await waiting.start()
        await waiting.play_round()
        await waiting.steps()[0][1]()
        await Fight.characters(table, "Bea", "Rat")
        acting = Fight(table, OTHER_CHANNEL_ID, pc="Bea", npc="Rat")  # a round; the PCs' turn
        await acting.start()
        await acting.play_round()
    finally:
        await table.stop()
    copy_fights(full, fights - 2, FIRST_COPY_CHANNEL)
    with contextlib.closing(sqlite3.connect(full)) as db:
        (active,) = db.execute("SELECT count(*) FROM combats WHERE active = 1").fetchone()
    assert active == fights, f"{active} active fights seeded, not {fights}"
    return empty, full


def main() -> None:
    args = bench_args(__doc__, lambda p: p.add_argument("--child", type=Path, default=None,
                                                        help=CHILD_HELP))
    if args.child is not None:
        asyncio.run(child(args.child, args.profile == "startup"))
        return
    fights, repeats = (QUICK_FIGHTS, QUICK_REPEATS) if args.quick else (FIGHTS, REPEATS)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        seeding = time.perf_counter()
        empty, full = asyncio.run(seed(Path(tmp), fights))
        print(f"seeded {fights:,} active fights in {time.perf_counter() - seeding:.1f} s; "
              f"database {database_bytes(full) / 1e6:.1f} MB (empty: "
              f"{database_bytes(empty) / 1e6:.2f} MB)")
        if not args.quick:  # warm-ups: the files in the page cache, the imports compiled
            start_in_child(empty)
            start_in_child(full)
        runs: dict[str, list[dict[str, Any]]] = {"empty": [], "full": []}
        for _ in range(repeats):
            runs["empty"].append(start_in_child(empty))
            runs["full"].append(start_in_child(full))
        if args.profile == "startup":
            print(f"cProfile of a start-up with {fights:,} fights (the child's stderr):")
            start_in_child(full, profile=True)

    def med(kind: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[kind])

    print(f"\nstart-up in a fresh process, median of {repeats}"
          + ("" if args.quick else " (after one warm-up each)"))
    print(f"  {'database':22} {'seconds':>8} {'gc s':>6} {'gc %':>5} {'gc runs':>7} "
          f"{'timers':>6} {'peak RSS MB':>11} {'+ over imports':>14}")
    for kind, label in (("empty", "empty"), ("full", f"{fights:,} active fights")):
        seconds, gc_s = med(kind, "seconds"), med(kind, "gc_seconds")
        rss, before = med(kind, "rss_kb"), med(kind, "rss_before_kb")
        print(f"  {label:22} {seconds:8.3f} {gc_s:6.3f} {100 * gc_s / seconds:5.0f} "
              f"{med(kind, 'gc_runs'):7.0f} {med(kind, 'timers'):6.0f} {rss / 1024:11.1f} "
              f"{(rss - before) / 1024:14.1f}")
    ratio = med("full", "seconds") / med("empty", "seconds")
    print()
    print(ratio_line(f"start-up, {fights:,} fights / empty database", ratio, 1.5,
                     detail=f"peak RSS {med('full', 'rss_kb') / 1024:.0f} MB vs "
                            f"{med('empty', 'rss_kb') / 1024:.0f} MB"))
    print(ratio_line(f"start-up, {fights:,} fights, seconds / 2 s goal",
                     med("full", "seconds") / 2.0, 1.0,
                     detail=f"{med('full', 'seconds'):.2f} s"))


if __name__ == "__main__":
    main()
