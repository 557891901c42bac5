"""Benchmark one bot process with 8 actions in flight: 8 fights in 8 channels (copies of one
real fight), each step of the round handed to the bot in all 8 channels at once (the 8
payloads go in before the bot has handled any), then waited for until every task they started
is done; actions per second over the whole run, and each action's time from its payload going
in to its channel's last message out (p99). The bare bot (one slash command, one INSERT +
COMMIT, one reply) is driven the same way in the same run, 8 commands at a time. The Unhex
bot runs on SQLite, then on PostgreSQL (a server of the bench's own, skipped when its programs
are missing; the bot's default pool of 4 connections). The test table's own checks of what
the bots send (Discord's limits, the phone's 40 columns) are off: they are not the bots' work.
Prints numbers; asserts nothing about time.

The 8 fights play the same step at once, so the dice each step scripts are the same for all 8
(a step takes its dice without waiting for anything, so each gets its own).

Run: python bench/bench_throughput.py [--quick]
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _driver import Stats, bench_args, engine_label, machine, postgres_database, ratio_line

from testbed.bare_bot import BareTable
from testbed.copies import add_channels, copied_fights
from testbed.fight import Fight
from testbed.harness import ALICE, CHANNEL_ID, GM, Reply, Table

IN_FLIGHT = 8
ROUNDS, BARE_BATCHES = 60, 300
QUICK_ROUNDS, QUICK_BARE_BATCHES = 2, 5
FIRST_COPY_CHANNEL = 980_000_000_000_000_000
GOAL_RATE, GOAL_P99_MS = 600.0, 25.0

#: One round, as (who, a slash command or None, its options or the button's label, dice).
ROUND: tuple[tuple[Any, str | None, Any, tuple[int, ...]], ...] = (
    (ALICE, "attack", {"target": "Goon"}, ()),
    (GM, None, "Pass", (1, 5)),
    (ALICE, None, Fight.DAMAGE, ()),
    (GM, "attack", {"target": "Ana", "as": "Goon"}, (1, 5)),
    (GM, None, Fight.DAMAGE, (3, 4, 6, 2)),
    (GM, None, "PCs first", ()),
)
HEAL = tuple((GM, "combat set", {"character": name, "level": 99, "location": "torso",
                                 "marks": "none"}, ()) for name in ("Ana", "Goon"))


@dataclass
class Clock:
    """Time-stamps by interaction token and by channel: each payload fed, the last message
    out in each channel (channel posts and edits, and the interactions' own answers)."""

    table: Table
    fed: dict[str, float] = field(default_factory=dict)
    last_out: dict[int, float] = field(default_factory=dict)
    prompts: dict[int, int] = field(default_factory=dict)  # channel -> newest message with buttons

    def __post_init__(self) -> None:
        table, clock = self.table, self
        answer = table._answer_webhook

        def webhook(method: str, path: str, url: str, body: dict[str, Any]) -> Any:
            token = next((t for t in clock.fed if t in url), None)
            if token is not None:
                clock.last_out[table._token_channel[token]] = time.perf_counter()
            return answer(method, path, url, body)

        table._answer_webhook = webhook  # type: ignore[method-assign]
        record = table._record

        def recorded(raw: dict[str, Any], reply: Any = None) -> None:
            record(raw, reply)
            channel, message = int(raw["channel_id"]), int(raw["id"])
            if raw.get("components"):
                clock.prompts[channel] = message
            elif clock.prompts.get(channel) == message:
                del clock.prompts[channel]

        table._record = recorded  # type: ignore[method-assign]
        http = table.bot.http
        for name in ("send_message", "edit_message"):
            setattr(http, name, self._stamped(getattr(http, name)))

    def _stamped(self, call: Any) -> Any:
        async def stamped(channel_id: int, *args: Any, **kwargs: Any) -> Any:
            self.last_out[int(channel_id)] = time.perf_counter()
            return await call(channel_id, *args, **kwargs)

        return stamped

    def send(self, user: Any, channel: int, command: str | None,
             what: Any) -> tuple[str, Reply]:
        """Hand one action to the bot without waiting; its token and its reply, to come."""
        if command is not None:
            reply = self.table.send_slash(command, user=user, channel=channel, **what)
        else:
            prompt = self.table.message(self.prompts[channel])
            reply = self.table.send_click(prompt, what, user=user)
        token = next(reversed(self.table._replies))  # the one just sent
        assert self.table._replies[token] is reply
        self.fed[token] = time.perf_counter()
        return token, reply


async def batch(clock: Clock, sends: list[tuple[Any, int, str | None, Any]],
                dice: tuple[int, ...]) -> tuple[float, list[float]]:
    """Hand ``sends`` to the bot at once and wait for everything they started: the seconds
    it took and each action's time to its channel's last message out."""
    clock.fed.clear()
    if dice:
        clock.table.dice(*dice * len(sends))
    start = time.perf_counter()
    sent = [(*clock.send(user, channel, command, what), channel)
            for user, channel, command, what in sends]
    await clock.table.settle()
    took = time.perf_counter() - start
    refused = [reply.content for _, reply, _ in sent if reply.ephemeral]
    assert not refused, f"the bot refused: {refused[0]}"
    return took, [clock.last_out[channel] - clock.fed[token] for token, _, channel in sent]


async def measure_unhex(database: Path | str, rounds: int) -> tuple[float, Stats]:
    table, channels = await copied_fights(database, IN_FLIGHT, FIRST_COPY_CHANNEL,
                                          checks=False)
    try:
        clock = Clock(table)
        seconds, latencies = 0.0, Stats()
        for number in range(rounds + 1):  # round 0 is the warm-up
            steps = ROUND + (HEAL if number % 4 == 3 else ())
            for user, command, what, dice in steps:
                took, each = await batch(clock, [(user, c, command, what) for c in channels],
                                         dice)
                if number:
                    seconds += took
                    latencies.values.extend(each)
            gc.collect()
    finally:
        await table.stop()
    return len(latencies.values) / seconds, latencies


async def measure_bare(directory: Path, batches: int) -> tuple[float, Stats]:
    table = await BareTable(directory / "bare.sqlite3", checks=False).start()
    try:
        add_channels(table, [FIRST_COPY_CHANNEL + i for i in range(IN_FLIGHT - 1)])
        channels = [CHANNEL_ID, *(FIRST_COPY_CHANNEL + i for i in range(IN_FLIGHT - 1))]
        clock = Clock(table)
        seconds, latencies = 0.0, Stats()
        for number in range(batches + batches // 10):
            took, each = await batch(clock, [(ALICE, c, "ping", {"note": str(number)})
                                             for c in channels], ())
            if number >= batches // 10:
                seconds += took
                latencies.values.extend(each)
    finally:
        await table.stop()
    return len(latencies.values) / seconds, latencies


async def main() -> None:
    args = bench_args(__doc__)
    rounds, bare_batches = (QUICK_ROUNDS, QUICK_BARE_BATCHES) if args.quick else (
        ROUNDS, BARE_BATCHES)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        async with postgres_database("bench_throughput") as url:
            bare_rate, bare = await measure_bare(Path(tmp), bare_batches)
            databases: list[Path | str] = [Path(tmp) / "unhex.sqlite3", *([url] if url else [])]
            unhex = {engine_label(d): await measure_unhex(d, rounds) for d in databases}
    print(f"\n{IN_FLIGHT} actions in flight, one process "
          f"(median / p90 / p99 to the channel's last message out, ms)")
    print(f"  bare /ping            {bare_rate:7.0f} actions/s  {bare.ms()}")
    for engine, (rate, latencies) in unhex.items():
        print(f"  Unhex on {engine:12} {rate:7.0f} actions/s  {latencies.ms()}")
    for engine, (rate, latencies) in unhex.items():
        on = "" if engine == "SQLite" else f"{engine}: "  # SQLite's lines keep their names
        print()
        print(ratio_line(f"{on}throughput: {GOAL_RATE:g} actions/s / measured", GOAL_RATE / rate,
                         1.0, detail=f"{rate:.0f} actions/s; the bare bot {bare_rate:.0f} "
                                     f"({bare_rate / rate:.2f}× faster)"))
        print(ratio_line(f"{on}p99 with {IN_FLIGHT} in flight / {GOAL_P99_MS:g} ms",
                         latencies.p99 * 1e3 / GOAL_P99_MS, 1.0,
                         detail=f"{latencies.p99 * 1e3:.1f} ms; the bare bot's "
                                f"{bare.p99 * 1e3:.1f} ms"))


if __name__ == "__main__":
    asyncio.run(main())
