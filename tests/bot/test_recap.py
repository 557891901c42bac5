"""After a fight: the recap in the channel, and the whole log as a file for whoever asks."""

from __future__ import annotations

import pytest

from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, OTHER_GUILD_ID, Message, Reply, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight
from tests.bot.test_fight_faults import _http_error

pytestmark = pytest.mark.both_engines


async def _ana_against_goon(table: Table, goon_level: int) -> Reply:
    """Ana (40, Alice's) attacks Goon (an NPC) on the dance floor and hits with 35: the
    choice of the damage die is up."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=goon_level, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 5)
    return await table.click(declared.prompt, "Pass", user=GM)


def _recaps(table: Table) -> list[Message]:
    return [m for m in table.channel_messages() if m.content.startswith("🏁")]


async def test_the_fights_end_posts_a_recap_and_the_log_file_button_gives_the_log(
    table: Table,
) -> None:
    passed = await _ana_against_goon(table, goon_level=12)
    await table.click(passed.prompt, "5 damage · 3: right leg", user=ALICE)  # Goon: 12 → 7

    [recap] = _recaps(table)
    assert recap.content == (
        "🏁 **Fight recap** · nightclub\n"
        "PCs win after 1 round.\n"
        "Out of action: Goon (knocked out by Ana, round 1).\n"
        "Damage:\n"
        "Ana (PCs): dealt 5, took 0\n"
        "Goon (NPCs): dealt 0, took 5\n"
        "-# Next: `/combat start` starts another fight."  # Ana has nothing to recover
    )
    assert recap.labels == ["Log file"]
    assert recap.allowed_mentions is not None and recap.allowed_mentions["parse"] == []

    asked = await table.click(recap, "Log file", user=BOB)  # anyone at the table may ask
    assert asked.ephemeral
    assert asked.content == "📜 The whole log of the fight on nightclub: 17 events."
    [(name, log)] = asked.message.files.items()
    assert name.endswith("-log.txt")
    lines = log.splitlines()
    assert lines[0] == "Unhex fight on nightclub (fight 1)"
    assert lines.index("== Round 1 ==") < lines.index(
        "Ana attacks Goon with Knife: 35 (3·5) vs 40 — SUCCESS.")
    assert "Goon takes 5 damage to the right leg: level 12 → 7. Marked 5 on the right leg. " \
           "Goon is unconscious." in lines
    assert "Only PCs are left standing. Combat over after round 1." in lines
    assert "  Goon (NPCs): level 7/12, unconscious, wounds: right leg \\\\\\\\\\." in lines

    # The button still answers after a restart, and the recap is not posted again.
    await table.restart()
    again = await table.click(recap, "Log file", user=ALICE)
    assert again.ephemeral and again.message.files == asked.message.files
    assert len(_recaps(table)) == 1


async def test_an_undone_hit_leaves_the_tally_and_is_marked_in_the_log(table: Table) -> None:
    passed = await _ana_against_goon(table, goon_level=25)
    await table.click(passed.prompt, "5 damage · 3: right leg", user=ALICE)  # Goon: 25 → 20
    undone = await table.slash("combat undo", user=GM)
    assert "Undid" in undone.answer.content
    await table.click(table.channel_messages()[-1], "3 damage · 5: torso", user=ALICE)

    asked = await table.slash("combat log", user=BOB, file=True)
    assert asked.ephemeral
    [log] = asked.message.files.values()
    assert "(undone) Ana chooses 5 for damage and 3 for location (right leg)." in log
    assert "(undone) Goon takes 5 damage to the right leg: level 25 → 20. Marked 5 on the " \
           "right leg." in log
    assert "Goon takes 3 damage to the torso: level 25 → 22. Marked 3 on the torso." in log
    short = await table.slash("combat log", user=BOB)  # the last lines, as before
    assert short.ephemeral and not short.message.files
    assert "Goon takes 3 damage to the torso" in short.content

    await table.slash("combat end", user=GM)
    [recap] = _recaps(table)
    assert recap.content.splitlines()[1:] == [
        "The GM ended the fight in round 1. Still standing: PCs, NPCs.",
        "Damage:",
        "Ana (PCs): dealt 3, took 0",
        "Goon (NPCs): dealt 0, took 3",
        "-# Next: `/combat start` starts another fight.",
    ]
    ended = await table.slash("combat log", file=True)
    assert ended.ephemeral and "no fight" in ended.content  # the recap's button has it now


async def test_a_log_file_button_answers_only_on_its_server(table: Table) -> None:
    passed = await _ana_against_goon(table, goon_level=12)
    await table.click(passed.prompt, "5 damage · 3: right leg", user=ALICE)
    [recap] = _recaps(table)
    elsewhere = await table.click(recap, "Log file", user=BOB, guild=OTHER_GUILD_ID)
    assert elsewhere.ephemeral and not elsewhere.message.files
    assert elsewhere.content == "That fight's log is not on this server."


async def test_the_recap_is_posted_once_when_discord_fails_right_after_it(table: Table) -> None:
    passed = await _ana_against_goon(table, goon_level=25)
    await table.click(passed.prompt, "5 damage · 3: right leg", user=ALICE)
    await table.slash("combat set", user=GM, character="Ana", level=36)  # she may recover

    async def down_after_the_recap() -> None:
        if _recaps(table):
            raise _http_error(503)

    table.channel_faults[CHANNEL_ID] = down_after_the_recap
    await table.slash("combat end", user=GM)
    offers = [m for m in table.channel_messages() if "may recover" in m.content]
    assert len(_recaps(table)) == 1 and offers == []
    table.channel_faults.clear()
    for task in list(table.bot.fights.presenter._retries.values()):
        task.cancel()
    await table.restart()  # the fight's end is shown again: the recap is found, not repeated
    offers = [m for m in table.channel_messages() if "may recover" in m.content]
    assert len(_recaps(table)) == 1 and len(offers) == 1


async def test_the_short_log_strikes_through_what_was_undone(table: Table) -> None:
    passed = await _ana_against_goon(table, goon_level=25)
    await table.click(passed.prompt, "5 damage · 3: right leg", user=ALICE)  # Goon: 25 → 20
    await table.slash("combat undo", user=GM)
    await table.click(table.channel_messages()[-1], "3 damage · 5: torso", user=ALICE)

    short = await table.slash("combat log", user=BOB)
    lines = short.content.splitlines()
    assert "\\~" not in short.content  # real Markdown strike marks, not escaped ones
    assert "~~Ana chooses 5 for damage and 3 for location (right leg).~~" in lines
    assert ("~~Goon takes 5 damage to the right leg: level 25 → 20. Marked 5 on the right "
            "leg.~~") in lines
    assert "Goon takes 3 damage to the torso: level 25 → 22. Marked 3 on the torso." in lines
    assert all(line.count("~~") in (0, 2) for line in lines)  # struck within each line
