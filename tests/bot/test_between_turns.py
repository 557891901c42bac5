"""The questions between turns by post (who rolls initiative, which team goes first): a
deadline of their own, a turn's length after they were asked, kept across a restart; at it the
GM is pinged once (no buttons: the GM answers with the players'), or with `turn_end: auto` the
fight answers the default way and goes on (rules note 62)."""

from __future__ import annotations

import pytest

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0
HOUR = 3600
DEADLINE = NOW + 48 * HOUR


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert cog is not None
    return cog


def _asking_order(table: Table) -> Message:
    return next(m for m in reversed(table.channel_messages()) if "PCs first" in m.labels)


async def _order_asked(table: Table, **options: object) -> None:
    """A fight by post begun at NOW: Ana's PCs won initiative, and Alice is asked which team
    goes first."""
    _cog(table).clock = lambda: NOW
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub", pace="by post", **options)
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)


async def _at(table: Table, when: float) -> bool:
    cog = _cog(table)
    cog.clock = lambda: when
    acted = await cog.close_expired_window(CHANNEL_ID)
    await table.settle()
    return acted


async def test_the_order_question_shows_its_deadline_and_the_gm_is_pinged_once(
        table: Table) -> None:
    await _order_asked(table)
    asking = _asking_order(table)
    assert f"<t:{int(DEADLINE)}:R>" in asking.content, asking.content
    await table.restart()  # the deadline is kept with the fight
    _cog(table).clock = lambda: NOW
    assert not await _at(table, DEADLINE - 1)
    assert await _at(table, DEADLINE)
    ping = next(m for m in reversed(table.channel_messages()) if m.content.startswith("⏱️"))
    assert GM.mention in ping.content, ping.content
    assert "Not answered yet: Ana (choose the order)." in ping.content, ping.content
    assert ping.content.count("A GM may answer for them") == 1, ping.content  # said once
    assert ping.content.endswith("\n-# Their buttons are on the question's message.")
    assert ping.buttons == []  # the GM answers with the players' buttons
    assert ping.allowed_mentions is not None
    assert [int(u) for u in ping.allowed_mentions.get("users", [])] == [GM.id]
    assert not await _at(table, DEADLINE + 12 * HOUR)  # told once
    # The question still waits, and a GM may answer it for the players.
    answered = await table.click(_asking_order(table), "PCs first", user=GM)
    assert not answered.ephemeral, answered.content
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert state.acting_team == "PCs"


async def test_auto_answers_the_default_way_and_the_fight_goes_on(table: Table) -> None:
    await _order_asked(table, turn_end="auto")
    assert await _at(table, DEADLINE)
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert state.acting_team == "PCs"  # the team that chooses goes first
    assert state.turn_deadline == DEADLINE + 48 * HOUR
    assert "My options" in table.channel_messages()[-1].labels  # the PCs' turn is asked
    log = await table.slash("combat log", user=GM)
    assert "Time is up" in log.content, log.content
