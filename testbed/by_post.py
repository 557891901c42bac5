"""Fights by post as they wait for their players, played through the bot at a time the fights'
clock is set to: a reaction window open for a day, or a team's turn with two days to run, the
NPC with a standing order either way. Copied by the thousand (testbed/copies.py), they are
what the benches and tests of a start-up among waiting fights read."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Literal, cast

from testbed.copies import add_channels
from testbed.fight import Fight
from testbed.harness import ALICE, GM, Table

if TYPE_CHECKING:
    from bot.cogs.combat.session import FightSession

__all__ = ["DAY", "NPC_ORDER", "TIME_IS_UP", "Waits", "by_post_fight", "dice_for_closes",
           "handled_channels"]

DAY = 24 * 3600
#: The NPC's standing order in every such fight, followed when its window closes unanswered.
NPC_ORDER = "When attacked: counterattack"
#: How each message a passed deadline posts begins (a window closed, or the GM pinged).
TIME_IS_UP = "⏱️"

Waits = Literal["window", "turn"]


async def by_post_fight(table: Table, channel: int, waits: Waits, *, at: float | None = None,
                        pc: str = "Ana", npc: str = "Goon") -> None:
    """``pc`` (Alice's) and ``npc`` (the GM's, with :data:`NPC_ORDER`), level 99 with knives,
    in a fight by post in ``channel`` played at ``at`` on the fights' clock (default: now):
    the PCs' turn runs (its deadline two days after ``at``); with ``waits="window"`` the PC
    has attacked and the NPC's window waits a day."""
    now = time.time() if at is None else at
    # (not isinstance: a test that loads the fight cogs again makes the class anew)
    session = cast("FightSession", table.bot.fights)
    assert session is not None
    session.clock = lambda: now
    add_channels(table, [channel])
    await Fight.characters(table, pc, npc)
    steps: list[tuple[str, Any, dict[str, Any]]] = [
        ("combat start", GM, {"map": "Nightclub", "pace": "by post"}),
        ("combat add", ALICE, {"character": pc, "area": "Dance Floor"}),
        ("combat add", GM, {"character": npc, "area": "Dance Floor"})]
    for command, user, options in steps:
        done = await table.slash(command, user=user, channel=channel, **options)
        assert not done.ephemeral, f"/{command}: {done.content}"
    table.dice(3, 4, 6, 2)  # the NPCs win initiative: the GM picks the order
    begun = await table.slash("combat begin", user=GM, channel=channel)
    first = await table.click(begun.prompt, "PCs first", user=GM)
    assert not first.ephemeral, first.content
    panel = (await table.slash("combat orders", user=GM, channel=channel,
                               character=npc)).answer
    ordered = await table.pick(panel, NPC_ORDER, user=GM)
    assert not ordered.ephemeral, ordered.content
    if waits == "window":
        attacked = await table.slash("attack", user=ALICE, channel=channel, target=npc)
        assert f"{npc} may defend or counterattack" in attacked.answer.content, \
            attacked.answer.content


def dice_for_closes(windows: int) -> list[int]:
    """Faces enough for ``windows`` windows closing by themselves, each NPC counterattacking
    (both sides roll and hit; each then waits to choose its damage die)."""
    return [0, 1] * (4 * windows + 8)


def handled_channels(table: Table) -> dict[int, int]:
    """How many messages each channel was told that a deadline passed (a window closed by
    time, or the GM pinged at a turn's deadline), among the messages this table has seen."""
    told: dict[int, int] = {}
    for raw in table.messages.values():
        if str(raw.get("content", "")).startswith(TIME_IS_UP):
            channel = int(raw["channel_id"])
            told[channel] = told.get(channel, 0) + 1
    return told
