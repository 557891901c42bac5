"""Catching up on a fight by post: `/combat catchup` and the Catch up button on the turn line
tell a player, just them, what happened since their fighter last acted (a line per step),
how their fighter stands, who is where, what waits for them and by when, and where the board
is; in one message, however long the fight."""

from __future__ import annotations

import pytest

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, Message, Table, User
from tests.bot.fights import add_character, begin_pcs_first

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0  # the fights' clock, held still so the deadlines shown are known
CAROL = User(800_000_000_000_000_009, "carol")  # at the table, with no fighter


def _session(table: Table) -> FightSession:
    session = table.bot.fights
    assert isinstance(session, FightSession)
    return session


def _board(table: Table) -> Message:
    return next(m for m in table.channel_messages() if m.content.startswith("```"))


def _turn(table: Table) -> Message:
    """The newest message with the turn's buttons."""
    return next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)


async def _four_on_the_dance_floor(table: Table) -> None:
    """Ana (Alice's, 40), Bo (Bob's, 30), Goon (25) and Rat (20) on the dance floor; round
    1, the PCs act (Alice chose that order: Ana's last act)."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bo", user=BOB, level=30)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Rat", user=GM, level=20, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, user in (("Ana", ALICE), ("Bo", BOB), ("Goon", GM), ("Rat", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    await begin_pcs_first(table)


async def _others_play_on(table: Table) -> None:
    """While Alice is away: Bo moves to the bar and ends the PCs' turn; Goon attacks Ana,
    whose window closes unanswered, and hits her for 2 on the left leg; Rat starts to leave
    the dance floor, and Ana is asked whether to intercept (until NOW + 90)."""
    moved = await table.slash("move", user=BOB, to="Bar")
    await table.click(moved.prompt, "Resolve now (GM)", user=GM)
    await table.click(_turn(table), "Done (PCs)", user=BOB)
    session = _session(table)
    session.clock = lambda: NOW
    await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    session.clock = lambda: NOW + 45
    table.dice(1, 2)  # Goon: 12 vs 25
    assert await session.close_expired_window(CHANNEL_ID)
    await table.settle()
    await table.click(table.channel_messages()[-1], "2 damage · 1: left leg", user=GM)
    await table.slash("move", user=GM, to="Bar", **{"as": "Rat"})


async def test_the_catch_up_folds_what_others_did_and_says_what_waits(table: Table) -> None:
    await _four_on_the_dance_floor(table)
    await _others_play_on(table)
    before = len(table.channel_messages())

    caught = await table.slash("combat catchup", user=ALICE)
    assert caught.ephemeral
    assert len(table.channel_messages()) == before  # the table sees nothing of it
    assert caught.message.allowed_mentions == {"parse": []}
    board = _board(table)
    assert caught.content == (
        "📰 **Catching up** · nightclub · Ana\n"
        "-# Since Ana last acted: 7 steps.\n"
        "• Bo moves Dance Floor → Bar\n"
        "• Bo is now in Bar\n"
        "• Now the NPCs' turn\n"
        "• Goon attacks Ana (Knife)\n"
        "• Goon hits Ana (Knife)\n"
        "• Ana: 2 damage, left leg, level 40 → 38\n"
        "• Rat moves Dance Floor → Bar\n"
        "**Ana** · level 38/40 · fine · marks: left leg \\\\\\\\\n"
        "**Who is where:**\n"
        "• Dance Floor: Ana, Goon, Rat\n"
        "• Bar: Bo\n"
        "**Waiting for you:**\n"
        f"• Ana: may react before the dice are rolled, by <t:{int(NOW) + 90}:f> "
        f"(<t:{int(NOW) + 90}:R>)\n"
        f"📌 The board: https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{board.id}")

    # Bob acted later: his catch-up starts after his Done, and nothing waits for him.
    bobs = (await table.slash("combat catchup", user=BOB)).content
    assert "-# Since Bo last acted: 4 steps.\n• Goon attacks Ana (Knife)\n" in bobs
    assert "**Bo** · level 30/30 · fine · marks: none" in bobs
    assert "Nothing waits for you now." in bobs


async def test_nothing_since_the_fighter_last_acted_is_said(table: Table) -> None:
    await _four_on_the_dance_floor(table)
    _session(table).clock = lambda: NOW
    await table.slash("move", user=BOB, to="Bar")  # Bob acted last

    caught = await table.slash("combat catchup", user=BOB)
    assert caught.ephemeral
    assert caught.content.startswith(
        "📰 **Catching up** · nightclub · Bo\nNothing has happened since Bo last acted.\n"
        "**Bo** · level 30/30 · fine · marks: none\n")
    assert "📌 The board: https://discord.com/channels/" in caught.content

    # A GM with no fighter of their own reads the whole table since they last acted.
    gms = (await table.slash("combat catchup", user=GM)).content
    assert gms.startswith("📰 **Catching up** · nightclub · the whole table\n"
                          "-# Since you last acted: 2 steps.\n"
                          "• Now the PCs' turn\n• Bo moves Dance Floor → Bar\n"
                          "**Who is where:**\n")


async def test_the_turn_lines_catch_up_answers_whoever_presses_it_alone(table: Table) -> None:
    await _four_on_the_dance_floor(table)
    moved = await table.slash("move", user=BOB, to="Bar")
    await table.click(moved.prompt, "Resolve now (GM)", user=GM)
    turn = _turn(table)
    assert turn.labels == ["My options", "Done (PCs)", "Catch up"]
    before = [(m.id, m.content) for m in table.channel_messages()]

    alices = await table.click(turn, "Catch up", user=ALICE)
    assert alices.ephemeral
    assert alices.content.startswith("📰 **Catching up** · nightclub · Ana\n"
                                     "-# Since Ana last acted: 2 steps.\n"
                                     "• Bo moves Dance Floor → Bar\n• Bo is now in Bar\n")
    assert "**Waiting for you:**\n• Ana: may act\n" in alices.content
    bobs = await table.click(turn, "Catch up", user=BOB)
    assert bobs.ephemeral
    assert bobs.content.startswith("📰 **Catching up** · nightclub · Bo\n"
                                   "-# Since Bo last acted: 1 step.\n• Bo is now in Bar\n")
    assert [(m.id, m.content) for m in table.channel_messages()] == before
    assert _turn(table).id == turn.id  # the turn line is as it was, buttons and all

    # The button answers after a restart too; a user with no fighter is told so.
    await table.restart()
    nobody = await table.click(turn, "Catch up", user=CAROL)
    assert nobody.ephemeral
    assert nobody.content.startswith("You have no character in this fight")
    typed = await table.slash("combat catchup", user=CAROL)
    assert typed.ephemeral and typed.content == nobody.content


async def test_a_long_fight_is_caught_up_on_in_one_message(table: Table) -> None:
    await _four_on_the_dance_floor(table)
    for n in range(60):  # the GM corrects Goon sixty times while Alice is away
        done = await table.slash("combat set", user=GM, character="Goon", level=1 + n % 24)
        assert not done.ephemeral, done.content

    caught = await table.slash("combat catchup", user=ALICE)
    text = caught.content
    assert len(text) <= 2000
    lines = text.split("\n")
    assert lines[1] == "-# Since Ana last acted: 60 steps."
    folded = lines[2]
    assert folded.startswith("-# … ") and folded.endswith(
        " older lines left out (`/combat log file:True` has them all)")
    kept_out = int(folded.split()[2])
    assert 0 < kept_out < 60
    steps = lines[3:lines.index("**Ana** · level 40/40 · fine · marks: none")]
    assert len(steps) == 60 - kept_out
    assert steps[-1] == "• GM correction to Goon: level 11 → 12"  # the newest kept
    assert "• GM correction to Goon: level 25 → 1\n" not in text  # the oldest left out
    assert lines[-1].startswith("📌 The board: ")
