"""Reminders that ping only who is late: a by-post fight's questions remind the players asked
who have not answered, once (kept in the database: a restart never reminds twice), at the
point the GM sets; by direct message for a player who chose it, in the channel when Discord
refuses it (50007), saying so once (until Discord takes one of theirs again)."""

from __future__ import annotations

import pytest

from bot.cogs.combat.reminders import DM_REFUSED
from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0  # the bot's clock, moved by the tests
HOUR = 3600
WINDOW = NOW + 24 * HOUR  # Goon's attack on Ana, by post: Ana's window closes a day later
TURN = NOW + 48 * HOUR  # the PCs' turn, by post


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert cog is not None
    return cog


def _reminders(table: Table) -> list[Message]:
    return [m for m in table.channel_messages() if m.content.startswith("⏰ Reminder")]


async def _fight(table: Table, first: str, **options: object) -> None:
    """Ana (Alice's), Bea (Bob's) and Goon (the GM's NPC) in a fight by post, at ``NOW``;
    ``first``: the team that acts first."""
    _cog(table).clock = lambda: NOW
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bea", user=BOB, level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub", pace="by post",
                                **options)
    assert not started.ephemeral, started.content
    for name, user in (("Ana", ALICE), ("Bea", BOB), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "Ana rolls", user=ALICE)
    await table.click(table.channel_messages()[-1], f"{first} first", user=ALICE)


async def _goon_attacks_ana(table: Table, **options: object) -> Message:
    """The NPCs go first; Goon attacks Ana, who is asked to react within a day: the prompt."""
    await _fight(table, "NPCs", **options)
    attacked = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert "(within 1 day)" in attacked.answer.content, attacked.answer.content
    return attacked.prompt


async def _at(table: Table, when: float) -> bool:
    """The bot's clock at ``when``, and the watcher's work there done: whether it reminded."""
    cog = _cog(table)
    cog.clock = lambda: when
    await cog.close_expired_window(CHANNEL_ID)
    reminded = await cog.remind_late(CHANNEL_ID)
    await table.settle()
    return reminded


async def test_a_window_reminds_only_the_asked_and_silent_once_at_a_quarter_left(
        table: Table) -> None:
    prompt = await _goon_attacks_ana(table)
    due = WINDOW - 6 * HOUR
    assert _cog(table).wakes_for(CHANNEL_ID) == due  # the one watcher wakes for it
    assert not await _at(table, due - 1)
    assert await _at(table, due)
    [reminder] = _reminders(table)
    at = int(WINDOW)
    assert reminder.content.startswith(
        f"⏰ Reminder: the fight waits for you until <t:{at}:f> (<t:{at}:R>).\n"
        f"{ALICE.mention}: Ana may "), reminder.content
    assert BOB.mention not in reminder.content and GM.mention not in reminder.content
    assert reminder.allowed_mentions is not None
    assert [int(u) for u in reminder.allowed_mentions["users"]] == [ALICE.id]
    assert reminder.allowed_mentions.get("parse") == []
    assert f"/{CHANNEL_ID}/{prompt.id})" in reminder.content  # a link to the prompt
    assert _cog(table).wakes_for(CHANNEL_ID) == WINDOW
    assert not await _at(table, due + 60)  # once
    await table.restart()
    assert _cog(table).wakes_for(CHANNEL_ID) == WINDOW  # the database says it was reminded
    assert not await _at(table, due + 2 * HOUR)
    assert _cog(table).wakes_for(CHANNEL_ID) == WINDOW  # nothing left to remind
    assert len(_reminders(table)) == 1


async def test_the_reminder_due_across_a_restart_comes_once(table: Table) -> None:
    await _goon_attacks_ana(table)
    await table.restart()
    due = WINDOW - 6 * HOUR
    assert _cog(table).wakes_for(CHANNEL_ID) == due  # re-armed from the database
    assert await _at(table, due + HOUR)  # (the bot was away at the moment itself)
    await table.restart()
    assert not await _at(table, due + 2 * HOUR)
    assert _cog(table).wakes_for(CHANNEL_ID) == WINDOW
    assert len(_reminders(table)) == 1


async def test_a_turn_reminds_the_members_who_still_have_actions(table: Table) -> None:
    await _fight(table, "PCs")
    table.dice(9, 9)  # Bea's attack: a critical failure, her last action gone
    attacked = await table.slash("attack", user=BOB, target="Goon")
    await table.click(attacked.prompt, "Pass", user=GM)
    due = TURN - 12 * HOUR
    assert not await _at(table, due - 1)
    assert await _at(table, due)
    [reminder] = _reminders(table)
    assert f"{ALICE.mention}: Ana may act." in reminder.content, reminder.content
    assert BOB.mention not in reminder.content
    assert [int(u) for u in reminder.allowed_mentions["users"]] == [ALICE.id]


async def test_a_player_may_be_reminded_by_direct_message(table: Table) -> None:
    chose = await table.slash("settings reminders", where="dm")
    assert chose.ephemeral and "reminded by direct message" in chose.content, chose.content
    shown = await table.slash("settings reminders")
    assert shown.ephemeral and "You are reminded by direct message" in shown.content
    await _goon_attacks_ana(table)
    assert await _at(table, WINDOW - 6 * HOUR)
    assert _reminders(table) == []
    [dm] = table.direct_messages(ALICE)
    assert dm.content.startswith(f"⏰ Reminder: the fight in <#{CHANNEL_ID}> waits for you "
                                 f"until <t:{int(WINDOW)}:f>"), dm.content
    assert table.direct_messages(BOB) == []


async def test_a_refused_direct_message_falls_back_to_the_channel_saying_so(
        table: Table) -> None:
    await table.slash("settings reminders", where="dm")
    table.no_dms.add(ALICE.id)  # Alice takes no direct message from the bot
    await _goon_attacks_ana(table)
    assert await _at(table, WINDOW - 6 * HOUR)
    [reminder] = _reminders(table)
    assert f"{ALICE.mention}: Ana may " in reminder.content
    assert reminder.content.count(DM_REFUSED) == 1, reminder.content
    assert [int(u) for u in reminder.allowed_mentions["users"]] == [ALICE.id]
    assert table.direct_messages(ALICE) == []


async def _refused_then_the_turn(table: Table) -> Message:
    """Alice, reminded by DM, takes none: Ana's window is reminded in the channel; then Goon's
    attack fails critically and the PCs' turn (two days) comes: its first reminder."""
    await table.slash("settings reminders", where="dm")
    table.no_dms.add(ALICE.id)
    await _goon_attacks_ana(table)
    assert await _at(table, WINDOW - 6 * HOUR)
    table.dice(9, 9)  # Goon's attack: a critical failure, its next action lost
    await _at(table, WINDOW)
    turn_due = WINDOW + 36 * HOUR  # the PCs' turn ends two days after the window closed
    assert _cog(table).wakes_for(CHANNEL_ID) == turn_due
    [first] = _reminders(table)
    assert first.content.count(DM_REFUSED) == 1, first.content
    return first


async def test_a_refused_direct_message_is_said_once_and_tried_again_each_time(
        table: Table) -> None:
    await _refused_then_the_turn(table)
    await table.restart()  # the player's settings keep that she was told
    assert await _at(table, WINDOW + 36 * HOUR)
    [_, second] = _reminders(table)
    assert f"{ALICE.mention}: Ana may act." in second.content, second.content
    assert DM_REFUSED not in second.content
    assert ALICE.id in [int(u) for u in second.allowed_mentions["users"]]
    assert table.direct_messages(ALICE) == []


async def test_a_direct_message_taken_again_forgets_the_refusal(table: Table) -> None:
    await _refused_then_the_turn(table)
    players = table.bot.store.players
    assert await players.dm_refused([ALICE.id]) == {ALICE.id}
    table.no_dms.discard(ALICE.id)  # she opens her privacy settings
    assert await _at(table, WINDOW + 36 * HOUR)
    [dm] = table.direct_messages(ALICE)
    assert "Ana may act." in dm.content, dm.content
    [_, second] = _reminders(table)
    assert ALICE.mention not in second.content and BOB.mention in second.content
    assert await players.dm_refused([ALICE.id]) == set()  # a later refusal is said again


async def test_remind_none_reminds_nobody(table: Table) -> None:
    await _fight(table, "NPCs")
    changed = await table.slash("combat settings", user=GM, remind="none")
    assert "Nobody is reminded of a deadline any more." in changed.answer.content
    await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert _cog(table).wakes_for(CHANNEL_ID) == WINDOW
    assert not await _at(table, WINDOW - 1)
    assert _reminders(table) == []


async def test_remind_before_the_deadline_by_a_duration(table: Table) -> None:
    await _fight(table, "NPCs")
    refused = await table.slash("combat settings", user=GM, remind="soon")
    assert refused.ephemeral and "`1%` to `99%`" in refused.content, refused.content
    changed = await table.slash("combat settings", user=GM, remind="2h")
    assert "Whoever is late is now reminded 2 hours before the deadline." in (
        changed.answer.content), changed.answer.content
    await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert not await _at(table, WINDOW - 2 * HOUR - 1)
    assert await _at(table, WINDOW - 2 * HOUR)


async def test_a_live_window_never_reminds(table: Table) -> None:
    await _fight(table, "NPCs", reaction="45s")
    await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert _cog(table).wakes_for(CHANNEL_ID) == NOW + 45
    assert not await _at(table, NOW + 44)
    assert _reminders(table) == []
