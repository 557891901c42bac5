"""A fight's pace at the table: durations typed as people type them, `pace: by post`, and the
deadlines shown as Discord timestamps (each reader's own time zone)."""

from __future__ import annotations

import asyncio
import time

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


async def _by_post(table: Table, at: float = NOW, **options: object) -> None:
    """Ana (Alice's) and Goon (the GM's NPC) in a fight by post; the PCs' turn at ``at``."""
    _cog(table).clock = lambda: at
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


# -- a turn's deadline ------------------------------------------------------------------------


def _ping(table: Table) -> Message:
    """The newest message with the deadline's buttons."""
    return next(m for m in reversed(table.channel_messages()) if "End the turn" in m.labels)


async def _past_the_deadline(table: Table, **options: object) -> Message:
    """A fight by post whose PCs' turn (Ana has not acted) reached its deadline: the GM's
    ping."""
    await _by_post(table, pace="by post", **options)
    cog = _cog(table)
    cog.clock = lambda: NOW + 48 * HOUR - 1
    assert not await cog.close_expired_window(CHANNEL_ID)  # a second to go
    cog.clock = lambda: NOW + 48 * HOUR
    assert await cog.close_expired_window(CHANNEL_ID)
    await table.settle()
    return next(m for m in reversed(table.channel_messages()) if m.content.startswith("⏱️"))


async def test_the_gm_is_pinged_once_with_who_has_not_acted(table: Table) -> None:
    ping = await _past_the_deadline(table)
    assert ping.content.startswith(
        f"⏱️ {GM.mention}: Time is up for the PCs' turn. Not acted yet: Ana. A GM may act for "
        "them, extend the turn, or end it."), ping.content
    assert "with that player's buttons" in ping.content
    assert ping.labels == ["Extend by 2 days", "End the turn"]
    assert ping.allowed_mentions is not None
    assert [int(u) for u in ping.allowed_mentions.get("users", [])] == [GM.id]
    cog = _cog(table)
    cog.clock = lambda: NOW + 60 * HOUR
    assert not await cog.close_expired_window(CHANNEL_ID)  # told once
    assert CHANNEL_ID not in cog.armed_channels
    log = await table.slash("combat log", user=GM)
    assert "Time is up for the PCs' turn." in log.content


async def test_the_gm_role_is_pinged_when_the_server_has_one(table: Table) -> None:
    role = table.add_role("Game Masters")
    set_role = await table.slash("gm role", user=GM, role=role)
    assert not set_role.ephemeral, set_role.content
    ping = await _past_the_deadline(table)
    assert ping.content.startswith(f"⏱️ <@&{role.id}>: Time is up"), ping.content
    assert ping.allowed_mentions is not None
    assert [int(r) for r in ping.allowed_mentions.get("roles", [])] == [role.id]


async def test_extend_gives_the_turn_its_length_again(table: Table) -> None:
    ping = await _past_the_deadline(table)
    refused = await table.click(ping, "Extend by 2 days", user=ALICE)
    assert refused.ephemeral and "GM" in refused.content, refused.content
    extended = await table.click(ping, "Extend by 2 days", user=GM)
    assert "The GM extends the PCs' turn by 2 days." in extended.said, extended.said
    # The press's answer is the ping itself, saying what was chosen and by whom: no buttons.
    assert extended.kind == "update", extended
    answered = table.message(ping.id)
    assert answered.content.endswith(
        f"\n✅ The GM extends the PCs' turn by 2 days. ({GM.mention})"), answered.content
    assert answered.buttons == []
    # A second press, from a client that had not yet seen the ping change, changes nothing.
    again = await table.click_stale(ping, "Extend by 2 days", user=GM)
    assert again.ephemeral and "chosen already" in again.content, again.content
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert state.turn_deadline == NOW + 96 * HOUR and state.acting_team == "PCs"
    assert CHANNEL_ID in _cog(table).armed_channels  # the new deadline is watched
    ends = int(NOW) + 96 * HOUR
    assert f"(the turn ends <t:{ends}:f>, <t:{ends}:R>)" in _turn(table).content


async def test_end_the_turn_ends_it_as_done(table: Table) -> None:
    ping = await _past_the_deadline(table)
    ended = await table.click(ping, "End the turn", user=GM)
    assert "PCs are done." in ended.said, ended.said
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert state.acting_team == "NPCs"
    answered = table.message(ping.id)
    assert answered.content.endswith(f"\n✅ PCs are done. ({GM.mention})"), answered.content
    assert answered.buttons == []
    stale = await table.click_stale(ping, "End the turn", user=GM)
    assert stale.ephemeral and "That turn is over" in stale.content


async def test_auto_ends_the_turn_at_its_deadline(table: Table) -> None:
    told = await _past_the_deadline(table, turn_end="auto")
    assert told.content.startswith(
        "⏱️ Time is up.\nTime is up for the PCs' turn: it ends. Not acted yet: Ana.\n"
        "PCs are done (time is up)."), told.content
    assert not any("End the turn" in m.labels for m in table.channel_messages())
    state = (await _cog(table).fight(CHANNEL_ID)).state  # type: ignore[union-attr]
    assert state.acting_team == "NPCs" and state.turn_deadline == NOW + 96 * HOUR


async def test_the_ping_buttons_work_after_a_restart(table: Table) -> None:
    ping = await _past_the_deadline(table)
    await table.restart()
    extended = await table.click(ping, "Extend by 2 days", user=GM)
    assert "The GM extends the PCs' turn by 2 days." in extended.said, extended.said


async def test_a_deadline_passed_while_no_bot_ran_is_handled_once_at_start_up(
        table: Table) -> None:
    # The turn started two days and an hour ago, by the real clock a restarted bot reads.
    await _by_post(table, at=time.time() - 49 * HOUR, pace="by post")
    assert not any("End the turn" in m.labels for m in table.channel_messages())
    await table.restart()
    cog = _cog(table)
    await _watched(CHANNEL_ID)  # (it may have run already, as the bot started)
    await table.settle()
    pings = [m for m in table.channel_messages() if "End the turn" in m.labels]
    assert len(pings) == 1 and "Not acted yet: Ana." in pings[0].content, pings
    assert not await cog.close_expired_window(CHANNEL_ID)  # once
    await table.restart()
    assert CHANNEL_ID not in _cog(table).armed_channels


async def _watched(channel_id: int) -> None:
    """Wait for the watcher's task that handles ``channel_id``'s passed deadline, when it has
    not run yet (it starts within a few turns of the loop)."""
    name = f"unhex-background:window:{channel_id}"
    for _ in range(100):
        tasks = [t for t in asyncio.all_tasks() if t.get_name() == name]
        if tasks:
            await asyncio.gather(*tasks)
            return
        await asyncio.sleep(0)
