"""Benchmark an attack exchange through the real dispatch path: each step (Alice's `/attack`,
the GM's Pass button, Alice's damage-die button), from the INTERACTION_CREATE payload going
in to the bot's first response, and to the last message it sends or edits, as ratios to a
bare bot (one slash command, one aiosqlite INSERT + COMMIT, one reply) driven the same way in
the same run. Also counts database round trips, statements and commits per step. The Unhex
bot runs on SQLite and, in the same blocks, on PostgreSQL (a server of the bench's own, durable
settings; skipped when its programs are missing), both against the same bare bot. Prints
numbers; asserts nothing about time.

Run: python bench/bench_exchange.py [--quick] [--rounds N] [--profile attack|pass|...]
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import io
import pstats
import sqlite3
import tempfile
import timeit
from pathlib import Path

from _driver import (
    Probe,
    Sample,
    Stats,
    bench_args,
    engine_label,
    hot_path_summary,
    machine,
    postgres_database,
    profile_summary,
    ratio_line,
)

from data import load_rules
from engine.combat import Combat, render_board
from engine.maprender import render_map
from testbed.bare_bot import BareTable
from testbed.fight import Fight
from testbed.harness import CHANNEL_ID, Table

ROUNDS, BARE, BLOCKS = 200, 600, 5
QUICK_ROUNDS, QUICK_BARE, QUICK_BLOCKS = 3, 30, 1
TIMED = ("attack", "pass", "damage")  # the exchange the goals are about
#: The issue's goals: first response ≤ 1.5×, every message out and every task done ≤ 2.5×.
GOALS = {"first": 1.5, "out": 2.5, "settled": 2.5}
MEASURES = (("first", "first response"), ("out", "every message out"), ("settled", "all done"),
            ("db_wait", "waiting on the db"), ("cpu", "CPU, all threads"))


class Exchange:
    """The bare bot and the Unhex bot on each database, measured in alternating blocks (each
    block a fresh start of the bot on its database, a warm-up, then the timed runs), so that a
    change in the machine's load during the run weighs on all alike."""

    def __init__(self, directory: Path, databases: list[Path | str],
                 profile: str | None) -> None:
        self.bare_table = BareTable(directory / "bare.sqlite3")
        self.tables = {engine_label(d): Table(d) for d in databases}
        self.fights = {engine: Fight(table) for engine, table in self.tables.items()}
        self.profile = profile
        self.profilers = {engine: cProfile.Profile() for engine in self.tables} if profile else {}
        self.bare: list[Sample] = []
        self.unhex: dict[str, dict[str, list[Sample]]] = {
            engine: {name: [] for name in Fight.STEPS} for engine in self.tables}

    async def setup(self) -> None:
        for engine, table in self.tables.items():
            await table.start()
            try:
                await Fight.characters(table)
                await self.fights[engine].start()
            finally:
                await table.stop()

    async def bare_block(self, count: int) -> None:
        table = await self.bare_table.start()
        try:
            probe = Probe(table)
            for i in range(max(count // 10, 3)):  # warm-up
                await table.slash("ping", note=f"warm {i}")
            for i in range(count):
                self.bare.append(await probe.measure(table.slash("ping", note=str(i))))
        finally:
            await table.stop()

    async def unhex_block(self, engine: str, rounds: int) -> None:
        table, fight, samples = self.tables[engine], self.fights[engine], self.unhex[engine]
        profiler = self.profilers.get(engine)
        await table.start()
        try:
            await fight.play_round()  # warm-up
            await fight.heal_if_due()
            probe = Probe(table)
            for _ in range(rounds):
                for name, step in fight.steps():
                    if profiler is not None and name == self.profile:
                        profiler.enable()
                        sample = await probe.measure(step())
                        profiler.disable()
                    else:
                        sample = await probe.measure(step())
                    samples[name].append(sample)
                await fight.heal_if_due()
        finally:
            await table.stop()


def pieces(database: Path, repeat: int) -> list[str]:
    """The engine's share of a step, timed alone on the fight's saved state: loading it from
    JSON, saving it to JSON, drawing the board (and, within it, the map)."""
    try:
        with contextlib.closing(sqlite3.connect(database)) as db:
            (text,) = db.execute("SELECT state FROM combats WHERE channel_id = ? AND active = 1",
                                 (CHANNEL_ID,)).fetchone()
        state = Combat.model_validate_json(text)
    except Exception as error:  # the store keeps the fight another way now: skip this part
        return [f"  (not measured: {type(error).__name__}: {error})"]
    rules = load_rules()
    game_map = state.game_map()
    occupants: dict[str, list[str]] = {}
    for fighter in state.fighters:
        occupants.setdefault(fighter.area, []).append(fighter.name)
    timed = {
        f"Combat.model_validate_json ({len(text):,} bytes)": lambda: Combat.model_validate_json(
            text),
        "Combat.model_dump_json": state.model_dump_json,
        "render_board (map included)": lambda: render_board(state, rules=rules),
        "render_map alone": lambda: render_map(game_map, occupants),
    }
    lines = []
    for name, call in timed.items():
        best = min(timeit.repeat(call, number=repeat, repeat=3)) / repeat
        lines.append(f"  {name:44} {best * 1e3:7.3f} ms")
    return lines


def stats(samples: list[Sample], what: str) -> Stats:
    return Stats([getattr(s, what) for s in samples])


def median_int(samples: list[Sample], what: str) -> str:
    values = sorted(getattr(s, what) for s in samples)
    low, high = values[0], values[-1]
    middle = values[len(values) // 2]
    return f"{middle}" if low == high else f"{middle} ({low}-{high})"


async def main() -> None:
    args = bench_args(__doc__, lambda parser: parser.add_argument(
        "--rounds", type=int, default=None, help=f"rounds of the fight (default {ROUNDS})"))
    rounds, bare_count, blocks = ((QUICK_ROUNDS, QUICK_BARE, QUICK_BLOCKS) if args.quick
                                  else (ROUNDS, BARE, BLOCKS))
    if args.rounds is not None:  # fewer rounds (a profile), the bare bot's runs in proportion
        rounds, bare_count = args.rounds, max(BARE * args.rounds // ROUNDS, blocks * 3)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        async with postgres_database("bench_exchange") as url:
            databases: list[Path | str] = [Path(tmp) / "unhex.sqlite3", *([url] if url else [])]
            bench = Exchange(Path(tmp), databases, args.profile)
            await bench.setup()
            for _ in range(blocks):
                gc.collect()
                await bench.bare_block(bare_count // blocks)
                for engine in bench.tables:
                    gc.collect()
                    await bench.unhex_block(engine, rounds // blocks)
        engine = pieces(Path(tmp) / "unhex.sqlite3", 20 if args.quick else 300)
    bare = bench.bare

    print(f"\nbare bot, /ping (one INSERT + COMMIT on SQLite, one reply), {len(bare)} runs in "
          f"{blocks} blocks, each before a block of the Unhex bot's on each database")
    print(f"  {'measure':22} {'median':>7} {'p90':>7} {'p99':>7}  ms")
    for what, label in MEASURES:
        print(f"  {label:22} {stats(bare, what).ms()}")
    print(f"  db round trips {median_int(bare, 'trips')}, statements "
          f"{median_int(bare, 'statements')}, commits {median_int(bare, 'commits')}, "
          f"http calls {median_int(bare, 'http')}")
    for name, samples in bench.unhex.items():
        report_steps(name, samples, rounds)
    print()
    for name, samples in bench.unhex.items():
        print("\n".join(ratios(name, samples, bare)))
    beside(bench.unhex, bare)

    print("\npieces of a step, each timed alone on the fight's state (best of 3)")
    print("\n".join(engine))
    cpu = stats(bare, "cpu").median
    for name, samples in bench.unhex.items():
        print(f"\nless noisy when the machine is busy: CPU per interaction (all threads) / bare, "
              f"on {name}: " + ", ".join(
                  f"{step} {stats(samples[step], 'cpu').median / cpu:.2f}×" for step in TIMED))
    for name, profiler in bench.profilers.items():
        assert args.profile is not None
        report_profile(name, profiler, args.profile, len(bench.unhex[name][args.profile]))


def report_steps(engine: str, samples: dict[str, list[Sample]], rounds: int) -> None:
    print(f"\nUnhex bot on {engine}, {rounds} rounds of Ana vs Goon (6 actions a round; the "
          "exchange is attack, pass, damage)")
    print(f"  {'step':11} {'measure':18} {'median':>7} {'p90':>7} {'p99':>7}  ms")
    for name in Fight.STEPS:
        for what, label in MEASURES:
            print(f"  {name if what == 'first' else '':11} {label:18} "
                  f"{stats(samples[name], what).ms()}")
        s = samples[name]
        print(f"  {'':11} db round trips {median_int(s, 'trips')}, statements "
              f"{median_int(s, 'statements')}, commits {median_int(s, 'commits')}, "
              f"http calls {median_int(s, 'http')} (on the channel's buckets "
              f"{median_int(s, 'channel')})")


def ratios(engine: str, samples: dict[str, list[Sample]], bare: list[Sample]) -> list[str]:
    """The exchange's ratio lines on ``engine``; SQLite's keep the names they always had."""
    on = "" if engine == "SQLite" else f"{engine}: "
    lines = []
    for what, label in (("first", "first response"), ("out", "every message out"),
                        ("settled", "every task done")):
        base = stats(bare, what)
        for name in TIMED:
            step = stats(samples[name], what)
            lines.append(ratio_line(f"{on}{name}: {label} / bare (median)",
                                    step.median / base.median, GOALS[what],
                                    detail=f"p90 {step.p90 / base.p90:.2f}×"))
    return lines


def beside(unhex: dict[str, dict[str, list[Sample]]], bare: list[Sample]) -> None:
    """The engines side by side: each step's medians, and their ratios to the bare bot's."""
    if len(unhex) < 2:
        return
    engines = list(unhex)
    print(f"\nbeside each other, median ms (× the bare bot's median): "
          f"{' | '.join(engines)}")
    for name in Fight.STEPS:
        for what, label in MEASURES[:4]:
            base = stats(bare, what).median
            cells = []
            for engine in engines:
                value = stats(unhex[engine][name], what).median
                cells.append(f"{value * 1e3:7.2f} ({value / base:5.2f}×)")
            print(f"  {name if what == 'first' else '':11} {label:18} {' | '.join(cells)}")


def report_profile(engine: str, profiler: cProfile.Profile, step: str, count: int) -> None:
    out = io.StringIO()
    profiled = pstats.Stats(profiler, stream=out)
    profiled.sort_stats("cumulative").print_stats(40)
    profiled.sort_stats("tottime").print_stats(20)
    print(f"\ncProfile of the {step!r} step on {engine}, {count} times (main thread only: "
          "SQLite runs in aiosqlite's thread, PostgreSQL in its server)")
    print(profile_summary(profiled, count))
    print("\nthe step's pieces, before the commit and after it")
    print(hot_path_summary(profiled, count))
    print(out.getvalue())


if __name__ == "__main__":
    asyncio.run(main())
