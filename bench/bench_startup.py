"""Benchmark start-up with 10,000 active fights against an empty database: the time to start
the bot (open the store, migrate, load every cog, re-arm the fights' reaction windows; what
``Table.start`` runs, after the imports) in a fresh process, as a ratio to the same on a
database without fights, measured in the same run; the peak RSS of each process; how much of
the start the garbage collector took. Prints numbers; asserts nothing about time.

The fights are copies of two real ones played through the bot (a round each): half wait
in an open reaction window (a timer to re-arm), half for the next action. Each copy is the
fight's row and its log rows, in its own channel.

Fights by post, the same way: 10,000 copies of two fights with `pace: by post` played now
(testbed/by_post.py: a window open for a day, a team's turn with two days to run, the NPC with
a standing order), their deadlines ahead; and the same with 1 % of them copies of two fights
played a day or two ago, whose deadlines passed while no bot ran. Each start-up on those is on
a fresh copy of the database, and is timed twice: until the bot has started, and until every
passed deadline is handled. The bench checks (and fails when not so) that each passed deadline
was handled exactly once (one message saying so per fight, the windows' standing orders
followed), nothing else, by one watcher task, and that a second start-up handles none again.

Run: python bench/bench_startup.py [--quick] [--profile startup]
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import io
import json
import os
import pstats
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _driver import ROOT, bench_args, database_bytes, machine, profile_summary, ratio_line

from testbed.by_post import by_post_fight, dice_for_closes, handled_channels
from testbed.copies import copy_fights
from testbed.fight import Fight
from testbed.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Table

FIGHTS, REPEATS = 10_000, 5
QUICK_FIGHTS, QUICK_REPEATS = 50, 1
FIRST_COPY_CHANNEL = 950_000_000_000_000_000
#: The share of the by-post fights whose deadlines passed while no bot ran (at least two).
PASSED_SHARE = 0.01
#: Where the by-post fights played a day or two ago are, and their copies.
PASSED_WINDOW, PASSED_TURN = 951_000_000_000_000_001, 951_000_000_000_000_002
FIRST_PASSED_COPY = 952_000_000_000_000_000
WATCHER = "unhex-background:deadlines"
#: The children's environment: Python keeps the modules' bytecode, as a deployed bot's does
#: (with PYTHONDONTWRITEBYTECODE every start compiled the modules the bot loads as it starts,
#: ~14 ms, a third of an empty start, counted against both starts alike).
CACHED_BYTECODE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
HOUR = 3600
CHILD_HELP = "internal: start the bot once on this database and report as one JSON line"


async def deadlines_handled(table: Table) -> None:
    """Wait until the deadlines that passed while no bot ran are handled: the watcher starts
    a task for each within a few turns of the loop; then what those tasks started."""
    quiet = 0
    while quiet < 3:
        running = [t for t in asyncio.all_tasks()
                   if t.get_name().startswith("unhex-background:window:") and not t.done()]
        quiet = 0 if running else quiet + 1
        await asyncio.gather(*running)
        await asyncio.sleep(0)
    await table.settle()


async def child(database: Path, profile: bool, closes: int) -> None:
    """In a fresh process: start the bot on ``database`` (with dice for ``closes`` windows
    closing by themselves) and report as one JSON line."""
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
    table = await Table(database).start(dice_for_closes(closes))
    if profiler is not None:
        profiler.disable()
    seconds = time.perf_counter() - start
    timers = sum(1 for t in asyncio.all_tasks() if t.get_name().startswith("unhex-background"))
    watchers = sum(1 for t in asyncio.all_tasks() if t.get_name() == WATCHER)
    await deadlines_handled(table)
    handled_seconds = time.perf_counter() - start
    gc.callbacks.remove(on_gc)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    told = handled_channels(table)
    standing = sum(1 for raw in table.messages.values()
                   if "(standing order)" in str(raw.get("content", "")))
    await table.stop()
    print(json.dumps({"seconds": seconds, "handled_seconds": handled_seconds,
                      "gc_seconds": gc_seconds, "gc_runs": gc_runs, "rss_kb": rss,
                      "rss_before_kb": rss_before, "timers": timers, "watchers": watchers,
                      "handled": len(told), "twice": sum(1 for n in told.values() if n > 1),
                      "standing": standing}))
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        print(profile_summary(stats, 1).replace("ms/step", "ms"), file=out)
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("tottime").print_stats(15)
        print(out.getvalue(), file=sys.stderr)


def start_in_child(database: Path, profile: bool = False, closes: int = 0) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(database),
         "--closes", str(closes), *(["--profile", "startup"] if profile else [])],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=600, env=CACHED_BYTECODE,
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


async def seed_by_post(directory: Path, fights: int, passed: int) -> Path:
    """A database of ``fights`` fights by post waiting, ``passed`` of them (0, or at least
    two) past their deadlines: half in a window, half in a team's turn, either way."""
    database = directory / f"by-post-{passed}.sqlite3"
    table = await Table(database).start()
    now = time.time()
    try:
        await by_post_fight(table, CHANNEL_ID, "window", at=now)
        await by_post_fight(table, OTHER_CHANNEL_ID, "turn", at=now, pc="Bea", npc="Rat")
        if passed:  # a window opened 30 hours ago (a day to answer), a turn begun 49 (two)
            await by_post_fight(table, PASSED_WINDOW, "window", at=now - 30 * HOUR,
                                pc="Cy", npc="Dog")
            await by_post_fight(table, PASSED_TURN, "turn", at=now - 49 * HOUR,
                                pc="Di", npc="Eel")
    finally:
        await table.stop()
    copy_fights(database, fights - passed - 2, FIRST_COPY_CHANNEL,
                templates=[CHANNEL_ID, OTHER_CHANNEL_ID])
    if passed:
        copy_fights(database, passed - 2, FIRST_PASSED_COPY,
                    templates=[PASSED_WINDOW, PASSED_TURN])
    with contextlib.closing(sqlite3.connect(database)) as db:
        (active,) = db.execute("SELECT count(*) FROM combats WHERE active = 1").fetchone()
    assert active == fights, f"{active} active fights seeded, not {fights}"
    return database


def fresh_copy(database: Path, directory: Path) -> Path:
    """A copy of ``database`` to start a bot on once (its passed deadlines not handled yet)."""
    copy = directory / f"run-{database.name}"
    for old in directory.glob(copy.name + "*"):
        old.unlink()
    shutil.copyfile(database, copy)  # (checkpointed: the seeding bot closed it cleanly)
    return copy


Run = dict[str, Any]


def check_by_post(runs: dict[str, list[Run]], again: Run, passed: int) -> None:
    """Each passed deadline handled once (the windows' standing orders followed), nothing
    else, by one watcher; a second start-up on a handled database handles none."""
    problems = []
    expected = {"by post": (0, 0), "passed": (passed, (passed + 1) // 2), "again": (0, 0)}
    for kind, run in [*((k, r) for k in ("by post", "passed") for r in runs[k]),
                      ("again", again)]:
        handled, standing = expected[kind]
        if (run["handled"], run["twice"], run["standing"]) != (handled, 0, standing):
            problems.append(f"{kind}: {run['handled']} fights handled ({run['twice']} more "
                            f"than once), {run['standing']} standing orders followed; "
                            f"expected {handled} once each, {standing} orders")
        if run["watchers"] != 1:
            problems.append(f"{kind}: {run['watchers']} watcher tasks, not one")
    if problems:
        raise SystemExit("passed deadlines at start-up:\n  " + "\n  ".join(problems))
    print(f"checked: each of the {passed} passed deadlines handled exactly once at start-up "
          f"({(passed + 1) // 2} standing orders followed), the others untouched, one watcher "
          "task (unhex-background:deadlines) in every start; a second start-up handled none")


def main() -> None:
    args = bench_args(__doc__, lambda p: (
        p.add_argument("--child", type=Path, default=None, help=CHILD_HELP),
        p.add_argument("--closes", type=int, default=0, help=CHILD_HELP)))
    if args.child is not None:
        asyncio.run(child(args.child, args.profile == "startup", args.closes))
        return
    fights, repeats = (QUICK_FIGHTS, QUICK_REPEATS) if args.quick else (FIGHTS, REPEATS)
    passed = max(2, round(fights * PASSED_SHARE))
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        directory = Path(tmp)
        seeding = time.perf_counter()
        empty, full = asyncio.run(seed(directory, fights))
        by_post = asyncio.run(seed_by_post(directory, fights, 0))
        with_passed = asyncio.run(seed_by_post(directory, fights, passed))
        print(f"seeded {fights:,} active fights, {fights:,} by post, {fights:,} by post with "
              f"{passed:,} past their deadlines in {time.perf_counter() - seeding:.1f} s; "
              f"databases {database_bytes(full) / 1e6:.1f}, {database_bytes(by_post) / 1e6:.1f}, "
              f"{database_bytes(with_passed) / 1e6:.1f} MB (empty: "
              f"{database_bytes(empty) / 1e6:.2f} MB)")
        kinds = {"empty": lambda: start_in_child(empty),
                 "full": lambda: start_in_child(full),
                 "by post": lambda: start_in_child(by_post),
                 "passed": lambda: start_in_child(fresh_copy(with_passed, directory),
                                                  closes=passed)}
        if not args.quick:  # warm-ups: the files in the page cache, the imports compiled
            for start in kinds.values():
                start()
        runs: dict[str, list[Run]] = {kind: [] for kind in kinds}
        for _ in range(repeats):
            for kind, start in kinds.items():
                runs[kind].append(start())
        again = start_in_child(directory / f"run-{with_passed.name}", closes=passed)
        if args.profile == "startup":
            print(f"cProfile of a start-up with {fights:,} fights (the child's stderr):")
            start_in_child(full, profile=True)
            print(f"cProfile of a start-up with {fights:,} fights by post, {passed:,} past "
                  "their deadlines (the child's stderr):")
            start_in_child(fresh_copy(with_passed, directory), profile=True, closes=passed)
    report(runs, fights, passed, repeats, quick=args.quick)
    check_by_post(runs, again, passed)


def report(runs: dict[str, list[Run]], fights: int, passed: int, repeats: int, *,
           quick: bool) -> None:
    def med(kind: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[kind])

    print(f"\nstart-up in a fresh process, median of {repeats}"
          + ("" if quick else " (after one warm-up each)"))
    print(f"  {'database':34} {'seconds':>8} {'handled':>8} {'gc %':>5} {'gc runs':>7} "
          f"{'timers':>6} {'peak RSS MB':>11} {'+ over imports':>14}")
    labels = {"empty": "empty", "full": f"{fights:,} active fights",
              "by post": f"{fights:,} by post",
              "passed": f"{fights:,} by post, {passed:,} passed"}
    for kind, label in labels.items():
        seconds, gc_s = med(kind, "seconds"), med(kind, "gc_seconds")
        rss, before = med(kind, "rss_kb"), med(kind, "rss_before_kb")
        print(f"  {label:34} {seconds:8.3f} {med(kind, 'handled_seconds'):8.3f} "
              f"{100 * gc_s / med(kind, 'handled_seconds'):5.0f} {med(kind, 'gc_runs'):7.0f} "
              f"{med(kind, 'timers'):6.0f} {rss / 1024:11.1f} {(rss - before) / 1024:14.1f}")
    print("  (seconds: until the bot has started; handled: until every deadline that passed "
          "while no bot ran is handled too)")
    empty = med("empty", "seconds")
    print()
    print(ratio_line(f"start-up, {fights:,} fights / empty database", med("full", "seconds")
                     / empty, 1.5, detail=f"peak RSS {med('full', 'rss_kb') / 1024:.0f} MB vs "
                                          f"{med('empty', 'rss_kb') / 1024:.0f} MB"))
    print(ratio_line(f"start-up, {fights:,} fights, seconds / 2 s goal",
                     med("full", "seconds") / 2.0, 1.0,
                     detail=f"{med('full', 'seconds'):.2f} s"))
    print(ratio_line(f"start-up, {fights:,} by post / empty database",
                     med("by post", "seconds") / empty, 1.5,
                     detail=f"peak RSS {med('by post', 'rss_kb') / 1024:.0f} MB"))
    print(ratio_line(f"start-up, {fights:,} by post, {passed:,} passed / empty",
                     med("passed", "seconds") / empty, 1.5,
                     detail=f"{med('passed', 'seconds'):.2f} s vs {empty:.2f} s"))
    catching_up = med("passed", "handled_seconds") - med("passed", "seconds")
    print(f"the {passed:,} deadlines that passed while no bot ran were all handled "
          f"{catching_up:.2f} s after the start ({1000 * catching_up / passed:.1f} ms each: a "
          "step of its fight, its message and board; not a start-up's work, no goal)")


if __name__ == "__main__":
    main()
