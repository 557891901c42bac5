"""Fights through the real dispatch path: slash commands and buttons, as the table sees them."""

from __future__ import annotations

from tests.harness import ALICE, BOB, CHANNEL_ID, GM, Table


async def _character(table: Table, name: str, *, user=ALICE, level: int = 50,
                     npc: bool = False, weapon: tuple[str, str] | None = ("Knife", "melee_1h"),
                     ) -> None:
    options: dict[str, object] = {"level": level}
    if npc:
        options["npc"] = True
    reply = await table.slash("character create", user=user, name=name, **options)
    assert not reply.ephemeral, reply.content
    if weapon is not None:
        item, kind = weapon
        added = await table.slash("character item add", user=user, character=name, name=item,
                                  kind=kind)
        assert not added.ephemeral, added.content
        held = await table.slash("character item hold", user=user, character=name, item=item)
        assert not held.ephemeral, held.content


async def _fight(table: Table, *placements: tuple[str, str], user_of: dict[str, object]) -> None:
    started = await table.slash("combat start", user=GM, map="Nightclub")
    assert not started.ephemeral, started.content
    for name, area in placements:
        added = await table.slash("combat add", user=user_of.get(name, GM), character=name,
                                  area=area)
        assert not added.ephemeral, added.content


async def test_initiative_example_pcs_win_and_let_the_npcs_go_first(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Bar"), user_of={"Ana": ALICE})
    table.dice(3, 4, 6, 2)  # PCs' highest (40) rolls 34, NPCs' highest (25) rolls 62
    begun = await table.slash("combat begin", user=GM)
    assert "34" in begun.answer.content and "62" in begun.answer.content, begun.answer.content
    prompt = table.channel_messages()[-1]
    assert "which team goes first" in prompt.content
    assert ALICE.mention in prompt.content
    refused = await table.click(prompt, "NPCs first", user=BOB)
    assert refused.ephemeral
    chosen = await table.click(prompt, "NPCs first", user=ALICE)
    assert not chosen.ephemeral
    board = table.channel_messages()
    assert any("Round 1" in m.content and "NPCs" in m.content for m in board), \
        [m.content for m in board]


async def _begin_pcs_first(table: Table) -> None:
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)


async def test_a_whole_fight_from_start_to_an_unconscious_team(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=12, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), user_of={"Ana": ALICE})
    await _begin_pcs_first(table)

    declared = await table.slash("attack", target="Goon")  # Alice's only character: Ana
    assert "Ana attacks Goon" in declared.answer.content
    window = declared.posted("may react")
    assert "Goon (GM)" in window.content
    assert window.labels == ["Defend", "Counterattack", "Pass", "Resolve now (GM)"]
    refused = await table.click(window, "Pass", user=BOB)
    assert refused.ephemeral  # Bob does not run the NPCs

    table.dice(3, 5)  # Ana rolls 35 against 40: a hit
    passed = await table.click(window, "Pass", user=GM)
    assert "35 (3·5) vs 40" in passed.answer.content
    choice = passed.prompt
    assert "Ana" in choice.content
    assert choice.labels == ["3 damage · location 5", "5 damage · location 3"]

    hit = await table.click(choice, "5 damage · location 3", user=ALICE)
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
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=30, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), user_of={"Ana": ALICE})
    table.dice(8, 0, 2, 0)  # the NPCs win initiative with 20
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=GM)
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    table.dice(2, 4)
    hit = await table.click(declared.prompt, "Pass", user=ALICE)
    await table.click(hit.prompt, "4 damage · location 2", user=GM)
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


async def test_cover_in_the_bar_lets_the_target_choose_the_dice(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Shooter", user=GM, level=60, npc=True,
                     weapon=("Pistol", "ranged_1h"))
    await _fight(table, ("Ana", "Bar"), ("Shooter", "Dance Floor"), user_of={"Ana": ALICE})
    table.dice(8, 0, 3, 4)  # Ana fails 80; the NPCs win with 34 and go first
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "NPCs first", user=GM)
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Shooter"})
    table.dice(2, 3)
    passed = await table.click(declared.posted("may react"), "Pass", user=ALICE)
    choice = passed.prompt
    assert "Ana" in choice.content and "Shooter" not in choice.content  # the target chooses


async def test_no_cover_on_the_dance_floor_against_the_bar(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Shooter", user=GM, level=60, npc=True,
                     weapon=("Pistol", "ranged_1h"))
    await _fight(table, ("Ana", "Dance Floor"), ("Shooter", "Bar"), user_of={"Ana": ALICE})
    table.dice(8, 0, 3, 4)
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "NPCs first", user=GM)
    declared = await table.slash("attack", user=GM, target="Ana", **{"as": "Shooter"})
    table.dice(2, 3)
    passed = await table.click(declared.posted("may react"), "Pass", user=ALICE)
    assert "Shooter (GM)" in passed.prompt.content


async def test_illegal_actions_get_a_reason_and_change_nothing(table: Table) -> None:
    nothing = await table.slash("attack", target="Goon")
    assert nothing.ephemeral and "no fight in this channel" in nothing.content
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Alley"), user_of={"Ana": ALICE})
    early = await table.slash("attack", target="Goon")
    assert early.ephemeral
    player_begin = await table.slash("combat begin", user=BOB)
    assert player_begin.ephemeral and "GM" in player_begin.content
    await _begin_pcs_first(table)
    far = await table.slash("attack", target="Goon")  # a knife reaches only its own area
    assert far.ephemeral and "range" in far.content.lower(), far.content
    not_theirs = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert not_theirs.ephemeral and "turn" in not_theirs.content.lower(), not_theirs.content
    log = await table.slash("combat log")
    assert "Goon attacks" not in log.content and "Ana attacks" not in log.content


async def test_a_reaction_window_survives_a_restart_and_closes_on_time(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), user_of={"Ana": ALICE})
    await _begin_pcs_first(table)
    declared = await table.slash("attack", target="Goon")
    window = declared.posted("may react")
    await table.restart(dice=[3, 5])
    cog = table.bot.get_cog("CombatCog")
    assert cog is not None
    assert not await cog.close_expired_window(CHANNEL_ID)  # not yet: deadline ahead
    cog.clock = lambda: 10**10  # time passes beyond the 45 s deadline
    assert await cog.close_expired_window(CHANNEL_ID)
    closed = table.channel_messages()
    assert any("Time is up" in m.content and "35 (3·5)" in m.content for m in closed)
    late = await table.click_stale(window, "Defend", user=GM)
    assert late.ephemeral  # the window is closed: the old button is refused


async def test_double_clicks_apply_once(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), user_of={"Ana": ALICE})
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
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), user_of={"Ana": ALICE})
    await _begin_pcs_first(table)
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


async def test_help_explains_how_to_run_a_fight(table: Table) -> None:
    reply = await table.slash("help")
    assert reply.ephemeral and "/combat start" in reply.content and "/attack" in reply.content


async def test_attack_options_autocomplete_with_what_is_legal_now(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _character(table, "Lookout", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"), ("Lookout", "Alley"),
                 user_of={"Ana": ALICE})
    await _begin_pcs_first(table)
    assert await table.autocomplete("attack", "target") == ["Goon"]  # Lookout: out of reach
    assert await table.autocomplete("attack", "with") == ["Knife"]
    assert await table.autocomplete("attack", "as") == ["Ana"]
    gm_as = await table.autocomplete("attack", "as", user=GM)
    assert set(gm_as) == {"Ana", "Goon", "Lookout"}
    assert await table.autocomplete("combat add", "area", user=GM, character="Ana") != []


async def test_counterattack_done_defend_and_surrender_in_one_round(table: Table) -> None:
    await _character(table, "Ana", level=40)
    await _character(table, "Bram", user=BOB, level=45)
    await _character(table, "Goon", user=GM, level=25, npc=True)
    await _fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"), ("Goon", "Dance Floor"),
                 user_of={"Ana": ALICE, "Bram": BOB})
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    assert "Bram rolls initiative for PCs: 34" in begun.answer.content  # the highest PC rolls
    await table.click(begun.prompt, "PCs first", user=BOB)

    declared = await table.slash("attack", target="Goon")
    table.dice(2, 1, 1, 5)  # Ana 21, Goon's counterattack 15: both hit, simultaneously
    both = await table.click(declared.prompt, "Counterattack", user=GM)
    assert "Goon counterattacks Ana with Knife: 15 (1·5) vs 25 — SUCCESS." in both.answer.content
    ana_hits = await table.click(both.prompt, "2 damage · location 1", user=ALICE)
    assert "Goon takes 2 damage to the left leg: level 25 → 23." in ana_hits.answer.content
    goon_hits = await table.click(ana_hits.prompt, "1 damage · location 5", user=GM)
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
    await _character(table, "Ana", level=40)
    await _fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    refused = await table.slash("combat settings", user=ALICE, reaction_seconds=90)
    assert refused.ephemeral
    changed = await table.slash("combat settings", user=GM, reaction_seconds=90)
    assert "90 s" in changed.answer.content
    log = await table.slash("combat log")
    assert "Reactions now wait 90 s." in log.content
