"""The fight in view and the team's turn at the table: the pinned board, a fight in a thread of
its own, the turn line that pings exactly the players who can act (once a turn), its Done and
My options buttons, and the My options panel that starts an action."""

from __future__ import annotations

import discord

from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character, ana_and_goon_on_the_dance_floor, begin_pcs_first


def _board(table: Table, channel: int = CHANNEL_ID) -> Message:
    return next(m for m in table.channel_messages(channel) if m.content.startswith("```"))


def _turn(table: Table, channel: int = CHANNEL_ID) -> Message:
    """The newest message with the turn's buttons."""
    return next(m for m in reversed(table.channel_messages(channel)) if "My options" in m.labels)


def _pinged(message: Message) -> list[int]:
    assert message.allowed_mentions is not None
    return sorted(int(u) for u in message.allowed_mentions.get("users", []))


# -- the board in view -------------------------------------------------------------------------


async def test_the_board_is_pinned_while_the_fight_lasts(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    board = _board(table)
    assert table.pins[CHANNEL_ID] == [board.id]

    await table.slash("combat end", user=GM)
    assert table.pins[CHANNEL_ID] == []


async def test_without_the_pin_permission_the_board_is_not_pinned_and_it_says_why(
        table: Table) -> None:
    table.app_permissions = discord.Permissions.all() & ~discord.Permissions(pin_messages=True)
    asked = await table.slash("combat start", user=GM, map="Nightclub", pin=True)
    assert asked.ephemeral
    assert asked.content == (
        "I can't start that fight: I lack the **Pin Messages** permission here. Ask a server "
        "admin to grant it, or start with `pin:False` to leave the board unpinned. Nothing was "
        "changed.")
    assert (await table.slash("combat status")).content.startswith("There is no fight")

    await add_character(table, "Goon", user=GM, level=25, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub")
    assert not started.ephemeral
    assert started.answer.content.endswith(
        "\n-# The board is not pinned: I lack the **Pin Messages** permission here.")
    added = await table.slash("combat add", user=GM, character="Goon", area="Bar")
    assert not added.ephemeral
    assert "Goon" in _board(table).content
    assert table.pins.get(CHANNEL_ID, []) == []


async def test_a_fight_in_a_thread_of_its_own_posts_its_result_back(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    started = await table.slash("combat start", user=GM, map="Nightclub", thread=True)
    [thread] = table.threads
    assert table.threads[thread] == CHANNEL_ID
    assert started.answer.content.startswith(f"⚔️ A fight starts on **nightclub** in <#{thread}>")
    assert (await table.slash("combat status")).content.startswith("There is no fight")

    await table.slash("combat add", user=ALICE, character="Ana", area="Dance Floor",
                      channel=thread)
    await table.slash("combat add", user=GM, character="Goon", area="Dance Floor",
                      channel=thread)
    board = _board(table, thread)
    assert "Ana" in board.content
    assert table.pins[thread] == [board.id]
    assert not any(m.content.startswith("```") for m in table.channel_messages())

    await table.slash("combat end", user=GM, channel=thread)
    back = table.channel_messages()[-1]
    assert back.content.startswith(f"The fight in <#{thread}> is over.")
    assert table.pins[thread] == []


async def test_a_thread_needs_the_thread_permissions(table: Table) -> None:
    table.app_permissions = discord.Permissions.all() & ~discord.Permissions(
        create_public_threads=True)
    refused = await table.slash("combat start", user=GM, map="Nightclub", thread=True)
    assert refused.ephemeral
    assert "I lack the **Create Public Threads** permission here" in refused.content
    assert "no `thread:` to fight in this channel" in refused.content
    assert table.threads == {}


async def test_a_german_gm_reads_the_missing_permissions_as_discord_names_them(
        table: Table) -> None:
    table.guild_locale = table.locales[GM.id] = "de"
    table.app_permissions = discord.Permissions.all() & ~discord.Permissions(
        create_public_threads=True)
    refused = await table.slash("combat start", user=GM, map="Nightclub", thread=True)
    assert "Berechtigung **Öffentliche Threads erstellen**." in refused.content
    assert "Create Public Threads" not in refused.content
    assert table.threads == {}


# -- the team's turn ---------------------------------------------------------------------------


async def _three_fighters(table: Table) -> None:
    """Ana (Alice) and Bo (Bob) against Goon (GM), PCs acting."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bo", user=BOB, level=30)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, user in (("Ana", ALICE), ("Bo", BOB), ("Goon", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    await begin_pcs_first(table)


async def test_the_turn_pings_exactly_the_players_who_can_act_once(table: Table) -> None:
    await _three_fighters(table)
    turn = _turn(table)
    assert turn.content.startswith(
        f"**Round 1, the PCs' turn:** Ana ({ALICE.mention}), Bo ({BOB.mention})")
    assert _pinged(turn) == sorted([ALICE.id, BOB.id])  # not the GM, nobody else
    assert turn.labels[:2] == ["My options", "Done (PCs)"]

    moved = await table.slash("move", user=BOB, to="Bar")
    assert "My options" not in moved.prompt.labels  # Goon may react: the turn waits
    await table.click(moved.prompt, "Resolve now (GM)", user=GM)
    again = _turn(table)
    assert again.id != turn.id
    assert again.content.startswith(f"**Round 1, the PCs' turn:** Ana ({ALICE.mention})")
    assert _pinged(again) == []  # the same turn: shown again, nobody pinged twice

    done = await table.click(again, "Done (PCs)", user=ALICE)
    assert "PCs are done." in done.posted("PCs are done.").content
    npcs = _turn(table)
    assert npcs.content.startswith("**Round 1, the NPCs' turn:** Goon (GM)")
    assert _pinged(npcs) == []


async def test_done_by_a_player_of_the_other_team_is_refused(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Cy", user=BOB, level=30)
    await table.slash("combat start", user=GM, map="Nightclub")
    await table.slash("combat add", user=ALICE, character="Ana", area="Dance Floor")
    await table.slash("combat add", user=BOB, character="Cy", area="Bar", team="Rivals")
    await begin_pcs_first(table)
    turn = _turn(table)

    refused = await table.click(turn, turn.labels[1], user=BOB)
    assert refused.ephemeral
    assert "only their players (or a GM) can end it" in refused.content
    assert _turn(table).id == turn.id  # nothing changed

    stale = await table.click(turn, turn.labels[1], user=ALICE)
    assert not stale.ephemeral
    late = await table.click_stale(turn, "My options", user=ALICE)
    assert late.ephemeral
    assert late.content == "That turn is over: use the newest buttons."


async def test_my_options_starts_an_attack_for_just_that_player(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    turn = _turn(table)

    bob = await table.click(turn, "My options", user=BOB)
    assert bob.ephemeral
    assert bob.content == "None of your characters can act now: it is the PCs' turn."

    mine = await table.click(turn, "My options", user=ALICE)
    assert mine.ephemeral
    assert mine.content == "What will **Ana** do? (1 action left this round)"
    menus = mine.message.selects()
    attack = menus[0]
    assert attack["placeholder"] == "Attack…"
    labels = [o["label"] for o in attack["options"]]
    assert any(label.startswith("Goon") for label in labels), labels

    value = next(o["value"] for o in attack["options"] if o["label"].startswith("Goon"))
    chosen = await table.choose(mine.message, [value], user=ALICE)
    # The panel shows what is left (nothing: Ana's one action is spent)...
    assert chosen.kind == "update" and chosen.answer.id == mine.message.id
    assert chosen.answer.content == ("Started: Ana attacks Goon with Knife.\n"
                                     "-# **Ana** has no action left this round.")
    assert chosen.answer.selects() == []
    # ...and the table is told what Ana does.
    told = chosen.messages[1]
    assert told.content.startswith("Ana attacks Goon with Knife.") and not told.ephemeral

    again = await table.choose_stale(mine.message, [value], user=ALICE)  # a stale client
    assert again.ephemeral
    assert again.content == "Ana can't do that now: the fight has moved on. Press **My " \
                            "options** again."


async def test_the_gm_acts_for_an_npc_from_my_options(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    await table.click(_turn(table), "Done (PCs)", user=ALICE)
    turn = _turn(table)

    panel = await table.click(turn, "My options", user=GM)
    assert panel.ephemeral
    assert panel.content == "What will **Goon** do? (1 action left this round)"
    move = next(m for m in panel.message.selects() if m["placeholder"].startswith("Move"))
    bar = next(o["value"] for o in move["options"] if o["label"] == "Bar")
    moved = await table.choose(panel.message, [bar], user=GM,
                               index=panel.message.selects().index(move))
    assert moved.answer.content == ("Started: Goon moves from Dance Floor to Bar.\n"
                                    "-# **Goon** has no action left this round.")
    assert not moved.messages[1].ephemeral
    assert moved.messages[1].content.startswith("Goon moves from Dance Floor to Bar.")


async def test_the_turn_buttons_work_after_a_restart(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    turn = _turn(table)
    await table.restart()

    mine = await table.click(turn, "My options", user=ALICE)
    assert mine.content == "What will **Ana** do? (1 action left this round)"
    done = await table.click(turn, "Done (PCs)", user=ALICE)
    assert done.posted("PCs are done.").id != turn.id


async def test_a_gm_with_several_npcs_to_act_switches_between_their_options(
        table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Rat", user=GM, level=20, npc=True, weapon=None)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, user in (("Ana", ALICE), ("Goon", GM), ("Rat", GM)):
        await table.slash("combat add", user=user, character=name, area="Dance Floor")
    await begin_pcs_first(table)
    await table.click(_turn(table), "Done (PCs)", user=ALICE)

    panel = await table.click(_turn(table), "My options", user=GM)
    assert panel.content == "What will **Goon** do? (1 action left this round)"
    who = panel.message.selects()[0]
    assert who["placeholder"] == "Whose options?"
    assert [(o["label"], o.get("default", False)) for o in who["options"]] == [
        ("Goon", True), ("Rat", False)]
    rat = next(o["value"] for o in who["options"] if o["label"] == "Rat")

    switched = await table.choose(panel.message, [rat], user=GM)
    assert switched.kind == "update"
    assert switched.content == "What will **Rat** do? (1 action left this round)"
    menus = [s["placeholder"] for s in switched.message.selects()]
    assert menus == ["Whose options?", "Move or a door…"]  # no weapon: nothing to attack with
    refused = await table.choose(switched.message, [rat], user=ALICE)
    assert refused.ephemeral
    assert refused.content == "That character can't act now: press **My options** again."


async def test_a_restart_does_not_ping_a_turn_again(table: Table) -> None:
    await _three_fighters(table)
    assert _pinged(_turn(table)) == sorted([ALICE.id, BOB.id])
    await table.restart()

    moved = await table.slash("move", user=BOB, to="Bar")
    await table.click(moved.prompt, "Resolve now (GM)", user=GM)
    again = _turn(table)
    assert again.content.startswith(f"**Round 1, the PCs' turn:** Ana ({ALICE.mention})")
    assert _pinged(again) == []
