"""`/combat undo` marks what it took back where the table read it: the message that showed the
undone step's rolls and results is edited once, its outcome struck and a line saying it was
taken back, what it answered left as it was; an older step's message stays as it is until
an undo takes that step back too. A message Discord will not edit (deleted) is skipped: the
undo stands."""

from __future__ import annotations

import pytest

from testbed.harness import ALICE, GM, Reply, Table
from tests.bot.fights import ana_and_goon_on_the_dance_floor

NOTE = "-# ↩️ Taken back with `/combat undo`."
WINDOW = "may react before the dice are rolled"
DICE = "chooses which die is damage (the other is hit location)"


async def _ana_hits_goon(table: Table) -> tuple[Reply, Reply, Reply]:
    """Ana attacks Goon (a slash command), Goon lets it come (a press on the window), Ana
    rolls 39 against 40 and picks 9 damage to the right leg (a press on the dice)."""
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 9)
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    hit = await table.click(rolled.prompt, "9 damage · 3: right leg", user=ALICE)
    return declared, rolled, hit


async def test_an_undone_press_is_struck_on_the_prompt_it_answered(table: Table) -> None:
    declared, rolled, hit = await _ana_hits_goon(table)
    answered = table.message(hit.answer.id)
    assert answered.id == rolled.prompt.id  # the press answered on its prompt
    question, *outcome = answered.content.split("\n")
    assert "Goon takes 9 damage to the right leg: level 25 → 16." in outcome[1], outcome
    struck = [f"~~{line}~~" for line in outcome]
    passed = table.message(declared.prompt.id).content  # the window's answer: the roll

    undone = await table.slash("combat undo", user=GM)
    assert undone.answer.content == "↩️ Undid the last command (choose dice)."
    marked = table.message(answered.id).content.split("\n")
    assert marked == [question, *struck, NOTE], marked  # what it asked, as it was
    assert question.startswith("> **Ana (") and DICE in question
    assert table.message(declared.prompt.id).content == passed  # an older step: untouched
    again = undone.prompt  # the question asked anew, with its buttons
    assert DICE in again.content and again.labels == ["3 damage · 9: head",
                                                      "9 damage · 3: right leg"]

    rolls = [line for line in passed.split("\n") if not line.startswith("> ")]
    assert any("39 (3·9) vs 40" in line for line in rolls), passed
    back = await table.slash("combat undo", user=GM)
    assert back.answer.content == "↩️ Undid the last command (react)."
    window = table.message(declared.prompt.id).content.split("\n")
    assert window[0].startswith("> **Goon (GM)**") and WINDOW in window[0], window
    assert window[1:] == [*(f"~~{line}~~" for line in rolls), NOTE], window
    assert table.message(answered.id).content.split("\n") == [question, *struck, NOTE]


async def test_an_undone_command_is_struck_in_its_answer(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    moved = await table.slash("move", to="Bar")
    said = moved.answer.content
    assert said.startswith("Ana moves from Dance Floor to Bar."), said

    await table.slash("combat undo", user=GM)
    lines = table.message(moved.answer.id).content.split("\n")
    assert lines == [*(f"~~{line}~~" for line in said.split("\n")), NOTE], lines
    board = await table.slash("combat status", user=GM)
    assert "Ana [PCs] Dance Floor" in board.content, board.content  # the move taken back


async def test_a_deleted_message_is_skipped_and_the_undo_stands(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    moved = await table.slash("move", to="Bar")
    table.messages.pop(moved.answer.id)  # a moderator deleted it

    undone = await table.slash("combat undo", user=GM)
    assert undone.answer.content == "↩️ Undid the last command (move)."
    assert f"Could not mark message {moved.answer.id} as taken back" in caplog.text
    board = await table.slash("combat status", user=GM)
    assert "Ana [PCs] Dance Floor" in board.content, board.content
    again = await table.slash("move", to="Bar")  # the fight goes on
    assert again.answer.content.startswith("Ana moves from Dance Floor to Bar.")


async def test_after_a_restart_the_undo_strikes_what_it_took_back_in_its_own_answer(
        table: Table) -> None:
    """The message that told the step is not known to a bot restarted since: the undo's answer
    says what no longer counts, struck, and leaves the older messages as they are."""
    *_, hit = await _ana_hits_goon(table)
    told = table.message(hit.answer.id).content
    table = await table.restart()

    undone = await table.slash("combat undo", user=GM)

    head, *lines = undone.answer.content.split("\n")
    assert head == "↩️ Undid the last command (choose dice)."
    assert any(line.startswith("~~Goon takes 9 damage to the right leg: level 25 → 16.")
               for line in lines), lines
    assert all(line.startswith("~~") and line.endswith("~~") for line in lines), lines
    assert table.message(hit.answer.id).content == told  # not known here: left as it was
