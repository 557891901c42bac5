"""A fight's pace at the table: durations typed as people type them, `pace: by post`, and the
deadlines shown as Discord timestamps (each reader's own time zone)."""

from __future__ import annotations

import pytest

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character, begin_pcs_first

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0  # the bot's clock, held still so the deadlines shown are known
HOUR = 3600


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert cog is not None
    return cog


def _turn(table: Table) -> Message:
    """The newest message with the turn's buttons."""
    return next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)


async def _by_post(table: Table, **options: object) -> None:
    """Ana (Alice's) and Goon (the GM's NPC) in a fight by post; the PCs' turn at ``NOW``."""
    _cog(table).clock = lambda: NOW
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub", **options)
    assert not started.ephemeral, started.content
    for name, user in (("Ana", ALICE), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    await begin_pcs_first(table)


@pytest.mark.parametrize("typed", ["soon", "3s", "15d", "-1h", "1h30", "none"])
async def test_a_bad_reaction_time_is_refused_naming_the_forms(table: Table,
                                                              typed: str) -> None:
    refused = await table.slash("combat start", user=GM, map="Nightclub", reaction=typed)
    assert refused.ephemeral
    assert "`45s`, `10m`, `12h`, `2d`, or together as `1h30m`, from 5 seconds to 14 days" in (
        refused.content), refused.content
    assert (await table.slash("combat status")).content.startswith("There is no fight")


async def test_by_post_waits_a_day_for_reactions_and_two_for_a_turn(table: Table) -> None:
    await _by_post(table, pace="by post")
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert (state.reaction_seconds, state.turn_seconds) == (24 * HOUR, 48 * HOUR)
    ends = int(NOW) + 48 * HOUR
    assert f"(the turn ends <t:{ends}:f>, <t:{ends}:R>)" in _turn(table).content
    attacked = await table.slash("attack", target="Goon")
    assert "(within 1 day)" in attacked.answer.content, attacked.answer.content
    closes = int(NOW) + 24 * HOUR
    assert f"(closes <t:{closes}:f>, <t:{closes}:R>)" in attacked.prompt.content


async def test_given_lengths_win_over_the_pace(table: Table) -> None:
    await _by_post(table, pace="by post", reaction="1h30m", turn="none")
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert (state.reaction_seconds, state.turn_seconds) == (90 * 60, None)
    assert "the turn ends" not in _turn(table).content


async def test_settings_change_the_pace_and_say_so(table: Table) -> None:
    await _by_post(table)  # live: no turn deadline
    assert "the turn ends" not in _turn(table).content
    refused = await table.slash("combat settings", user=GM, turn="two days")
    assert refused.ephemeral and "`none` for no deadline" in refused.content, refused.content
    changed = await table.slash("combat settings", user=GM, turn="12h", turn_end="auto")
    assert "A team's turn now lasts 12 hours. At a turn's deadline, the turn now ends by " \
           "itself." in changed.answer.content, changed.answer.content
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert state.turn_deadline == NOW + 12 * HOUR  # the running turn has it from now
    live = await table.slash("combat settings", user=GM, pace="live")
    assert "Reactions" not in live.answer.content  # already 45 seconds
    assert "A team's turn now has no deadline." in live.answer.content
