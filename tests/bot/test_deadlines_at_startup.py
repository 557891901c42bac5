"""Fights by post whose deadlines passed while no bot ran: the start-up does what each
deadline asks once (a window closed with the NPC's standing order followed, the GM pinged at a
turn's deadline), the fights still waiting stay armed, one task watches every deadline, and a
second start-up does nothing again. The fights were played on the fights' injected clock, a
day or two before the real time the restarted bot reads."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.cogs.combat.session import FightSession
from testbed.by_post import DAY, by_post_fight, dice_for_closes, handled_channels
from testbed.copies import copy_fights_in
from testbed.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Table

pytestmark = pytest.mark.both_engines

HOUR = 3600
STILL_WAITING = 955_000_000_000_000_001  # a third fight's channel
FIRST_COPY = 956_000_000_000_000_000
#: The name of the one task that watches every deadline of a bot process.
WATCHER = "unhex-background:deadlines"


def _session(table: Table) -> FightSession:
    session = table.bot.fights
    assert session is not None
    return session


async def _deadlines_handled(channels: list[int]) -> None:
    """Wait for the watcher's tasks that handle ``channels``' passed deadlines (they start
    within a few turns of the loop after the bot does)."""
    names = {f"unhex-background:window:{channel}" for channel in channels}
    for _ in range(200):
        running = [t for t in asyncio.all_tasks() if t.get_name() in names]
        await asyncio.gather(*running)
        await asyncio.sleep(0)


def _watchers(earlier: set[asyncio.Task[object]]) -> int:
    """The deadline watchers running but ``earlier``'s (a stopped bot's may linger: the
    table closes a session only of the class it knows, which a test that loads the fight
    cogs again makes anew)."""
    return sum(1 for t in asyncio.all_tasks() - earlier
               if t.get_name() == WATCHER and not t.done())


async def test_deadlines_passed_while_no_bot_ran_are_handled_once_by_one_watcher(
        table: Table) -> None:
    now = time.time()
    # A window opened 30 hours ago (a day to answer: passed; the turn has 18 hours left), a
    # turn begun 49 hours ago (two days: passed), a window opened now (a day to go).
    await by_post_fight(table, CHANNEL_ID, "window", at=now - 30 * HOUR)
    await by_post_fight(table, OTHER_CHANNEL_ID, "turn", at=now - 49 * HOUR, pc="Bea", npc="Rat")
    await by_post_fight(table, STILL_WAITING, "window", at=now, pc="Cy", npc="Dog")
    await table.stop()
    copies = await copy_fights_in(table.database, 6, FIRST_COPY,
                                  templates=[CHANNEL_ID, OTHER_CHANNEL_ID, STILL_WAITING])
    windows = [CHANNEL_ID, *copies[0::3]]
    turns = [OTHER_CHANNEL_ID, *copies[1::3]]
    waiting = [STILL_WAITING, *copies[2::3]]

    earlier = asyncio.all_tasks()
    await table.start(dice_for_closes(len(windows)))
    session = _session(table)
    session.clock = lambda: now + 60  # the fights' clock, a minute after they were copied
    await _deadlines_handled(windows + turns)
    await table.settle()
    assert handled_channels(table) == dict.fromkeys(windows + turns, 1)
    assert _watchers(earlier) == 1
    for channel in windows:
        closed = next(m.content for m in table.channel_messages(channel)
                      if m.content.startswith("⏱️"))
        assert "Goon counterattacks with Knife (standing order)." in closed, closed
    for channel in turns:
        ping = next(m for m in table.channel_messages(channel) if m.content.startswith("⏱️"))
        assert "Not acted yet: Bea." in ping.content and "End the turn" in ping.labels, \
            ping.content
    # Only what still waits on the clock is watched: the windows opened now, and the closed
    # windows' attacks, whose choice of the damage die shares the turn's deadline (18 hours
    # to go); the turns whose GM was told wait for the GM.
    assert session.armed_channels == frozenset(waiting + windows)
    for channel in waiting:
        fight = await session.fight(channel)
        assert fight is not None and fight.next_deadline == pytest.approx(now + DAY)

    await table.stop()  # (a crash would leave its watcher in this test's process)
    earlier = asyncio.all_tasks()
    await table.start(dice_for_closes(len(windows)))
    session = _session(table)
    session.clock = lambda: now + 120
    await _deadlines_handled(windows + turns)
    await table.settle()
    assert handled_channels(table) == dict.fromkeys(windows + turns, 1)  # nothing again
    assert _watchers(earlier) == 1
    for channel in windows + turns:
        assert not await session.close_expired_window(channel)
