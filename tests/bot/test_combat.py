"""Fights through the real dispatch path: slash commands and buttons, as the table sees them."""

from __future__ import annotations

import pytest

from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Table
from tests.bot.fights import (
    add_character,
    ana_and_goon_on_the_dance_floor,
    begin_pcs_first,
    give_ammo,
    start_fight,
)

pytestmark = pytest.mark.both_engines


async def test_initiative_example_pcs_win_and_let_the_npcs_go_first(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Bar"), user_of={"Ana": ALICE})
    table.dice(3, 4, 6, 2)  # PCs' highest (40) rolls 34, NPCs' highest (25) rolls 62
    begun = await table.slash("combat begin", user=GM)
    text = begun.answer.content
    assert "Ana rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in text, text
    assert "Goon rolls initiative for NPCs: 62 (6·2) vs 25 — FAILURE." in text, text
    assert "PCs win initiative and choose which team goes first." in text, text
    prompt = table.channel_messages()[-1]
    assert "which team goes first" in prompt.content
    assert ALICE.mention in prompt.content
    refused = await table.click(prompt, "NPCs first", user=BOB)
    assert refused.ephemeral
    chosen = await table.click(prompt, "NPCs first", user=ALICE)
    assert "PCs choose the order: NPCs, then PCs." in chosen.answer.content
    assert "Turn: NPCs." in chosen.answer.content
    board = await table.slash("combat status")
    assert board.content.startswith("```text\nRound 1 · turn · NPCs acting"), board.content
    assert "Waiting for: Goon (act)" in board.content


async def test_a_whole_fight_from_start_to_an_unconscious_team(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=12, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)

    declared = await table.slash("attack", target="Goon")  # Alice's only character: Ana
    assert "Ana attacks Goon" in declared.answer.content
    window = declared.posted("may react")
    assert "Goon (GM)" in window.content
    assert window.labels == ["Defend", "Counterattack", "Counterattack (less-lethal)", "Pass",
                             "Resolve now (GM)"]
    green, grey = 3, 2  # Discord's button styles: a reaction stands out, Pass does not
    assert [b.style for b in window.buttons] == [green, green, green, grey, grey]
    refused = await table.click(window, "Pass", user=BOB)
    assert refused.ephemeral  # Bob does not run the NPCs
    assert "Only a GM can give orders to Goon." in refused.content, refused.content

    table.dice(3, 5)  # Ana rolls 35 against 40: a hit
    passed = await table.click(window, "Pass", user=GM)
    assert "35 (3·5) vs 40" in passed.answer.content
    choice = passed.prompt
    assert "Ana" in choice.content
    assert choice.labels == ["3 damage · 5: torso", "5 damage · 3: right leg"]

    hit = await table.click(choice, "5 damage · 3: right leg", user=ALICE)
    text = "\n".join(m.content for m in hit.messages)
    assert "12 → 7" in text, text
    assert "unconscious" in text.lower()
    assert "ended" in text.lower() or "over" in text.lower(), text
    # the fight is over: the channel is free, and Goon's sheet keeps the damage
    status = await table.slash("combat status")
    assert status.ephemeral and "no fight" in status.content
    sheet = await table.slash("sheet", character="Goon")
    assert "Level 7/12" in sheet.content, sheet.content


async def test_after_the_fight_each_pc_is_offered_recovery(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    table.dice(8, 0, 2, 0)  # the NPCs win initiative with 20
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=GM)
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    table.dice(2, 4)
    hit = await table.click(declared.prompt, "Pass", user=ALICE)
    await table.click(hit.prompt, "4 damage · 2: right leg", user=GM)
    ended = await table.slash("combat end", user=GM)
    offer = ended.prompt
    assert "Ana" in offer.content and "may recover: level 36 → 40" in offer.content
    assert offer.labels == ["Recover Ana"]
    refused = await table.click(offer, "Recover Ana", user=BOB)
    assert refused.ephemeral and "belongs to" in refused.content
    recovered = await table.click(offer, "Recover Ana", user=ALICE)
    assert "Ana recovers: level 36 → 40" in recovered.content
    assert recovered.message.buttons == []
    twice = await table.click_stale(offer, "Recover Ana", user=ALICE)
    assert twice.ephemeral
    sheet = await table.slash("sheet", character="Ana")
    assert "Level 40/40" in sheet.content


@pytest.mark.parametrize(
    ("target_area", "shooter_area", "cover"),
    [
        # 004 "Cover": each sentence the book says about the nightclub.
        ("Bar", "Dance Floor", True),  # "cover against a shot from the dance floor"
        ("Bar", "Catwalk", False),  # "would not have cover against an attack from the catwalk"
        ("Dance Floor", "Bar", False),  # "on the dance floor would not have cover ... from the bar"
        ("Bar", "DJ Booth", True),  # "in the bar would have cover against a shot from the DJ booth"
    ],
)
async def test_the_rulebook_cover_examples(table: Table, target_area: str, shooter_area: str,
                                           cover: bool) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Shooter", user=GM, level=60, npc=True, weapon=("Rifle",
                                                                               "ranged_2h"))
    await give_ammo(table, "Shooter")
    await start_fight(table, ("Ana", target_area), ("Shooter", shooter_area),
                      user_of={"Ana": ALICE})
    table.dice(8, 0, 3, 4)  # Ana fails 80; the NPCs win with 34 and go first
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "NPCs first", user=GM)
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Shooter"})
    assert "Shooter attacks Ana with Rifle." in declared.answer.content, declared.answer.content
    table.dice(2, 3)
    passed = await table.click(declared.posted("may react"), "Pass", user=ALICE)
    text = passed.answer.content
    choice = passed.prompt
    if cover:
        assert "Ana has cover and chooses which die is damage." in text, text
        assert f"Ana ({ALICE.mention})" in choice.content and "Shooter" not in choice.content
    else:
        assert "Shooter hits Ana and chooses which die is damage." in text, text
        assert "Shooter (GM)" in choice.content


@pytest.mark.parametrize(("shooter_area", "target_area"),
                         [("Kitchen", "Dance Floor"), ("Dance Floor", "Kitchen")])
async def test_line_of_sight_is_mutual_on_the_nightclub(table: Table, shooter_area: str,
                                                        target_area: str) -> None:
    # RULINGS 9: counted from the kitchen one mark is crossed (the bar's), from the dance floor
    # two (the bar's and the kitchen's); two block, so neither sees the other. Lookout, at the
    # bar, is in sight and rifle range of both areas.
    await add_character(table, "Ana", level=40, weapon=("Rifle", "ranged_2h"))
    await give_ammo(table, "Ana", user=ALICE)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Lookout", user=GM, level=24, npc=True)  # Goon rolls initiative
    await start_fight(table, ("Ana", shooter_area), ("Goon", target_area), ("Lookout", "Bar"),
                 user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    assert await table.autocomplete("attack", "target") == ["Lookout"]
    refused = await table.slash("attack", target="Goon")
    assert refused.ephemeral, refused.content
    assert f"Ana has no line of sight from {shooter_area} to {target_area}." in refused.content
    log = await table.slash("combat log")
    assert "Ana attacks" not in log.content


async def test_illegal_actions_get_a_reason_and_change_nothing(table: Table) -> None:
    nothing = await table.slash("attack", target="Goon")
    assert nothing.ephemeral and "no fight in this channel" in nothing.content
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Alley"), user_of={"Ana": ALICE})
    early = await table.slash("attack", target="Goon")
    assert early.ephemeral
    player_begin = await table.slash("combat begin", user=BOB)
    assert player_begin.ephemeral and "GM" in player_begin.content
    await begin_pcs_first(table)
    far = await table.slash("attack", target="Goon")  # a knife reaches only its own area
    assert far.ephemeral and "range" in far.content.lower(), far.content
    not_theirs = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert not_theirs.ephemeral and "turn" in not_theirs.content.lower(), not_theirs.content
    log = await table.slash("combat log")
    assert "Goon attacks" not in log.content and "Ana attacks" not in log.content


async def test_a_reaction_window_survives_a_restart_and_closes_on_time(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    window = declared.posted("may react")
    await table.restart(dice=[3, 5])
    cog = table.bot.fights
    assert cog is not None
    assert not await cog.close_expired_window(CHANNEL_ID)  # not yet: deadline ahead
    cog.clock = lambda: 10**10  # time passes beyond the 45 s deadline
    assert await cog.close_expired_window(CHANNEL_ID)
    await table.settle()  # the timer then shows the board and the next prompt
    closed = table.channel_messages()
    assert any("Time is up" in m.content and "35 (3·5)" in m.content for m in closed)
    late = await table.click_stale(window, "Defend", user=GM)
    assert late.ephemeral  # the window is closed: the old button is refused


async def test_double_clicks_apply_once(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    table.dice(3, 4, 6, 2)
    await table.slash("combat begin", user=GM)
    prompt = table.channel_messages()[-1]
    first = await table.click(prompt, "PCs first", user=ALICE)
    assert not first.ephemeral
    second = await table.click_stale(prompt, "NPCs first", user=ALICE)
    assert second.ephemeral
    log = await table.slash("combat log")
    assert log.content.count("goes first") == 1, log.content


async def test_undo_set_and_end_by_the_gm(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    await table.slash("attack", target="Goon")
    player_undo = await table.slash("combat undo", user=ALICE)
    assert player_undo.ephemeral
    undone = await table.slash("combat undo", user=GM)
    assert "Undid" in undone.answer.content and "attack" in undone.answer.content
    again = await table.slash("attack", target="Goon")  # Ana has her action back
    assert not again.ephemeral
    corrected = await table.slash("combat set", user=GM, character="Ana", level=33)
    assert "33" in corrected.answer.content
    ended = await table.slash("combat end", user=GM)
    assert not ended.ephemeral
    sheet = await table.slash("sheet", character="Ana")
    assert "Level 33/40" in sheet.content, sheet.content


async def test_attack_options_autocomplete_with_what_is_legal_now(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Lookout", user=GM, level=24, npc=True)  # Goon rolls initiative
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), ("Lookout", "Alley"),
                 user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    assert await table.autocomplete("attack", "target") == ["Goon"]  # Lookout: out of reach
    assert await table.autocomplete("attack", "with") == ["Knife"]
    assert await table.autocomplete("attack", "as") == ["Ana"]
    gm_as = await table.autocomplete("attack", "as", user=GM)
    assert set(gm_as) == {"Ana", "Goon", "Lookout"}
    assert await table.autocomplete("combat add", "area", user=GM, character="Ana") != []


async def test_counterattack_done_defend_and_surrender_in_one_round(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bram", user=BOB, level=45)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"), ("Goon",
                                                                               "Dance Floor"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    assert "Bram rolls initiative for PCs: 34" in begun.answer.content  # the highest PC rolls
    await table.click(begun.prompt, "PCs first", user=BOB)

    declared = await table.slash("attack", target="Goon")
    table.dice(2, 1, 1, 5)  # Ana 21, Goon's counterattack 15: both hit, simultaneously
    both = await table.click(declared.prompt, "Counterattack", user=GM)
    assert "Goon counterattacks Ana with Knife: 15 (1·5) vs 25 — SUCCESS." in both.answer.content
    ana_hits = await table.click(both.prompt, "2 damage · 1: left leg", user=ALICE)
    assert "Goon takes 2 damage to the left leg: level 25 → 23." in ana_hits.answer.content
    goon_hits = await table.click(ana_hits.prompt, "1 damage · 5: torso", user=GM)
    assert "Ana takes 1 damage to the torso: level 40 → 39." in goon_hits.answer.content

    again = await table.slash("attack", target="Goon")  # Ana's one action is spent
    assert again.ephemeral
    table.dice(3, 4, 6, 2)  # the NPCs have no action left: round 2 and its initiative
    done = await table.slash("done", user=BOB)
    assert "Round 2 begins." in done.answer.content, done.answer.content
    await table.click(done.prompt, "NPCs first", user=BOB)

    declared = await table.slash("attack", user=GM, target="Bram", **{"as": "Goon"})
    not_bob = await table.slash("defend", user=ALICE, **{"as": "Bram"})
    assert not_bob.ephemeral  # Alice cannot defend for Bob's character
    table.dice(3, 0, 4, 0)  # Goon 30 fails against 25; Bram's Defend 40 succeeds
    defended = await table.slash("defend", user=BOB)
    assert "Bram defends" in defended.answer.content

    surrender_late = await table.slash("surrender", user=BOB)
    assert not surrender_late.ephemeral
    assert "surrender" in surrender_late.answer.content.lower()
    status = await table.slash("combat status", character="Bram")
    assert status.ephemeral and "Level 0/45" in status.content, status.content


async def test_gm_changes_how_long_reactions_wait(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await start_fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    refused = await table.slash("combat settings", user=ALICE, reaction="90s")
    assert refused.ephemeral
    changed = await table.slash("combat settings", user=GM, reaction="90s")
    assert "1 minute 30 seconds" in changed.answer.content
    log = await table.slash("combat log")
    assert "Reactions now wait 1 minute 30 seconds." in log.content


async def test_the_intercept_example_stops_the_mover_where_the_interceptor_says(
        table: Table) -> None:
    # 004 "Hit Location": three \ on the right leg, moving from the dance floor to the bar, an
    # intercept of 24, 4 damage to location 2: the leg fills, one mark to the torso, the mover
    # stops, and the interceptor puts them on the dance floor.
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    marked = await table.slash("combat set", user=GM, character="Ana", location="right_leg",
                               marks="\\\\\\")
    assert "right leg marks none → \\\\\\" in marked.answer.content, marked.answer.content
    await begin_pcs_first(table)
    assert set(await table.autocomplete("move", "to")) == {"DJ Booth", "Bar", "Pool Tables",
                                                           "Entrance"}
    declared = await table.slash("move", to="Bar")
    assert "Ana moves from Dance Floor to Bar." in declared.answer.content
    window = declared.posted("may react")
    assert window.labels == ["Intercept", "Intercept (less-lethal)", "Pass", "Resolve now (GM)"]
    table.dice(2, 4)
    intercepted = await table.click(window, "Intercept", user=GM)
    assert "24 (2·4) vs 30" in intercepted.answer.content, intercepted.answer.content
    choice = intercepted.prompt
    assert "Goon (GM)" in choice.content  # no cover against an intercept: Goon chooses
    hit = await table.click(choice, "4 damage · 2: right leg", user=GM)
    text = hit.answer.content
    assert "level 40 → 36" in text and "stop moving" in text, text
    stop = hit.prompt
    assert stop.labels == ["Stop in Dance Floor", "Stop in Bar"]
    refused = await table.click(stop, "Stop in Dance Floor", user=ALICE)
    assert refused.ephemeral  # the interceptor decides
    table.dice(3, 4, 6, 2)  # both actions are spent: round 2's initiative
    stopped = await table.click(stop, "Stop in Dance Floor", user=GM)
    assert "Goon puts Ana in Dance Floor." in stopped.answer.content
    status = await table.slash("combat status", character="Ana")
    assert "36/40" in status.content, status.content
    board = await table.slash("combat status")
    assert "Ana [PCs] Dance Floor" in board.content, board.content


async def test_moves_that_break_the_rules_are_refused_and_change_nothing(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Kitchen"), user_of={"Ana": ALICE})
    both_legs = {"right_leg": "XXXXXX", "left_leg": "XXXXXX"}
    await begin_pcs_first(table)
    far = await table.slash("move", to="Kitchen")
    assert far.ephemeral and "not one step" in far.content, far.content
    sight_only = await table.slash("move", to="Catwalk")
    assert sight_only.ephemeral and "sight only" in sight_only.content, sight_only.content
    await table.slash("combat set", user=GM, character="Ana", location="right_leg",
                      marks=both_legs["right_leg"])
    hands = await table.slash("move", to="Bar")  # a full leg and a knife in hand
    assert hands.ephemeral and "both hands" in hands.content, hands.content
    await table.slash("combat set", user=GM, character="Ana", location="left_leg",
                      marks=both_legs["left_leg"])
    legs = await table.slash("move", to="Bar")
    assert legs.ephemeral and "cannot move" in legs.content, legs.content
    assert await table.autocomplete("move", "to") == []
    log = await table.slash("combat log")
    assert "Ana moves" not in log.content


async def test_a_move_nobody_can_intercept_happens_at_once(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Alley"), user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    moved = await table.slash("move", to="Entrance")
    assert "Ana is now in Entrance." in moved.answer.content, moved.answer.content


async def test_opening_a_door_takes_an_action_and_opens_the_way_at_once(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Hall"), ("Goon", "Library"), user_of={"Ana": ALICE},
                 map_name="Manor")
    await begin_pcs_first(table)
    shut = await table.slash("move", to="Library")
    assert shut.ephemeral and "door between Hall and Library is closed" in shut.content
    unseen = await table.slash("attack", target="Goon")
    assert unseen.ephemeral and "no path" in unseen.content, unseen.content
    assert set(await table.autocomplete("door", "area")) == {"Study", "Library"}
    no_door = await table.slash("door", area="Foyer", open=True)
    assert no_door.ephemeral and "no door between Hall and Foyer" in no_door.content
    already = await table.slash("door", area="Study", open=True)
    assert already.ephemeral and "already open" in already.content
    opened = await table.slash("door", area="Library", open=True)
    assert "Ana opens the door between Hall and Library." in opened.answer.content
    assert "Library" in await table.autocomplete("move", "to")
    table.dice(3, 4, 6, 2)  # Goon's move ends round 1
    moved = await table.slash("move", user=GM, to="Hall", **{"as": "Goon"})
    assert "Goon is now in Hall." in moved.answer.content, moved.answer.content


async def _wounded_ally(table: Table, wounds: dict[str, str], level: int = 40) -> None:
    await add_character(table, "Ana", level=level, weapon=("Kit", "first_aid"))
    await add_character(table, "Bram", user=BOB, level=30, weapon=None)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"), ("Goon", "Alley"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    for location, marks in wounds.items():
        done = await table.slash("combat set", user=GM, character="Bram", location=location,
                                 marks=marks)
        assert not done.ephemeral, done.content
    await begin_pcs_first(table)


async def test_the_first_aid_success_example(table: Table) -> None:
    # 004 "First aid": 2 \ on the head and 1 on each arm, a roll of 14, 4 boxes and 1 additional
    # location: 2 erased from the head, 1 from the right arm, the left arm's \ becomes X.
    await _wounded_ally(table, {"head": "\\\\", "right_arm": "\\", "left_arm": "\\"})
    table.dice(1, 4)
    aided = await table.slash("firstaid", target="Bram")
    assert "Kit (used up): 14 (1·4) vs 40" in aided.answer.content, aided.answer.content
    dice = aided.prompt
    assert "Ana" in dice.content
    assert dice.labels == ["1 box · 4 more locations", "4 boxes · 1 more location"]
    chosen = await table.click(dice, "4 boxes · 1 more location", user=ALICE)
    boxes = chosen.prompt
    assert "Ana" in boxes.content and boxes.labels == ["Head", "Right arm", "Left arm", "Done"]
    refused = await table.click(boxes, "Head", user=BOB)
    assert refused.ephemeral  # "You erase 2 marks from their head": the treater chooses
    first = await table.click(boxes, "Head", user=ALICE)
    second = await table.click(first.prompt, "Head", user=ALICE)
    assert second.prompt.labels == ["Right arm", "Left arm", "Done"]
    table.dice(3, 4, 6, 2)  # the PCs are done for the round; the NPCs move on to round 2
    last = await table.click(second.prompt, "Right arm", user=ALICE)
    text = last.answer.content
    assert "Erased 2 on the head and 1 on the right arm." in text, text
    assert "became X: 1 on the left arm." in text, text
    status = await table.slash("combat status", character="Bram")
    assert "X" in status.content and "\\" not in status.content, status.content


async def test_the_first_aid_critical_failure_example(table: Table) -> None:
    # 004 "First aid": 1 \ and 1 X on the head, 3 X on the right arm, a critical failure of 66:
    # all four X become ■ (fewer than the 6 on the die), then the head's \ becomes X.
    await _wounded_ally(table, {"head": "X\\", "right_arm": "XXX"})
    table.dice(6, 6)
    aided = await table.slash("firstaid", target="Bram")
    text = aided.answer.content
    assert "66 (6·6) vs 40" in text and "CRITICAL FAILURE" in text.upper(), text
    assert "Made permanent (■): 1 on the head and 3 on the right arm." in text, text
    assert "became X: 1 on the head." in text, text
    again = await table.slash("firstaid", target="Bram")  # the kit is used up
    assert again.ephemeral


async def test_a_critical_failure_with_a_small_die_lets_the_treated_player_place_it(
        table: Table) -> None:
    # (a \\ on the left leg: without one first aid has nothing to treat, rules notes 57)
    await _wounded_ally(table, {"head": "X", "right_arm": "XXX", "left_leg": "\\"}, level=20)
    table.dice(2, 2)  # 22 against 20: a critical failure, 2 of the 4 X become ■
    aided = await table.slash("firstaid", target="Bram")
    place = aided.prompt
    assert place.labels == ["Head", "Right arm"]
    once = await table.click(place, "Head", user=BOB)
    assert once.prompt.labels == ["Right arm"]
    table.dice(3, 4, 6, 2)
    twice = await table.click(once.prompt, "Right arm", user=BOB)
    assert "Made permanent (■): 1 on the head and 1 on the right arm." in twice.answer.content


async def test_first_aid_needs_range_zero_and_an_item_in_hand(table: Table) -> None:
    await add_character(table, "Ana", level=40, weapon=("Knife", "melee_1h"))
    await add_character(table, "Bram", user=BOB, level=30, weapon=("Kit", "first_aid"))
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Bar"), ("Goon", "Alley"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)
    far = await table.slash("firstaid", user=BOB, target="Ana")
    assert far.ephemeral and "range 0" in far.content, far.content
    no_kit = await table.slash("firstaid", target="Ana")
    assert no_kit.ephemeral and "first aid item" in no_kit.content, no_kit.content
    log = await table.slash("combat log")
    assert "first aid" not in log.content


async def _armed_fight(table: Table) -> None:
    """Ana (Alice) holds a rifle and has bullets; Bram (Bob) holds a pistol with no ammo and
    carries a first aid kit; the NPCs Goon (with Ana and Bram) and Lookout (at the bar)."""
    await add_character(table, "Ana", level=40, weapon=("Rifle", "ranged_2h"))
    await give_ammo(table, "Ana", user=ALICE)
    await add_character(table, "Bram", user=BOB, level=30, weapon=("Pistol", "ranged_1h"))
    kit = await table.slash("character item add", user=BOB, character="Bram", name="Kit",
                            kind="first_aid")
    assert not kit.ephemeral, kit.content
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Lookout", user=GM, level=24, npc=True)  # Goon rolls initiative
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"), ("Goon",
                                                                               "Dance Floor"),
                 ("Lookout", "Bar"), user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)


async def test_weapons_need_their_range_and_ammo(table: Table) -> None:
    await _armed_fight(table)
    point_blank = await table.slash("attack", target="Goon")
    assert point_blank.ephemeral, point_blank.content
    assert "out of range for Rifle: range 0 (reaches range 1 or more)" in point_blank.content
    assert await table.autocomplete("attack", "target") == ["Lookout"]
    empty = await table.slash("attack", user=BOB, target="Lookout")
    assert empty.ephemeral and "Bram has no ammo left" in empty.content, empty.content
    assert await table.autocomplete("attack", "target", user=BOB) == []
    stunning = await table.slash("attack", target="Lookout", lethal=False)
    assert stunning.ephemeral and "no less-lethal ammo" in stunning.content, stunning.content
    table.dice(7, 7)  # a critical failure: the next action is lost and a slot of ammo is gone
    shot = await table.slash("attack", target="Lookout")
    window = shot.posted("may react")
    fumble = await table.click(window, "Pass", user=GM)
    text = fumble.answer.content
    assert "Ana rolled a critical failure and loses the next action." in text, text
    assert "Ana's Bullets is destroyed (a ranged critical failure)." in text, text
    log = await table.slash("combat log")
    assert "Bram attacks" not in log.content


async def test_items_are_held_stowed_dropped_and_picked_up(table: Table) -> None:
    await _armed_fight(table)
    assert set(await table.autocomplete("item hold", "item", user=BOB)) == {"Kit"}
    swapped = await table.slash("item hold", user=BOB, item="Kit", hand="right")
    assert "Bram takes Kit: Bram has Kit in the right hand. (one action)" in \
        swapped.answer.content, swapped.answer.content
    again = await table.slash("item hold", user=BOB, item="Pistol")
    assert again.ephemeral and "no action left" in again.content, again.content
    dropped = await table.slash("item drop", user=BOB)  # free, even with no action left
    assert "Bram drops Kit in Dance Floor (no action)." in dropped.answer.content
    board = await table.slash("combat status")
    assert "On the floor: Kit (Bram) in Dance Floor" in board.content, board.content
    nothing = await table.slash("item drop", user=BOB)
    assert nothing.ephemeral and "nothing in that hand" in nothing.content
    # Ana's left arm is hurt past use: she drops the rifle, and it needs both hands
    hurt = await table.slash("combat set", user=GM, character="Ana", location="left_arm",
                             marks="\\\\\\")
    assert "Ana drops Rifle in Dance Floor." in hurt.answer.content, hurt.answer.content
    full = await table.slash("item pickup", item="Rifle")
    assert full.ephemeral and "needs both hands, and Ana cannot use one" in full.content, \
        full.content
    unknown = await table.slash("item hold", item="Banjo")
    assert unknown.ephemeral and "no item called 'Banjo'" in unknown.content, unknown.content
    log = await table.slash("combat log")
    assert "Ana takes" not in log.content


async def test_picking_up_needs_the_same_area_and_takes_an_action(table: Table) -> None:
    await _armed_fight(table)
    await table.slash("item drop", item="Rifle")
    assert await table.autocomplete("item pickup", "item") == ["Rifle"]
    held = await table.slash("item hold", item="Rifle")
    assert held.ephemeral and "pick it up first" in held.content, held.content
    picked = await table.slash("item pickup", item="Rifle")
    assert "Ana picks up Rifle: Ana has Rifle in both hands. (one action)" in \
        picked.answer.content, picked.answer.content


async def test_using_something_noted_on_the_map(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Study"), ("Goon", "Cellar"), user_of={"Ana": ALICE},
                 map_name="Manor")
    await begin_pcs_first(table)
    assert await table.autocomplete("item use", "what") == [
        "Knife", "the safe (one action with tools to open)"]
    used = await table.slash("item use", what="the safe (one action with tools to open)")
    assert "Ana uses the safe (one action with tools to open) in Study; the GM says what it " \
        "does. (one action)" in used.answer.content, used.answer.content
    nowhere = await table.slash("item use", user=GM, what="the signal lamp", **{"as": "Goon"})
    assert nowhere.ephemeral


async def test_a_second_click_on_the_same_button_is_refused(table: Table) -> None:
    # "erase one \ per click": a double click must not erase two.
    await _wounded_ally(table, {"head": "\\\\", "right_arm": "\\", "left_arm": "\\"})
    table.dice(1, 4)
    aided = await table.slash("firstaid", target="Bram")
    chosen = await table.click(aided.prompt, "4 boxes · 1 more location", user=ALICE)
    boxes = chosen.prompt
    first = await table.click(boxes, "Head", user=ALICE)
    assert not first.ephemeral
    second = await table.click_stale(boxes, "Head", user=ALICE)
    assert second.ephemeral and "out of date" in second.content, second.content
    log = await table.slash("combat log")
    assert log.content.count("Bram's head: a \\\\ erased.") == 1, log.content


async def test_old_buttons_work_after_a_restart_and_the_timer_is_rearmed(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    window = declared.posted("may react")
    await table.restart(dice=[3, 5, 6, 0])
    cog = table.bot.fights
    assert cog is not None and CHANNEL_ID in cog._deadlines  # the window is watched again
    defended = await table.click(window, "Defend", user=GM)
    text = defended.answer.content
    assert "Goon defends." in text and "35 (3·5) vs 40" in text and "60 (6·0)" in text, text


async def test_undo_takes_back_a_settings_change(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await table.slash("combat settings", user=GM, reaction="90s")
    undone = await table.slash("combat undo", user=GM)
    assert not undone.ephemeral and "Undid the last command (settings)." in undone.answer.content


async def test_a_critical_success_in_a_fight_extra_action_or_adjust(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(2, 2)  # 22 against 40: doubles, a critical success
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    critical = rolled.prompt
    assert "critical success: extra action or adjust?" in critical.content
    assert critical.labels == ["Extra action", "Adjust"]
    not_hers = await table.click(critical, "Adjust", user=BOB)
    assert not_hers.ephemeral and "Only their player or a GM" in not_hers.content
    opened = await table.click(critical, "Adjust", user=ALICE)
    assert opened.modal is not None
    await table.restart()
    label = "Set Ana's roll to (1-40)"  # 22 against 40: up to her level
    typo = await table.submit(opened.modal, {label: "3x"}, message=critical)
    assert typo.ephemeral
    assert typo.content == "“3x” is not a number; a critical success can be adjusted to 1-40."
    too_high = await table.submit(opened.modal, {label: "45"}, message=critical)
    assert too_high.ephemeral
    assert too_high.content == "A critical success can be adjusted to 1-40, not 45."
    done = await table.submit(opened.modal, {label: "39"}, message=critical)
    assert "Ana adjusts the roll to 39." in done.answer.content, done.answer.content
    assert done.prompt.labels == ["3 damage · 9: head", "9 damage · 3: right leg"]
    again = await table.submit(opened.modal, {label: "38"}, message=critical)
    assert again.ephemeral


# -- less-lethal reactions, Defend ties, Recovery after a death ------------------------------


async def test_a_less_lethal_counterattack_from_the_slash_command(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    assert declared.posted("may react").labels == [
        "Defend", "Counterattack", "Counterattack (less-lethal)", "Pass", "Resolve now (GM)"]
    table.dice(2, 1, 1, 5)  # Ana 21, Goon's counterattack 15: both hit
    both = await table.slash("counterattack", user=GM, lethal=False, **{"as": "Goon"})
    assert "Goon counterattacks with Knife (less-lethal)." in both.answer.content
    ana_hits = await table.click(both.prompt, "2 damage · 1: left leg", user=ALICE)
    assert "Goon takes 2 damage to the left leg: level 25 → 23." in ana_hits.answer.content
    table.dice(3, 4, 6, 2)  # both actions are spent: round 2's initiative
    goon_hits = await table.click(ana_hits.prompt, "5 damage · 1: left leg", user=GM)
    text = goon_hits.answer.content
    assert ("Ana takes 5 less-lethal damage on the left leg: level 40 → 35, no wounds marked."
            in text), text
    status = await table.slash("combat status", character="Ana")
    assert "Level 35/40 · fine" in status.content, status.content
    assert "\\" not in status.content and "X" not in status.content  # no box is marked
    log = await table.slash("combat log")
    assert "Goon counterattacks with Knife (less-lethal)." in log.content


async def test_a_less_lethal_intercept_from_its_button(table: Table) -> None:
    # The book's intercept example, less-lethal: 4 at location 2 lowers the level only, so
    # the right leg does not fill and Ana is not stopped.
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await table.slash("combat set", user=GM, character="Ana", location="right_leg",
                      marks="\\\\\\")
    await begin_pcs_first(table)
    window = (await table.slash("move", to="Bar")).posted("may react")
    assert window.labels == ["Intercept", "Intercept (less-lethal)", "Pass", "Resolve now (GM)"]
    table.dice(2, 4)
    intercepted = await table.click(window, "Intercept (less-lethal)", user=GM)
    assert "Goon intercepts with Knife (less-lethal)." in intercepted.answer.content
    table.dice(3, 4, 6, 2)  # both actions are spent: round 2's initiative
    hit = await table.click(intercepted.prompt, "4 damage · 2: right leg", user=GM)
    text = hit.answer.content
    assert "Ana takes 4 less-lethal damage on the right leg: level 40 → 36, no wounds " \
           "marked." in text, text
    assert "stop moving" not in text and "Ana is now in Bar." in text, text


async def test_a_ranged_less_lethal_intercept_needs_less_lethal_ammo(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Shooter", user=GM, level=30, npc=True,
                     weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Shooter")
    await start_fight(table, ("Ana", "Dance Floor"), ("Shooter", "Dance Floor"),
                 user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    window = (await table.slash("move", to="Bar")).posted("may react")
    assert window.labels == ["Intercept", "Pass", "Resolve now (GM)"]  # bullets only
    refused = await table.slash("intercept", user=GM, lethal=False, **{"as": "Shooter"})
    assert refused.ephemeral, refused.content
    assert ("Shooter has no less-lethal ammo: a less-lethal intercept with Pistol needs a "
            "less-lethal ammo slot (a melee weapon needs none).") in refused.content
    log = await table.slash("combat log")
    assert "Shooter intercepts" not in log.content


async def test_a_ranged_less_lethal_intercept_spends_its_own_ammo(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Shooter", user=GM, level=30, npc=True,
                     weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Shooter")
    await give_ammo(table, "Shooter", item="Darts", less_lethal=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Shooter", "Dance Floor"),
                 user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    window = (await table.slash("move", to="Bar")).posted("may react")
    assert window.labels == ["Intercept", "Intercept (less-lethal)", "Pass", "Resolve now (GM)"]
    table.dice(7, 7, 3, 4, 6, 2)  # a critical failure; then round 2's initiative
    fumble = await table.click(window, "Intercept (less-lethal)", user=GM)
    text = fumble.answer.content
    assert "Shooter intercepts with Pistol (less-lethal)." in text, text
    assert "Shooter's Darts is destroyed (a ranged critical failure)." in text, text
    assert "Bullets" not in text


@pytest.mark.parametrize(
    ("pc_attacks", "sentence"),
    [
        (True, "21 ties Goon's Defend (21) and a PC wins a tie against an NPC: the attack is "
               "not stopped."),
        (False, "Ana's Defend (21) ties 21 and a PC wins a tie against an NPC: the attack "
                "misses."),
    ],
)
async def test_a_defend_that_ties_says_who_the_tie_goes_to(table: Table, pc_attacks: bool,
                                                           sentence: str) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    if pc_attacks:
        await begin_pcs_first(table)
        declared = await table.slash("attack", target="Goon")
        table.dice(2, 1, 2, 1)
        answered = await table.click(declared.prompt, "Defend", user=GM)
    else:
        table.dice(8, 0, 2, 0)  # the NPCs win initiative with 20
        begun = await table.slash("combat begin", user=GM)
        await table.click(begun.prompt, "NPCs first", user=GM)
        declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
        table.dice(2, 1, 2, 1, 3, 4, 6, 2)  # the tie; nobody has an action left: round 2
        answered = await table.click(declared.prompt, "Defend", user=ALICE)
    text = answered.answer.content
    assert sentence in text, text
    assert "21 beats" not in text and "(21) beats 21" not in text, text


async def test_a_dead_pc_is_not_offered_recovery(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bram", user=BOB, level=45)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"), ("Goon",
                                                                               "Dance Floor"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)
    await table.slash("combat set", user=GM, character="Ana", level=-3)
    died = await table.slash("combat status", character="Ana")
    assert "Level -3/40 · dead" in died.content, died.content
    await table.slash("combat set", user=GM, character="Bram", level=30)
    ended = await table.slash("combat end", user=GM)
    offers = [m for m in ended.messages if "may recover" in m.content]
    assert [m.labels for m in offers] == [["Recover Bram"]], [m.content for m in offers]
    assert not any("Ana" in m.content for m in offers)
    recover = await table.slash("character recover", character="Ana")
    assert recover.ephemeral and "dead" in recover.content, recover.content


async def test_a_team_name_may_be_as_long_as_the_engine_allows(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await table.slash("combat start", user=GM, map="Nightclub")
    long_name = "The Very Long Named Night Patrol"  # 32 characters, the engine's limit
    assert len(long_name) == 32
    added = await table.slash("combat add", user=GM, character="Goon", area="Bar",
                              team=long_name)
    said = " ".join(m.content for m in added.messages)
    assert not added.ephemeral and f"for {long_name} in Bar" in said, said
    refused = await table.slash("combat add", character="Ana", area="Bar", team=long_name + "s")
    assert refused.ephemeral and "at most 32 characters" in refused.content, refused.content
