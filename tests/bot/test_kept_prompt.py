"""A step that changes nothing the fight asks (a standing order set, the fight's settings)
keeps the live prompt where it is: no new message, no edit; its buttons, made for the older
version, still answer while it asks what the fight asks, and a press on them applies once.
A step that changes the question posts a new prompt as before, and the old one's buttons are
then out of date."""

from __future__ import annotations

import json

import pytest

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, BOB, GM, Message, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0  # the fights' clock, held still so the window's deadline is known
DEFEND = "When attacked: defend with Riot shield"


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert cog is not None
    return cog


async def _ana_attacked(table: Table) -> Message:
    """Ana (Alice's, a riot shield in hand), Bram (Bob's) and Goon (an NPC); the PCs end
    their turn and Goon attacks Ana: the prompt asking Ana to react."""
    await add_character(table, "Ana", level=40)
    for step, options in (("character item add", {"name": "Riot shield", "kind": "shield"}),
                          ("character item hold", {"item": "Riot shield", "hand": "left"})):
        done = await table.slash(step, character="Ana", **options)
        assert not done.ephemeral, done.content
    await add_character(table, "Bram", user=BOB, level=30)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Kitchen"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)
    turn = next(m for m in reversed(table.channel_messages()) if "Done (PCs)" in m.labels)
    await table.click(turn, "Done (PCs)", user=ALICE)
    _cog(table).clock = lambda: NOW
    attacked = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert "Ana may defend or counterattack" in attacked.answer.content, attacked.answer.content
    await table.settle()
    return attacked.prompt


def _shown(table: Table) -> list[tuple[int, str, str]]:
    """Every message of the channel: its id, what it says and its buttons, as it is now."""
    return [(m.id, m.content, json.dumps(m.components)) for m in table.channel_messages()]


async def test_an_order_and_a_setting_keep_the_prompt_and_its_buttons_answer_once(
        table: Table) -> None:
    prompt = await _ana_attacked(table)
    before = _shown(table)
    raw_before = dict(table.messages[prompt.id])

    panel = (await table.slash("combat orders")).answer
    picked = await table.pick(panel, DEFEND)
    assert picked.answer.content.startswith("Saved:"), picked.answer.content
    await table.settle()
    assert _shown(table) == before  # no new message, the prompt not edited
    assert table.messages[prompt.id] == raw_before

    hidden = await table.slash("combat settings", user=GM, hide_npcs=True)
    assert not hidden.ephemeral, hidden.content
    await table.settle()
    live = [m for m in table.channel_messages() if m.buttons]
    assert [m.id for m in live] == [prompt.id]  # (the setting's answer has no buttons)
    assert table.messages[prompt.id]["edited_timestamp"] is None

    table.dice(7, 0, 8, 1, 3, 4, 6, 2)  # both fail; then round 2's initiative
    defended = await table.click(prompt, "Defend", user=ALICE)
    assert defended.kind == "update", defended.content
    assert "out of date" not in defended.content
    assert "Ana defends: 81 (8·1) vs 40" in defended.said, defended.content
    again = await table.click_stale(prompt, "Defend", user=ALICE)
    assert again.ephemeral and "out of date" in again.content, again.content
    log = await table.slash("combat log", user=GM)
    assert log.content.splitlines().count("Ana defends.") == 1, log.content


async def test_a_step_that_changes_the_question_posts_a_new_prompt(table: Table) -> None:
    prompt = await _ana_attacked(table)
    table.dice(7, 0, 8, 1, 3, 4, 6, 2)
    cog = _cog(table)
    cog.clock = lambda: NOW + 45
    assert await cog.close_expired_window(table.message(prompt.id).channel_id)
    await table.settle()
    assert not table.message(prompt.id).buttons  # stripped: a newer question replaced it
    stale = await table.click_stale(prompt, "Defend", user=ALICE)
    assert stale.ephemeral and "out of date" in stale.content, stale.content


async def test_a_prompt_a_moderator_deleted_is_asked_anew_by_an_order(table: Table) -> None:
    prompt = await _ana_attacked(table)
    del table.messages[prompt.id]  # (as Discord: gone, 10008 from then on)
    panel = (await table.slash("combat orders")).answer
    await table.pick(panel, DEFEND)
    await table.settle()
    (asking,) = [m for m in table.channel_messages() if m.buttons]
    assert asking.id != prompt.id and "Defend" in asking.labels, asking
