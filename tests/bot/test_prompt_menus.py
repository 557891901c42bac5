"""A question with more answers than buttons can show asks them in a menu, through the real
dispatch path: thirty numbered goons, each hurt differently (copies alike would be no choice),
tied at the NPCs' highest level are asked who rolls
initiative in menus that list all thirty; a pick is the press of that answer's button (the same
command, the same refusals: a player who may not answer, an older version), and still works
after a restart; the message stays within Discord's limits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord

from bot.cogs.combat.layout import prompt_message
from bot.cogs.combat.views import OUT_OF_DATE
from engine.combat import Prompt, PromptKind
from testbed.harness import ALICE, CHANNEL_ID, GM, Message, Reply, Table
from tests.bot.fights import add_character, copy_npc, start_fight

ROLLERS = [f"Goon {n} rolls" for n in range(1, 31)]


async def _thirty_goons_asked_who_rolls(table: Table, count: int = 30) -> Message:
    """Ana (the PCs' one highest, so she rolls at once) and ``count`` NPC copies of a goon at
    40, all in the Bar, each with its own torso marks (copies alike in everything would be no
    choice: the first would roll): the fight begins and the NPCs are asked which goon rolls;
    that prompt."""
    await add_character(table, "Ana", level=50)
    await add_character(table, "Goon", user=GM, level=40, npc=True)
    await copy_npc(table, "Goon", count)
    await start_fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    for first in range(1, count + 1, 25):
        added = await table.slash("combat addmany", user=GM, area="Bar",
                                  characters=f"Goon {first}-{min(first + 24, count)}")
        assert not added.ephemeral, added.content
    marks = [("\\" * hurt)[:hurt - x] + "X" * x for hurt in range(1, 9) for x in range(hurt + 1)]
    for n in range(1, count + 1):
        set_ = await table.slash("combat set", user=GM, character=f"Goon {n}",
                                 location="torso", marks=marks[n - 1])
        assert not set_.ephemeral, set_.content
    begun = await table.slash("combat begin", user=GM)
    assert not begun.ephemeral, begun.content
    assert "NPCs choose who rolls initiative." in begun.answer.content
    return table.channel_messages()[-1]


def entries(message: Message) -> list[str]:
    return [o["label"] for s in message.selects() for o in s["options"]]


def assert_within_discord_limits(message: Message) -> None:
    """At most 5 rows; a menu alone in its row, with 1-25 entries of unique values, each
    label at most 100 characters, the placeholder at most 150; buttons at most 5 a row."""
    assert len(message.content) <= 2000
    assert 1 <= len(message.components) <= 5
    custom_ids: list[str] = []
    for row in message.components:
        items: list[dict[str, Any]] = row["components"]
        custom_ids += [item["custom_id"] for item in items]
        if any(item["type"] == 3 for item in items):
            assert len(items) == 1, items
            options = items[0]["options"]
            assert 1 <= len(options) <= 25
            assert len({o["value"] for o in options}) == len(options)
            assert all(1 <= len(o["label"]) <= 100 for o in options)
            assert len(items[0].get("placeholder", "")) <= 150
        else:
            assert len(items) <= 5
            assert all(len(item["label"]) <= 80 for item in items)
    assert all(len(custom_id) <= 100 for custom_id in custom_ids)
    assert len(set(custom_ids)) == len(custom_ids)


async def version(table: Table) -> int:
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None
    return fight.version


def picked_goon_27(reply: Reply) -> None:
    """The pick applied: said to the table, Goon 27 rolls for the NPCs."""
    assert not reply.answer.ephemeral, reply.answer.content
    assert reply.said.startswith(
        "NPCs choose Goon 27 to roll initiative.\n"
        "Ana rolls initiative for PCs: 34 (3·4) vs 50 — SUCCESS.\n"
        "Goon 27 rolls initiative for NPCs: 20 (2·0) vs 40 — SUCCESS."), reply.answer.content


async def test_thirty_tied_goons_are_asked_in_menus_and_a_pick_makes_that_one_roll(
        table: Table) -> None:
    asked = await _thirty_goons_asked_who_rolls(table)
    assert asked.content == ("**NPCs (GM)** have more than one fighter at their highest level: "
                             "who rolls initiative?")
    assert "no room" not in asked.content
    assert asked.buttons == []
    assert entries(asked) == ROLLERS  # every goon, in order
    assert [len(s["options"]) for s in asked.selects()] == [25, 5]
    assert [s["placeholder"] for s in asked.selects()] == [
        "NPCs: choose who rolls (1-25 of 30)", "NPCs: choose who rolls (26-30 of 30)"]
    assert_within_discord_limits(asked)

    table.dice(3, 4, 2, 0)  # Ana's tens and ones, then Goon 27's
    picked = await table.pick(asked, "Goon 27 rolls", user=GM)
    picked_goon_27(picked)
    status = await table.slash("combat status", user=GM)
    assert "Waiting for: Ana (choose the order)" in status.content, status.content
    assert table.message(asked.id).selects() == []  # the old prompt loses its menus


async def test_a_pick_by_a_player_who_may_not_answer_is_refused_and_changes_nothing(
        table: Table) -> None:
    asked = await _thirty_goons_asked_who_rolls(table)
    before = await version(table)
    refused = await table.pick(asked, "Goon 27 rolls", user=ALICE)
    assert refused.kind == "message" and refused.ephemeral
    assert refused.content == "NPCs choose who rolls initiative for them: only a GM can."
    assert await version(table) == before
    assert entries(table.message(asked.id)) == ROLLERS  # still there for the GM


async def test_a_menu_of_an_older_version_is_refused(table: Table) -> None:
    asked = await _thirty_goons_asked_who_rolls(table)
    table.dice(3, 4, 2, 0)
    picked_goon_27(await table.pick(asked, "Goon 27 rolls", user=GM))
    after = await version(table)
    late = await table.pick(asked, "Goon 3 rolls", user=GM, stale=True)  # the old menu
    assert late.kind == "message" and late.ephemeral
    assert late.content == OUT_OF_DATE
    assert await version(table) == after


async def test_the_menu_works_after_a_restart(table: Table) -> None:
    asked = await _thirty_goons_asked_who_rolls(table)
    await table.restart(dice=(3, 4, 2, 0))
    picked_goon_27(await table.pick(asked, "Goon 27 rolls", user=GM))


async def test_ten_answers_stay_buttons(table: Table) -> None:
    asked = await _thirty_goons_asked_who_rolls(table, count=10)
    assert asked.labels == ROLLERS[:10] and asked.selects() == []
    assert_within_discord_limits(asked)


async def test_eleven_answers_make_one_menu(table: Table) -> None:
    asked = await _thirty_goons_asked_who_rolls(table, count=11)
    assert asked.buttons == [] and entries(asked) == ROLLERS[:11]
    assert [s["placeholder"] for s in asked.selects()] == ["NPCs: choose who rolls"]
    assert_within_discord_limits(asked)


async def test_when_even_menus_do_not_fit_the_question_points_to_its_command(
        table: Table) -> None:
    """Three questions at once (made up from the fight's own): thirty rollers take two menus,
    thirty blast targets two more, and the reaction's six answers, as buttons (two rows) or a
    menu (a row), would leave no row for the GM's Resolve now: the reaction points to its
    slash command instead."""
    await _thirty_goons_asked_who_rolls(table)
    stored = await table.bot.fights.fight(CHANNEL_ID)
    assert stored is not None
    rollers = stored.state.prompts[0]
    goons = tuple(f.name for f in stored.state.fighters if f.name.startswith("Goon"))
    targets = Prompt(kind=PromptKind.AOE_TARGET, fighter="goon 1", team="NPCs",
                     options=goons)
    react = Prompt(kind=PromptKind.REACT, fighter="goon 2", team="NPCs", options=(
        "defend", "counterattack", "counterattack_less_lethal", "intercept",
        "intercept_less_lethal", "pass"))
    crowded = replace(stored, state=stored.state.model_copy(
        update={"prompts": (rollers, targets, react)}))
    content, view, _ = prompt_message(crowded)
    assert view is not None
    shown = message_of(content, view)
    assert content.splitlines()[-1] == (
        "**Goon 2 (GM)** may react before the dice are rolled: no room for more buttons, use "
        "`/defend, /counterattack or /intercept`.")
    assert entries(shown) == [*ROLLERS, *(f"Goon 1: Hit {name}" for name in goons)]
    assert shown.labels == ["Resolve now (GM)"]
    assert_within_discord_limits(shown)


def message_of(content: str, view: discord.ui.View) -> Message:
    """The message Discord would show for ``content`` and ``view``."""
    return Message(id=0, channel_id=CHANNEL_ID, content=content, ephemeral=False,
                   components=tuple(view.to_components()))
