"""`/combat extend by:`: a GM gives the team whose turn it is more time, by a typed duration;
the table reads the new deadline as Discord timestamps. Anyone else, a fight without a turn
deadline, or a duration that is not one, is refused to the user alone and nothing changes."""

from __future__ import annotations

import pytest

from bot.cogs.combat.session import FightSession
from engine.combat import Combat
from testbed.harness import ALICE, CHANNEL_ID, GM, Table
from tests.bot.fights import add_character, begin_pcs_first

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0  # the bot's clock, held still so the deadlines said are known
HOUR = 3600


def session_of(table: Table) -> FightSession:
    session = table.bot.fights
    assert isinstance(session, FightSession)
    return session


async def fight_state(table: Table) -> Combat:
    stored = await session_of(table).fight(CHANNEL_ID)
    assert stored is not None
    return stored.state


async def pcs_turn(table: Table, **options: object) -> None:
    """Ana (Alice's) and Goon (the GM's NPC) in a fight; the PCs' turn began at NOW."""
    session_of(table).clock = lambda: NOW
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub", **options)
    assert not started.ephemeral, started.content
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    await begin_pcs_first(table)


async def test_a_gm_extends_the_turn_and_the_table_reads_the_new_deadline(
        table: Table) -> None:
    await pcs_turn(table, pace="by post")
    extended = await table.slash("combat extend", user=GM, by="12h")
    assert not extended.ephemeral, extended.content
    ends = int(NOW) + 60 * HOUR  # the 48 hours' deadline, 12 hours on
    assert "The GM extends the PCs' turn by 12 hours." in extended.said, extended.said
    assert f"⏱️ The turn now ends <t:{ends}:f>, <t:{ends}:R>." in extended.said, extended.said
    state = await fight_state(table)
    assert state.turn_deadline == ends and state.acting_team == "PCs"
    assert CHANNEL_ID in session_of(table).armed_channels  # the new deadline is watched
    log = await table.slash("combat log", user=ALICE)
    assert "The GM extends the PCs' turn by 12 hours." in log.content


async def test_a_deadline_passed_is_extended_from_now(table: Table) -> None:
    await pcs_turn(table, pace="by post")
    session = session_of(table)
    session.clock = lambda: NOW + 50 * HOUR
    assert await session.close_expired_window(CHANNEL_ID)  # the GM is pinged
    await table.settle()
    extended = await table.slash("combat extend", user=GM, by="1h30m")
    assert "The GM extends the PCs' turn by 1 hour 30 minutes." in extended.said
    assert (await fight_state(table)).turn_deadline == NOW + 51.5 * HOUR


@pytest.mark.parametrize("typed", ["soon", "3s", "15d", "none"])
async def test_a_bad_duration_is_refused_naming_the_forms(table: Table, typed: str) -> None:
    await pcs_turn(table, pace="by post")
    refused = await table.slash("combat extend", user=GM, by=typed)
    assert refused.ephemeral
    assert refused.content.startswith(f"“{typed}” is not a duration for an extension"), (
        refused.content)
    assert "`45s`, `10m`, `12h`, `2d`, or together as `1h30m`" in refused.content
    assert (await fight_state(table)).turn_deadline == NOW + 48 * HOUR


async def test_only_a_gm_extends_a_turn(table: Table) -> None:
    await pcs_turn(table, pace="by post")
    refused = await table.slash("combat extend", user=ALICE, by="12h")
    assert refused.ephemeral and refused.content.startswith("Only a GM may extend a turn."), (
        refused.content)
    assert (await fight_state(table)).turn_deadline == NOW + 48 * HOUR


async def test_a_turn_without_a_deadline_is_not_given_one(table: Table) -> None:
    await pcs_turn(table)  # live: no turn deadline
    refused = await table.slash("combat extend", user=GM, by="12h")
    assert refused.ephemeral and "no turn deadline to extend" in refused.content, (
        refused.content)
    assert "`/combat settings turn:`" in refused.content
    assert (await fight_state(table)).turn_deadline is None


async def test_without_a_fight_there_is_nothing_to_extend(table: Table) -> None:
    refused = await table.slash("combat extend", user=GM, by="12h")
    assert refused.ephemeral and refused.content.startswith("There is no fight"), (
        refused.content)
