"""What a fight leaves in the channel once the table has moved on: a window's question
answered or closed says when it closed (no countdown still running in it), the My options panel
says what a pick started, and a turn handed over or a round ended is told at the bottom of the
channel, with the next prompt after it, not written into the older prompt that was pressed."""

from __future__ import annotations

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import ana_and_goon_on_the_dance_floor

NOW = 1_800_000_000.0  # the bot's clock, held still so the times shown are known


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert isinstance(cog, FightSession)
    return cog


def _live(table: Table) -> list[Message]:
    """The channel's messages with buttons a press still answers."""
    return [m for m in table.channel_messages() if m.buttons]


def _boards(table: Table) -> list[Message]:
    return [m for m in table.channel_messages() if m.content.startswith("```text\nRound")]


async def _goon_asked_to_react(table: Table) -> Message:
    """Ana attacks Goon at ``NOW``: Goon's window, open 45 seconds."""
    await ana_and_goon_on_the_dance_floor(table)  # round 1, the PCs' turn
    _cog(table).clock = lambda: NOW
    declared = await table.slash("attack", user=ALICE, target="Goon")
    asked = declared.prompt
    assert f"(closes <t:{int(NOW) + 45}:f>, <t:{int(NOW) + 45}:R>)" in asked.content, asked.content
    return asked


# -- a window's question once it is over ---------------------------------------------------


async def test_a_window_answered_says_when_it_closed_not_a_countdown(table: Table) -> None:
    asked = await _goon_asked_to_react(table)
    _cog(table).clock = lambda: NOW + 12  # Goon answers 12 seconds in
    table.dice(1, 2)
    passed = await table.click(asked, "Pass", user=GM)

    answered = passed.answer
    assert answered.id == asked.id and not answered.buttons
    assert answered.content.startswith(
        f"> **Goon (GM)** may react before the dice are rolled (closed <t:{int(NOW) + 12}:t>)\n"
        "Goon does not react."), answered.content
    assert ":R>" not in table.message(asked.id).content


async def test_a_window_closed_by_its_timer_says_when_it_closed(table: Table) -> None:
    asked = await _goon_asked_to_react(table)
    cog = _cog(table)
    cog.clock = lambda: NOW + 50  # the timer came a little late
    table.dice(1, 2)
    assert await cog.close_expired_window(CHANNEL_ID)
    await table.settle()

    closed = table.message(asked.id)
    assert not closed.buttons
    assert closed.content == (f"**Goon (GM)** may react before the dice are rolled (closed "
                              f"<t:{int(NOW) + 45}:t>)"), closed.content  # the deadline
    assert [m.id for m in _live(table)] == [table.channel_messages()[-1].id]


async def test_a_window_answered_by_a_typed_command_says_when_it_closed(table: Table) -> None:
    asked = await _goon_asked_to_react(table)
    _cog(table).clock = lambda: NOW + 20
    table.dice(1, 2, 9, 9)
    typed = await table.slash("defend", user=GM, **{"as": "Goon"})
    assert not typed.ephemeral, typed.content

    stripped = table.message(asked.id)
    assert not stripped.buttons
    assert stripped.content == (f"**Goon (GM)** may react before the dice are rolled (closed "
                                f"<t:{int(NOW) + 20}:t>)"), stripped.content


# -- My options once a pick is made --------------------------------------------------------


async def test_my_options_says_what_a_pick_started(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)  # round 1, the PCs' turn
    panel = await table.click(_live(table)[-1], "My options", user=ALICE)
    attack = panel.message.selects()[0]
    goon = next(o["value"] for o in attack["options"] if o["label"].startswith("Goon"))

    chosen = await table.choose(panel.message, [goon], user=ALICE)
    assert chosen.kind == "update" and chosen.answer.ephemeral
    said = chosen.answer.content
    assert said == ("Started: Ana attacks Goon with Knife.\n"
                    "-# **Ana** has no action left this round."), said
    assert "can start nothing" not in said


# -- a turn handed over, a round ended -----------------------------------------------------


async def test_done_tells_the_new_turn_and_round_at_the_bottom(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)  # round 1, the PCs' turn
    turn = _live(table)[-1]
    table.dice(2, 3)
    rolled = await table.slash("roll", user=ALICE, level=40)  # the channel moves on
    assert not rolled.ephemeral

    done = await table.click(turn, "Done (PCs)", user=ALICE)
    kept = table.message(turn.id)
    assert kept.content == turn.content and not kept.buttons  # as it was, its buttons gone
    news = done.posted("PCs are done.")
    assert news.content == "PCs are done.\nTurn: NPCs."
    npcs = _live(table)
    assert [m.content.split("\n")[0] for m in npcs] == ["**Round 1, the NPCs' turn:** Goon (GM)"]
    assert rolled.answer.id < news.id < npcs[0].id  # below the roll, the prompt last

    table.dice(5, 0, 6, 0)  # round 2: Ana 50 fails her 40, Goon 60 fails his 25
    ended = await table.click(npcs[0], "Done (NPCs)", user=GM)
    assert not table.message(npcs[0].id).buttons
    assert table.message(npcs[0].id).content == npcs[0].content
    told = ended.posted("Round 1 ends.")
    assert told.id > npcs[0].id
    assert told.content.startswith("NPCs are done.\nRound 1 ends.\nRound 2 begins.\n"), \
        told.content
    (asking,) = _live(table)  # one live prompt, after the news
    assert asking.id > told.id and "initiative" in asking.content, asking.content
    (board,) = _boards(table)  # one board, edited in place
    assert board.content.startswith("```text\nRound 2")


async def test_a_press_that_hands_the_turn_over_keeps_its_answer_and_posts_the_news(
        table: Table) -> None:
    asked = await _goon_asked_to_react(table)
    table.dice(1, 2)
    passed = await table.click(asked, "Pass", user=GM)
    damage = passed.prompt
    placed = await table.click(damage, damage.labels[0], user=ALICE)  # Ana's last action

    answer = placed.answer
    assert answer.id == damage.id
    assert "Goon takes 1 damage" in answer.content and "Turn:" not in answer.content, \
        answer.content
    news = placed.posted("Turn: NPCs.")
    assert news.id > damage.id and news.content == "Turn: NPCs."
    (asking,) = _live(table)
    assert asking.id > news.id and asking.content.startswith("**Round 1, the NPCs' turn:**")
