"""/roll as a player sees it, through the real dispatch path."""

from __future__ import annotations

import re

import pytest

from testbed.harness import ALICE, BOB, GM, Table, User
from tests.bot.fights import start_fight

#: The Adjust form's field, by its label, for a roll against 40.
FIELD = "Set the roll to (1-40)"


async def test_plain_roll_shows_value_level_outcome_and_degrees(table: Table) -> None:
    table.dice(3, 4)
    reply = await table.slash("roll", level=40)
    assert reply.kind == "message" and not reply.ephemeral
    assert ALICE.mention in reply.content
    assert "**34** (3·4) — SUCCESS · degrees 3 and 4" in reply.content
    assert "vs **40**" in reply.content
    assert reply.message.buttons == []


async def test_good_roll_offers_rerolls_and_shows_both_rolls_after_the_choice(table: Table) -> None:
    table.dice(7, 2)
    reply = await table.slash("roll", level=40, good=True)
    assert "**72** (7·2) — FAILURE" in reply.content
    assert reply.message.labels == ["Re-roll tens", "Re-roll ones", "Re-roll both", "Keep"]
    table.dice(3)
    after = await table.click(reply.message, "Re-roll tens")
    assert after.kind == "update"
    assert "First roll: ~~72 (7·2)~~ FAILURE" in after.content
    assert "Re-rolled tens: **32** (3·2) — SUCCESS · degrees 3 and 2" in after.content
    assert after.message.buttons == []


async def test_keep_ends_the_roll(table: Table) -> None:
    table.dice(3, 4)
    reply = await table.slash("roll", level=40, good=True)
    after = await table.click(reply.message, "Keep")
    assert "**34** (3·4) — SUCCESS" in after.content and "Re-rolled" not in after.content
    assert after.message.buttons == []


async def test_only_the_roller_may_press_and_nothing_changes(table: Table) -> None:
    table.dice(7, 2)
    reply = await table.slash("roll", level=40, good=True)
    refused = await table.click(reply.message, "Re-roll both", user=BOB)
    assert refused.ephemeral
    assert f"Only {ALICE.mention} can decide this roll." == refused.content
    assert table.message(reply.message.id).content == reply.content
    assert table.message(reply.message.id).labels == reply.message.labels


async def test_no_reroll_buttons_on_a_critical_failure(table: Table) -> None:
    table.dice(6, 6)
    reply = await table.slash("roll", level=40, good=True)
    assert "CRITICAL FAILURE" in reply.content
    assert reply.message.buttons == []


async def test_critical_success_extra_action(table: Table) -> None:
    table.dice(2, 2)
    reply = await table.slash("roll", level=40)
    assert "CRITICAL SUCCESS" in reply.content
    assert reply.message.labels == ["Extra action", "Adjust"]
    after = await table.click(reply.message, "Extra action")
    assert "Took an extra action." in after.content
    assert after.message.buttons == []


async def test_critical_success_adjust_asks_for_a_value_and_refuses_too_high(table: Table) -> None:
    table.dice(1, 1)
    reply = await table.slash("roll", level=40, note="pick the lock")
    modal_reply = await table.click(reply.message, "Adjust")
    assert modal_reply.kind == "modal"
    assert modal_reply.modal is not None and "Set the roll to (1-40)" in modal_reply.modal.fields
    too_high = await table.submit(modal_reply.modal, {"Set the roll to (1-40)": "41"},
                                  message=reply.message)
    assert too_high.ephemeral and "1-40, not 41" in too_high.content
    assert table.message(reply.message.id).labels == ["Extra action", "Adjust"]
    done = await table.submit(modal_reply.modal, {"Set the roll to (1-40)": "38"},
                              message=reply.message)
    assert "Adjusted to **38** (3·8) — SUCCESS · degrees 3 and 8" in done.content
    assert done.message.buttons == []


@pytest.mark.parametrize("typed", ["²", "①", "٣", "3²", "+-4", "9" * 5000, "x" * 6000])
async def test_adjust_reads_plain_digits_only_and_refuses_anything_else_briefly(
    table: Table, typed: str
) -> None:
    """"²" and "①" are digits to Python's isdigit but not to int(); a forged submit may be
    far longer than the form's two characters."""
    table.dice(1, 1)
    reply = await table.slash("roll", level=40)
    before = table.message(reply.message.id)
    opened = await table.click(reply.message, "Adjust")
    refused = await table.submit(opened.modal, {FIELD: typed}, message=reply.message)
    assert refused.kind == "message" and refused.ephemeral
    assert refused.content.endswith("” is not a number.") and len(refused.content) <= 100
    assert refused.content.startswith(f"“{typed[:5]}")
    assert table.message(reply.message.id) == before  # nothing changed, buttons still there
    done = await table.submit(opened.modal, {FIELD: " 07 "}, message=reply.message)
    assert "Adjusted to **7** (0·7)" in done.content


async def test_good_then_critical_success_offers_the_critical_choice(table: Table) -> None:
    table.dice(9, 1)
    reply = await table.slash("roll", level=40, good=True)
    table.dice(1)
    after = await table.click(reply.message, "Re-roll tens")
    assert "Re-rolled tens: **11** (1·1) — CRITICAL SUCCESS" in after.content
    assert after.message.labels == ["Extra action", "Adjust"]


async def test_opposed_roll_names_the_winner(table: Table) -> None:
    table.dice(3, 4, 6, 2)
    reply = await table.slash("roll", level=40, against=25)
    assert "Other side vs 25: **62** (6·2) — FAILURE" in reply.content
    assert f"**Winner: {ALICE.mention}**" in reply.content
    table.dice(3, 0, 3, 0)
    tie = await table.slash("roll", level=40, against=40)
    assert "**Tie at 30**" in tie.content
    table.dice(8, 0, 9, 0)
    both = await table.slash("roll", level=40, against=40)
    assert "nobody wins" in both.content


async def test_opposed_winner_waits_for_the_good_reroll(table: Table) -> None:
    table.dice(7, 2, 2, 0)
    reply = await table.slash("roll", level=40, against=30, good=True)
    assert "Winner" not in reply.content
    table.dice(3)
    after = await table.click(reply.message, "Re-roll tens")
    assert f"**Winner: {ALICE.mention}**" in after.content  # 32 beats 20


async def test_note_never_pings(table: Table) -> None:
    table.dice(3, 4)
    reply = await table.slash("roll", level=40, note="@everyone <@&123> look")
    assert "@everyone" in reply.content
    assert reply.message.allowed_mentions == {"parse": []}  # nobody, no role, no @everyone


async def test_a_second_click_on_a_used_button_is_refused(table: Table) -> None:
    table.dice(7, 2)
    reply = await table.slash("roll", level=40, good=True)
    stale = reply.message  # the message as it was, buttons and all
    table.dice(3)
    await table.click(stale, "Re-roll tens")
    again = await table.click_stale(stale, "Re-roll ones")
    assert again.ephemeral and "already settled" in again.content
    assert "**32**" in table.message(stale.id).content


async def test_buttons_work_after_a_restart(table: Table) -> None:
    table.dice(7, 2)
    reply = await table.slash("roll", level=40, good=True)
    await table.restart(dice=[1, 5])
    after = await table.click(reply.message, "Re-roll both")
    assert "Re-rolled both: **15** (1·5) — SUCCESS" in after.content


async def test_an_adjust_form_left_open_across_a_restart_still_works(table: Table) -> None:
    table.dice(1, 1)
    reply = await table.slash("roll", level=40)
    opened = await table.click(reply.message, "Adjust")
    await table.restart()
    other = await table.submit(opened.modal, {"Set the roll to (1-40)": "30"}, user=BOB,
                               message=reply.message)
    assert other.ephemeral and other.content == f"Only {ALICE.mention} can decide this roll."
    typo = await table.submit(opened.modal, {"Set the roll to (1-40)": "3o"}, message=reply.message)
    assert typo.ephemeral and typo.content == "“3o” is not a number."
    done = await table.submit(opened.modal, {"Set the roll to (1-40)": "39"}, message=reply.message)
    assert done.kind == "update"
    assert "Adjusted to **39** (3·9) — SUCCESS · degrees 3 and 9" in done.content
    again = await table.submit(opened.modal, {FIELD: "12"}, message=reply.message)
    assert again.ephemeral and "already settled" in again.content
    assert "**39**" in table.message(reply.message.id).content


async def test_unexpected_errors_give_a_reference_and_are_logged(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(**_: object) -> None:
        raise RuntimeError("disk on fire")

    table.bot.store.rolls.add = broken  # type: ignore[method-assign,assignment]
    table.dice(3, 4)
    reply = await table.slash("roll", level=40)
    assert reply.ephemeral
    match = re.search(r"ref `([0-9A-F]{6})`", reply.content)
    assert match, reply.content
    logged = [r for r in caplog.records if match.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None
    assert "disk on fire" in str(logged[0].exc_info[1])


@pytest.mark.parametrize(("options", "problem"), [
    ({"level": 0}, "The `level` option takes a number from 1 to 99; it got 0."),
    ({"level": 100}, "The `level` option takes a number from 1 to 99; it got 100."),
    ({"level": 40, "against": 100},
     "The `against` option takes a number from 1 to 99; it got 100."),
])
async def test_a_level_out_of_range_is_a_clear_refusal(
    table: Table, options: dict[str, int], problem: str
) -> None:
    # Discord enforces the declared 1-99; a client with stale commands may still send more.
    table.dice(3, 4, 5, 6)
    reply = await table.slash("roll", **options)
    assert reply.ephemeral and reply.content == f"{problem} Nothing was changed."
    assert table.channel_messages() == []


# -- rolling with a non-combat ability ---------------------------------------------------------


async def _good_at(table: Table, name: str, *activities: str, user: User = ALICE,
                   level: int = 60, npc: bool = False) -> None:
    made = await table.slash("character create", user=user, name=name, level=level, npc=npc)
    assert not made.ephemeral, made.content
    for activity in activities:
        added = await table.slash("character ability add", user=user, character=name,
                                  ability=f"good at {activity}")
        assert not added.ephemeral, added.content


async def test_ability_offers_the_rollers_own_good_at_abilities(table: Table) -> None:
    await _good_at(table, "Ana", "lockpicking", "forensics")
    await _good_at(table, "Bo", "climbing", user=BOB)
    assert await table.autocomplete("roll", "ability") == [
        "Good at lockpicking (Ana)", "Good at forensics (Ana)"]
    assert await table.autocomplete("roll", "ability", ability="good at lock") == [
        "Good at lockpicking (Ana)"]
    assert await table.autocomplete("roll", "ability", user=BOB) == ["Good at climbing (Bo)"]
    # Named with as:, only that character's, and only a character the user may roll as.
    assert await table.autocomplete("roll", "ability", **{"as": "Ana"}) == [
        "Good at lockpicking", "Good at forensics"]
    assert await table.autocomplete("roll", "ability", user=BOB, **{"as": "Ana"}) == []
    assert await table.autocomplete("roll", "as", user=BOB) == ["Bo"]
    # A GM rolls as anyone.
    assert await table.autocomplete("roll", "ability", user=GM, ability="climb") == [
        "Good at climbing (Bo)"]


async def test_ability_makes_the_roll_good_at_the_characters_level(table: Table) -> None:
    await _good_at(table, "Ana", "lockpicking", level=60)
    [choice] = await table.autocomplete_choices("roll", "ability", ability="lock")
    assert choice["value"] == "Ana: lockpicking"
    table.dice(7, 2)
    reply = await table.slash("roll", ability=choice["value"], note="the safe")
    assert reply.kind == "message" and not reply.ephemeral
    assert reply.content.splitlines()[0] == (
        f"🎲 {ALICE.mention} rolls as **Ana** vs **60** (good at lockpicking) — the safe")
    assert reply.message.labels == ["Re-roll tens", "Re-roll ones", "Re-roll both", "Keep"]
    table.dice(3)
    after = await table.click(reply.message, "Re-roll tens")
    assert "Re-rolled tens: **32** (3·2) — SUCCESS" in after.content
    assert "as **Ana** vs **60** (good at lockpicking)" in after.content


async def test_typed_ability_and_level_and_as(table: Table) -> None:
    await _good_at(table, "Ana", "lockpicking")
    table.dice(7, 2)
    reply = await table.slash("roll", level=35, ability="Good at LOCKPICKING")
    assert "rolls as **Ana** vs **35** (good at lockpicking)" in reply.content
    table.dice(1, 2)
    plain = await table.slash("roll", **{"as": "Ana"})
    assert "rolls as **Ana** vs **60**" in plain.content and "good" not in plain.content
    assert plain.message.buttons == []


async def test_refusals_say_why_and_roll_nothing(table: Table) -> None:
    refused = await table.slash("roll", ability="lockpicking")
    assert refused.ephemeral and "You have no character on this server" in refused.content
    await _good_at(table, "Ana", "lockpicking")
    await _good_at(table, "Bo", "climbing", user=BOB)
    refused = await table.slash("roll", ability="climbing")  # Alice's one character
    assert refused.ephemeral and refused.content.startswith(
        "Ana is not good at climbing; Ana is good at lockpicking."), refused.content
    refused = await table.slash("roll", user=GM, ability="swimming")  # a GM's: all of them
    assert refused.ephemeral and "None of your characters is good at “swimming”" in (
        refused.content)
    refused = await table.slash("roll", ability="climbing", **{"as": "Ana"})
    assert refused.ephemeral and refused.content.startswith(
        "Ana is not good at climbing; Ana is good at lockpicking."), refused.content
    refused = await table.slash("roll", ability="climbing", **{"as": "Bo"})
    assert refused.ephemeral and "**Bo** is not yours to roll as" in refused.content
    refused = await table.slash("roll", user=GM)  # no PC of their own
    assert refused.ephemeral and "Say the level to roll against" in refused.content
    assert "you have no PC on this server" in refused.content
    refused = await table.slash("roll", ability="lockpicking", guild=None)
    assert refused.ephemeral and "Characters live on a server" in refused.content


async def test_two_characters_good_at_the_same_need_a_choice(table: Table) -> None:
    await _good_at(table, "Ana", "lockpicking")
    await _good_at(table, "Cy", "lockpicking")
    assert await table.autocomplete("roll", "ability") == [
        "Good at lockpicking (Ana)", "Good at lockpicking (Cy)"]
    refused = await table.slash("roll", ability="lockpicking")
    assert refused.ephemeral and "**Ana** and **Cy** are all good at that" in refused.content
    table.dice(1, 2)
    reply = await table.slash("roll", ability="Cy: lockpicking")
    assert "rolls as **Cy** vs **60** (good at lockpicking)" in reply.content


async def test_an_unconscious_character_s_ability_has_no_effect(table: Table) -> None:
    await _good_at(table, "Ana", "lockpicking")
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    knocked = found.character.model_copy(update={"level": 5})
    await table.bot.store.characters.replace(found, knocked)
    refused = await table.slash("roll", ability="lockpicking")
    assert refused.ephemeral and refused.content.startswith(
        "Ana is unconscious: none of their abilities have an effect."), refused.content


async def test_a_roll_with_no_options_is_against_the_players_one_pc(table: Table) -> None:
    """The level of the one PC the player has: a fight's copy while a fight holds it."""
    await _good_at(table, "Ana", level=44)
    table.dice(1, 2)
    reply = await table.slash("roll")
    assert not reply.ephemeral
    assert reply.content.splitlines()[0] == f"🎲 {ALICE.mention} rolls as **Ana** vs **44**"
    await table.slash("character create", user=GM, name="Goon", npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await table.slash("combat set", user=GM, character="Ana", level=30)
    table.dice(1, 2)
    hurt = await table.slash("roll")
    assert "rolls as **Ana** vs **30**" in hurt.content


async def test_a_roll_with_no_options_asks_which_of_several_pcs(table: Table) -> None:
    await _good_at(table, "Ana")
    await _good_at(table, "Cy")
    await table.slash("character create", user=GM, name="Goon", npc=True)
    posted = len(table.channel_messages())
    refused = await table.slash("roll")
    assert refused.ephemeral and refused.content == (
        "Say the level to roll against (`level:`), or who rolls (`as:`): you have 2 PCs "
        "(**Ana**, **Cy**).")
    assert len(table.channel_messages()) == posted
