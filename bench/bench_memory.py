"""Benchmark the memory an active fight holds in the bot's fight cache: a fight of 6 fighters
(3 PCs, 3 NPCs, knives, on the nightclub) played to round 1 through the bot, copied into many
channels, then each copy read into the cache (`FightSession.fight`) with tracemalloc counting
what the cache keeps. The figure is the growth of the traced heap per cached fight, after a
garbage collection, so what several fights share (a parsed map, interned strings) counts once.
Also says how much of it is the state's JSON document and the state's objects. Prints numbers;
asserts nothing about time.

Run: python bench/bench_memory.py [--quick]
"""

from __future__ import annotations

import asyncio
import gc
import json
import sqlite3
import tempfile
import tracemalloc
from pathlib import Path

from _driver import bench_args, machine, ratio_line

from engine.combat import Combat
from testbed.copies import add_channels, copy_fights
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Table

FIGHTS, QUICK_FIGHTS = 200, 5
FIRST_COPY_CHANNEL = 970_000_000_000_000_000
GOAL_KB = 30.0
#: The six fighters: (name, owner, NPC).
FIGHTERS = (("Ana", ALICE, False), ("Bea", BOB, False), ("Cid", ALICE, False),
            ("Goon", GM, True), ("Thug", GM, True), ("Brute", GM, True))


async def six_fighters(table: Table) -> None:
    """Six characters, each with a knife in hand, in a fight in round 1 (the PCs acting)."""
    for name, user, npc in FIGHTERS:
        extra = {"npc": True} if npc else {}
        for command, options in (("character create", {"name": name, "level": 99, **extra}),
                                 ("character item add", {"character": name, "name": "Knife",
                                                         "kind": "melee_1h"}),
                                 ("character item hold", {"character": name, "item": "Knife"})):
            reply = await table.slash(command, user=user, **options)
            assert not reply.ephemeral, reply.content
    reply = await table.slash("combat start", user=GM, map="Nightclub")
    assert not reply.ephemeral, reply.content
    for name, user, _ in FIGHTERS:
        reply = await table.slash("combat add", user=user, character=name, area="Dance Floor")
        assert not reply.ephemeral, reply.content
    table.dice(3, 4, 6, 2)  # the NPCs win initiative: the GM picks the order
    reply = await table.slash("combat begin", user=GM)
    for label in ("Ana rolls", "Goon rolls", "PCs first"):  # whoever the prompt asks for
        if label in reply.prompt.labels:
            reply = await table.click(reply.prompt, label, user=GM)
            assert not reply.ephemeral, reply.content
    print(f"  (the fight waits on: {', '.join(reply.prompt.labels)})")


def state_text(database: Path) -> str:
    with sqlite3.connect(database) as db:
        (text,) = db.execute("SELECT state FROM combats WHERE channel_id = ? AND active = 1",
                             (CHANNEL_ID,)).fetchone()
    return str(text)


def traced_per_item(make: object, count: int) -> float:
    """Bytes the traced heap grows by per object ``make()`` returns, ``count`` of them kept."""
    assert callable(make)
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    kept = [make() for _ in range(count)]
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    del kept
    return grown / count


async def cache_growth(table: Table, channels: list[int]) -> float:
    """Bytes per fight the traced heap grows by while ``channels``' fights are read into the
    fight cache (each read once, from the database, as after a restart)."""
    session = table.bot.fights
    for channel in channels:
        session.forget(channel)
    await session.fight(channels[0])  # what every fight shares is read with the first one
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    for channel in channels[1:]:
        assert await session.fight(channel) is not None
    gc.collect()
    return (tracemalloc.get_traced_memory()[0] - before) / (len(channels) - 1)


async def main() -> None:
    args = bench_args(__doc__)
    fights = QUICK_FIGHTS if args.quick else FIGHTS
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        database = Path(tmp) / "unhex.sqlite3"
        table = await Table(database).start()
        try:
            await six_fighters(table)
        finally:
            await table.stop()
        channels = [CHANNEL_ID, *copy_fights(database, fights, FIRST_COPY_CHANNEL,
                                             templates=[CHANNEL_ID])]
        text = state_text(database)
        table = await table.start()
        try:
            add_channels(table, channels[1:])
            tracemalloc.start()
            per_fight = await cache_growth(table, channels)
            doc_bytes = traced_per_item(lambda: json.loads(text), 50)
            state_bytes = traced_per_item(lambda: Combat.model_validate_json(text), 50)
            tracemalloc.stop()
        finally:
            await table.stop()
    state = Combat.model_validate_json(text)
    print(f"\none fight of {len(state.fighters)} fighters, round {state.round}: its stored "
          f"state is {len(text):,} bytes of JSON ({len(state.map_text):,} of them the map)")
    print(f"  {fights} fights read into the fight cache: {per_fight / 1024:6.1f} KB per fight "
          "(traced heap growth)")
    print(f"  for scale, built alone: the state's JSON document (json.loads) "
          f"{doc_bytes / 1024:6.1f} KB, the state's objects (Combat) {state_bytes / 1024:6.1f} KB")
    print()
    print(ratio_line("memory per active fight (6 fighters) / 30 KB", per_fight / 1024 / GOAL_KB,
                     1.0, detail=f"{per_fight / 1024:.1f} KB"))


if __name__ == "__main__":
    asyncio.run(main())
