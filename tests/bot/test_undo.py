"""`/combat undo` at the table, through the real dispatch path: undoing the step after the
fight began asks its initiative question again, with its buttons; undoing the beginning itself
says the fight is back in its set-up and marks the question it no longer asks; and an undo
pings nobody again (the question and the turn it goes back to were announced already)."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Table
from tests.bot.fights import add_character, start_fight


async def _ana_and_bea_tied(table: Table) -> None:
    """Ana (Alice's) and Bea (Bob's) share the PCs' level 40; Goon (NPC, 25); not begun."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bea", user=BOB, level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bea", "Bar"), ("Goon", "Bar"),
                      user_of={"Ana": ALICE, "Bea": BOB})


QUESTION = ("have more than one fighter at their highest level: who rolls initiative?")


async def test_undo_after_the_first_choice_asks_the_initiative_question_again(
        table: Table) -> None:
    await _ana_and_bea_tied(table)
    begun = await table.slash("combat begin", user=GM)
    asked = begun.prompt
    assert QUESTION in asked.content and asked.labels == ["Ana rolls", "Bea rolls"]
    assert sorted(int(u) for u in asked.allowed_mentions["users"]) == [ALICE.id, BOB.id]
    table.dice(3, 4, 6, 2)
    chosen = await table.click(asked, "Ana rolls", user=ALICE)
    assert "PCs win initiative" in chosen.answer.content

    undone = await table.slash("combat undo", user=GM)
    assert undone.answer.content == "↩️ Undid the last command (choose roller)."
    again = undone.prompt  # the question, with its buttons, as the newest message
    assert QUESTION in again.content and again.labels == ["Ana rolls", "Bea rolls"]
    assert table.channel_messages()[-1].id == again.id
    assert again.allowed_mentions == {"parse": []}  # asked again, pinging nobody again
    table.dice(3, 4, 6, 2)
    rechosen = await table.click(again, "Bea rolls", user=BOB)
    assert "Bea rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in rechosen.answer.content


async def test_undo_of_the_beginning_says_the_fight_is_back_in_its_set_up(
        table: Table) -> None:
    await _ana_and_bea_tied(table)
    begun = await table.slash("combat begin", user=GM)
    asked = begun.prompt
    undone = await table.slash("combat undo", user=GM)
    assert undone.answer.content == (
        "↩️ Undid the last command (begin).\n"
        "-# Next: add more with `/combat add`, or a GM runs `/combat begin`.")
    old = table.message(asked.id)
    assert old.buttons == [] and QUESTION not in old.content  # no question left unanswerable
    assert old.content == "-# ↩️ This question was taken back with `/combat undo`."
    board = await table.slash("combat status", user=GM)
    assert "Round 0 · setup" in board.content
    rebegun = await table.slash("combat begin", user=GM)  # and the fight begins again
    assert QUESTION in rebegun.prompt.content


async def test_undo_back_to_a_turn_does_not_ping_its_players_again(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Bar"), user_of={"Ana": ALICE})
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    turn = await table.click(begun.prompt, "PCs first", user=ALICE)
    pcs = turn.prompt
    assert pcs.content.startswith(f"**Round 1, the PCs' turn:** Ana ({ALICE.mention})"), (
        pcs.content)
    assert [int(u) for u in pcs.allowed_mentions["users"]] == [ALICE.id]  # announced once
    done = await table.slash("done", user=ALICE)
    assert done.prompt.content.startswith("**Round 1, the NPCs' turn:**")

    for _ in range(2):  # each undo goes back to the PCs' turn without pinging Alice again
        undone = await table.slash("combat undo", user=GM)
        back = undone.prompt
        assert back.content.startswith(f"**Round 1, the PCs' turn:** Ana ({ALICE.mention})")
        assert back.allowed_mentions == {"parse": []}, back.allowed_mentions
        redone = await table.slash("done", user=ALICE)
        assert redone.prompt.content.startswith("**Round 1, the NPCs' turn:**")
