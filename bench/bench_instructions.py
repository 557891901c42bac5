"""Benchmark the CPU instructions one fight step costs against a bare bot's one command: each
step of an exchange (Alice's `/attack`, the GM's Pass button, the GM's Defend button, the
damage-die button) and the bare bot's `/ping` (one aiosqlite INSERT + COMMIT, one reply), both
driven through real INTERACTION_CREATE payloads in one process, counted by valgrind's callgrind
(every thread of the process: SQLite's thread too). Counts of instructions do not depend on
what else the machine runs, so the ratios are repeatable where times are not. The test
table's own checks of what the bot sends (Discord's limits, the phone's 40 columns) are off
for both bots: they are the fake Discord's work, not the bot's.

The bench runs itself under callgrind with instrumentation off (start-up, imports and the
fight's set-up run at near full speed), turns it on after the set-up, and around each measured
step zeroes the counters and dumps them under the step's name, through callgrind's client
requests (a tiny C library built with the machine's C compiler). Prints numbers; asserts
nothing about time. Skipped, said in one line, without valgrind or a C compiler.

With --cold, the texts the bot keeps said (each phrase in each language, each phrase's JSON in
the log: repeated words cost a lookup) are forgotten before every measured step, so a step
pays for every text it says as if the fight had never said it.

Run: python bench/bench_instructions.py [--quick] [--samples N] [--cold] [--annotate STEP]
(--annotate prints callgrind's own per-function costs, C functions of Python included, of
the median sample of STEP: attack, pass, defend, damage or floor)
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from _driver import ROOT, machine, ratio_line

from bot.i18n import render
from bot.store.steps import said_json
from testbed.bare_bot import BareTable
from testbed.fight import Fight
from testbed.harness import ALICE, GM, Table

SAMPLES, QUICK_SAMPLES = 5, 1
GOAL = 5.0
#: The measured steps, as the ratio lines name them.
KINDS = ("attack", "pass", "defend", "damage")
FLOOR = "floor"
CLIENT_REQUESTS = """
#include <valgrind/callgrind.h>
void unhex_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void unhex_zero(void) { CALLGRIND_ZERO_STATS; }
void unhex_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
"""


def missing() -> str | None:
    """Why the bench cannot count here, or None."""
    for program in ("valgrind", "callgrind_annotate"):
        if shutil.which(program) is None:
            return f"{program} is not installed"
    if shutil.which("cc") is None:
        return "no C compiler (cc) to build callgrind's client requests"
    if not any(Path(d, "valgrind", "callgrind.h").exists()
               for d in ("/usr/include", "/usr/local/include")):
        return "valgrind's headers (valgrind/callgrind.h) are not installed"
    return None


# -- inside callgrind -------------------------------------------------------------------------


class Callgrind:
    """Callgrind's client requests, from the C library built by the parent process."""

    def __init__(self, library: Path, *, cold: bool = False) -> None:
        self.lib = ctypes.CDLL(str(library))
        self.cold = cold

    def start(self) -> None:
        self.lib.unhex_start()

    async def count(self, name: str, step: Awaitable[object]) -> None:
        """Run one step with the counters zeroed before and dumped after."""
        if self.cold:
            render.cache_clear()
            said_json.cache_clear()
        self.lib.unhex_zero()
        await step
        self.lib.unhex_dump(name.encode())


class DefendingFight(Fight):
    """:class:`Fight`, and a round where Goon defends against Ana's attack instead of passing:
    attack, Defend (Ana 15 hits, Goon's 12 does not beat it), Ana's damage (both spent: round
    n+1's initiative), PCs first."""

    def defend_round(self) -> list[tuple[str, Callable[[], Awaitable[None]]]]:
        table = self.table

        async def attack() -> None:
            self.prompt = (await self._slash("attack", ALICE, target=self.npc)).prompt

        async def defend() -> None:
            table.dice(1, 5, 1, 2)
            self.prompt = (await self._click("Defend", GM)).prompt

        async def damage() -> None:
            table.dice(3, 4, 6, 2)
            self.prompt = (await self._click(self.DAMAGE, ALICE)).prompt

        async def order() -> None:
            await self._click("PCs first", GM)
            self.round += 1

        return [("attack", attack), ("defend", defend), ("damage after defend", damage),
                ("order", order)]


async def counted(callgrind: Callgrind, folder: Path, samples: int) -> None:
    """The bare bot's pings, then the Unhex bot's fight, each measured step dumped by name."""
    bare = await BareTable(folder / "bare.sqlite3", checks=False).start()
    try:
        callgrind.start()
        for i in range(20):  # warm-up
            await bare.slash("ping", note=f"warm {i}")
        for i in range(samples):
            await callgrind.count(FLOOR, bare.slash("ping", note=str(i)))
    finally:
        await bare.stop()
    table = await Table(folder / "unhex.sqlite3", checks=False).start()
    try:
        await Fight.characters(table)
        fight = DefendingFight(table)
        await fight.start()
        for measured in (False, *([True] * samples)):  # a warm-up round of each kind first
            for name, step in fight.steps():
                if measured and name in KINDS:
                    await callgrind.count(name, step())
                else:
                    await step()
            await fight.heal_if_due()
            for name, play in fight.defend_round():
                if measured and name == "defend":
                    await callgrind.count(name, play())
                else:
                    await play()
            await fight.heal_if_due()
    finally:
        await table.stop()


def child(library: Path, samples: int, *, cold: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        asyncio.run(counted(Callgrind(library, cold=cold), Path(tmp), samples))


# -- the parent ---------------------------------------------------------------------------------


def build(folder: Path) -> Path:
    source, library = folder / "requests.c", folder / "requests.so"
    source.write_text(CLIENT_REQUESTS)
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(library), str(source)],
                   check=True)
    return library


def run_under_callgrind(folder: Path, samples: int, *, cold: bool) -> dict[str, list[Path]]:
    """Run :func:`child` under callgrind; its dumps, by step name."""
    library = build(folder)
    out = folder / "callgrind.out"
    environment = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict orders every run
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={out}", "--dump-instr=no", "--quiet",
                    sys.executable, __file__, "--child", str(library), "--samples", str(samples),
                    *(["--cold"] if cold else [])],
                   check=True, env=environment, cwd=ROOT)
    dumps: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:])):
        header = path.read_text(errors="replace")[:4000]
        name = re.search(r"^desc: Trigger: Client Request: (.*)$", header, re.M)
        if name is not None:
            dumps.setdefault(name.group(1).strip(), []).append(path)
    return dumps


def instructions(path: Path) -> int:
    """The dump's total instructions (its ``summary:`` or ``totals:`` line)."""
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise ValueError(f"no total in {path}")


def annotate(path: Path, top: int = 30) -> str:
    """callgrind_annotate's functions by their own instructions, the ``top`` first."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100",
                           str(path)], check=True, capture_output=True, text=True).stdout
    # (the paths of the Python build's and the C library's sources say nothing here)
    lines = [re.sub(r"/tmp/python-build[^ ]*?/Python-[\d.]+/|\./[a-z]+/\.\./|"
                    r" \[[^]]*\]$", "", line) for line in text.splitlines()]
    first = next((i for i, line in enumerate(lines) if "file:function" in line), 0)
    return "\n".join(lines[first:first + top + 2])


def report(dumps: dict[str, list[Path]], annotated: str | None) -> None:
    counts = {name: [instructions(p) for p in paths] for name, paths in dumps.items()}
    floor = statistics.median(counts[FLOOR])
    print(f"\ninstructions per interaction (callgrind, every thread; median of "
          f"{len(counts[FLOOR])}, with the lowest and highest)")
    for name in (FLOOR, *KINDS):
        values = counts[name]
        print(f"  {name:8} {statistics.median(values):14,.0f}  ({min(values):,}–{max(values):,})"
              f"  {statistics.median(values) / floor:6.2f}× the floor")
    print()
    for name in KINDS:
        values = counts[name]
        print(ratio_line(f"instructions: {name} / bare (median)",
                         statistics.median(values) / floor, GOAL,
                         detail=f"highest {max(values) / floor:.2f}×"))
    if annotated is not None:
        paths = sorted(dumps[annotated], key=instructions)
        median = paths[len(paths) // 2]
        print(f"\ncallgrind's functions by own instructions, {annotated!r} "
              f"(its median sample, {instructions(median):,} instructions)")
        print(annotate(median))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="one sample of each: checks the bench runs")
    parser.add_argument("--samples", type=int, default=None,
                        help=f"samples of each step (default {SAMPLES})")
    parser.add_argument("--annotate", choices=(*KINDS, FLOOR), default=None,
                        help="print callgrind's per-function costs of this step")
    parser.add_argument("--cold", action="store_true",
                        help="forget the texts kept said before every measured step")
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    samples = args.samples or (QUICK_SAMPLES if args.quick else SAMPLES)
    if args.child is not None:
        child(args.child, samples, cold=args.cold)
        return
    print(f"machine: {machine()}")
    why = missing()
    if why is not None:
        print(f"instructions: skipped ({why})")
        return
    with tempfile.TemporaryDirectory(prefix="unhex-callgrind-") as tmp:
        report(run_under_callgrind(Path(tmp), samples, cold=args.cold), args.annotate)


if __name__ == "__main__":
    main()
