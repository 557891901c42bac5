"""Benchmark the memory an active fight holds in the bot's fight cache: a fight of 6 fighters
(3 PCs, 3 NPCs, knives, on the nightclub) played to round 1 through the bot, copied into many
channels, then each copy read into the cache (`FightSession.fight`) with tracemalloc counting
what the cache keeps. The figure is the growth of the traced heap per cached fight, after a
garbage collection, so what several fights share (a parsed map, interned strings) counts once.
Also says how much of it is the state's JSON document and the state's objects. Prints numbers;
asserts nothing about time.

The same for a fight by post as it waits for its players (the same six, `pace: by post`, the
NPCs with standing orders, a reaction window open for a day), against the active fight's
figure measured in the same run; and what a waiting fight by post costs a bot that has just
started and not read it (its deadline watched, the fight itself left in the database): the
traced heap after a start-up among many such fights, less that after a start-up among one,
per fight.

Run: python bench/bench_memory.py [--quick]
"""

from __future__ import annotations

import asyncio
import gc
import json
import shutil
import sqlite3
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

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
#: Each NPC's standing order in the fight by post.
NPC_ORDER = "When attacked: counterattack"


async def six_fighters(table: Table, **start: str) -> None:
    """Six characters, each with a knife in hand, in a fight in round 1 (the PCs acting);
    ``start``: more options of `/combat start` (its pace)."""
    for name, user, npc in FIGHTERS:
        extra = {"npc": True} if npc else {}
        for command, options in (("character create", {"name": name, "level": 99, **extra}),
                                 ("character item add", {"character": name, "name": "Knife",
                                                         "kind": "melee_1h"}),
                                 ("character item hold", {"character": name, "item": "Knife"})):
            reply = await table.slash(command, user=user, **options)
            assert not reply.ephemeral, reply.content
    reply = await table.slash("combat start", user=GM, map="Nightclub", **start)
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


async def waiting_by_post(table: Table) -> None:
    """The six in a fight by post, each NPC with a standing order, Ana's attack on Goon
    waiting a day for Goon's answer."""
    await six_fighters(table, pace="by post")
    for name, _, npc in FIGHTERS:
        if npc:
            panel = (await table.slash("combat orders", user=GM, character=name)).answer
            ordered = await table.pick(panel, NPC_ORDER, user=GM)
            assert not ordered.ephemeral, ordered.content
    attacked = await table.slash("attack", user=ALICE, target="Goon", **{"as": "Ana"})
    assert "Goon may defend or counterattack" in attacked.answer.content, \
        attacked.answer.content
    print("  (the fight by post waits on Goon's answer, for a day)")


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


async def measured(directory: Path, fights: int, by_post: bool) -> dict[str, Any]:
    """The fight (by post, or active) played once, copied ``fights`` times: the heap per fight
    read into the cache, and (by post) per fight waiting, left unread, after a start-up."""
    database = directory / ("by-post.sqlite3" if by_post else "active.sqlite3")
    table = await Table(database).start()
    try:
        await (waiting_by_post(table) if by_post else six_fighters(table))
    finally:
        await table.stop()
    alone = directory / f"alone-{database.name}"
    shutil.copyfile(database, alone)  # (checkpointed: the bot closed it cleanly)
    channels = [CHANNEL_ID, *copy_fights(database, fights, FIRST_COPY_CHANNEL,
                                         templates=[CHANNEL_ID])]
    text = state_text(database)
    figures: dict[str, Any] = {"text": text}
    tracemalloc.start()
    try:
        if by_post:
            after_start = [await started_heap(alone), await started_heap(database),
                           await started_heap(alone)]
            figures["resident"] = (after_start[1] - (after_start[0] + after_start[2]) / 2) / (
                len(channels) - 1)
        table = await table.start()
        try:
            add_channels(table, channels[1:])
            figures["per_fight"] = await cache_growth(table, channels)
        finally:
            await table.stop()
        figures["doc"] = traced_per_item(lambda: json.loads(text), 50)
        figures["state"] = traced_per_item(lambda: Combat.model_validate_json(text), 50)
    finally:
        tracemalloc.stop()
    return figures


async def started_heap(database: Path) -> int:
    """The traced heap's growth while a bot starts on ``database`` (and is still running)."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    table = await Table(database).start()
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    await table.stop()
    return grown


async def main() -> None:
    args = bench_args(__doc__)
    fights = QUICK_FIGHTS if args.quick else FIGHTS
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        active = await measured(Path(tmp), fights, by_post=False)
        by_post = await measured(Path(tmp), fights, by_post=True)
    text = active["text"]
    state = Combat.model_validate_json(text)
    print(f"\none fight of {len(state.fighters)} fighters, round {state.round}: its stored "
          f"state is {len(text):,} bytes of JSON ({len(state.map_text):,} of them the map); "
          f"by post, waiting: {len(by_post['text']):,} bytes")
    for label, figures in (("active", active), ("by post", by_post)):
        print(f"  {fights} fights ({label}) read into the fight cache: "
              f"{figures['per_fight'] / 1024:6.1f} KB per fight (traced heap growth); built "
              f"alone: the JSON document {figures['doc'] / 1024:6.1f} KB, the state's objects "
              f"{figures['state'] / 1024:6.1f} KB")
    print(f"  {fights} fights by post waiting, unread, after a start-up: "
          f"{by_post['resident']:,.0f} bytes per fight (traced heap, less a start among one)")
    per_fight = active["per_fight"]
    print()
    print(ratio_line("memory per active fight (6 fighters) / 30 KB", per_fight / 1024 / GOAL_KB,
                     1.0, detail=f"{per_fight / 1024:.1f} KB"))
    print(ratio_line("memory per fight by post, read / per active", by_post["per_fight"]
                     / per_fight, 1.0, detail=f"{by_post['per_fight'] / 1024:.1f} KB"))
    print(ratio_line("memory per fight by post, waiting / per active", by_post["resident"]
                     / per_fight, 1.0, detail=f"{by_post['resident'] / 1024:.2f} KB"))


if __name__ == "__main__":
    asyncio.run(main())
