"""`/item hands`: both hands in one action, by options or by the panel's menus and Apply,
through the real dispatch path, as the table sees it."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Message, Reply, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight

APPLY = "Apply (one action)"


async def _armed(table: Table, actions: int | None = 2) -> None:
    """Ana (Alice's, 40) holds a knife in the right hand and carries a shield and a rifle;
    Goon (an NPC) is with her on the dance floor; PCs act first. With ``actions``, the GM
    gives Ana that many actions, so that what one rearrangement spends shows on the board."""
    await add_character(table, "Ana", level=40)
    for name, kind in (("Shield", "shield"), ("Rifle", "ranged_2h")):
        added = await table.slash("character item add", character="Ana", name=name, kind=kind)
        assert not added.ephemeral, added.content
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
    if actions is not None:
        given = await table.slash("combat set", user=GM, character="Ana", actions=actions)
        assert not given.ephemeral, given.content


async def _ana_line(table: Table) -> str:
    """Ana's line on the board (`/combat status`): name, team, area, level, actions left."""
    board = await table.slash("combat status")
    return next(line for line in board.content.splitlines() if line.startswith("Ana "))


async def _log(table: Table) -> str:
    return (await table.slash("combat log")).content


async def test_both_hands_by_options_take_one_action(table: Table) -> None:
    await _armed(table)
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a2"
    assert await table.autocomplete("item hands", "left") == ["empty", "Knife", "Shield",
                                                               "Rifle"]
    set_both = await table.slash("item hands", right="Knife", left="Shield")
    assert not set_both.answer.ephemeral
    assert set_both.answer.content == (
        "Ana takes Shield: Knife in the right hand, Shield in the left hand (one action).")
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a1"  # one action, not two
    rifle = await table.slash("item hands", right="Rifle")
    assert rifle.answer.content == (
        "Ana takes Rifle and stows Knife and Shield: Rifle in both hands (one action).\n"
        "Turn: NPCs.")
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a0"


async def test_picking_up_and_holding_in_one_action(table: Table) -> None:
    await _armed(table)
    dropped = await table.slash("item drop", item="Knife")  # free
    assert "Ana drops Knife in Dance Floor (no action)." in dropped.answer.content
    assert "Knife" in await table.autocomplete("item hands", "right")
    both = await table.slash("item hands", right="knife", left="Shield")
    assert both.answer.content == (
        "Ana takes Shield and picks up Knife: Knife in the right hand, Shield in the left hand "
        "(one action).")
    board = await table.slash("combat status")
    assert "On the floor" not in board.content and "Ana [PCs] Dance Floor 40/40 a1" in \
        board.content, board.content
    emptied = await table.slash("item hands", right="empty")
    assert emptied.answer.content == (
        "Ana stows Knife: nothing in the right hand, Shield in the left hand (one action).\n"
        "Turn: NPCs.")


async def test_refusals_say_why_and_change_nothing(table: Table) -> None:
    await _armed(table)
    for options, why in (
        ({"right": "Rifle", "left": "empty"}, "Rifle needs both hands"),
        ({"right": "Knife"}, "Nothing to rearrange: Ana already has Knife in the right hand, "
                             "nothing in the left hand."),
        ({"left": "Banjo"}, "Ana has no item called 'Banjo'."),
        ({"right": "Knife", "left": "Knife"}, "Ana has one Knife: it cannot be in both hands."),
    ):
        refused = await table.slash("item hands", **options)
        assert refused.ephemeral and why in refused.content, (options, refused.content)
    not_hers = await table.slash("item hands", user=BOB, left="Shield", **{"as": "Ana"})
    assert not_hers.ephemeral and "Only their player or a GM" in not_hers.content
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a2"
    assert "Ana takes" not in await _log(table)


def _select(message: Message, hand: str) -> dict[str, object]:
    return next(s for s in message.selects() if str(s.get("placeholder", "")).startswith(hand))


async def _pick(table: Table, panel: Message, hand: str, item: str, user=ALICE) -> Reply:
    """Pick ``item`` in the menu of ``hand`` ("Right" or "Left") on the panel as it is now."""
    now = table.message(panel.id)
    select = _select(now, hand)
    options = select["options"]
    assert isinstance(options, list)
    value = next(o["value"] for o in options if o["label"] == f"{hand} hand: {item}")
    return await table.choose(now, [value], user=user, index=now.selects().index(select))


def _defaults(message: Message) -> list[str]:
    return [o["label"] for s in message.selects() for o in s["options"] if o.get("default")]


async def test_the_panel_sets_both_hands_with_menus_and_one_apply(table: Table) -> None:
    await _armed(table)
    opened = await table.slash("item hands")
    panel = opened.answer
    assert panel.ephemeral
    assert panel.content.startswith(
        "**Ana's hands** now: Knife in the right hand, nothing in the left hand."), panel.content
    assert _defaults(panel) == ["Right hand: Knife", "Left hand: empty"]
    assert panel.labels == [APPLY]
    right = _select(panel, "Right")
    assert [o["label"] for o in right["options"]] == [  # type: ignore[union-attr]
        "Right hand: empty", "Right hand: Knife", "Right hand: Shield", "Right hand: Rifle"]

    picked = await _pick(table, panel, "Left", "Shield")
    assert picked.kind == "update" and picked.message.id == panel.id
    shown = table.message(panel.id)
    assert "**Apply** for: Knife in the right hand, Shield in the left hand (one action)." in \
        shown.content, shown.content
    assert _defaults(shown) == ["Right hand: Knife", "Left hand: Shield"]
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a2"  # picking spends nothing
    assert "Ana takes" not in await _log(table)

    applied = await table.click(shown, APPLY)
    assert not applied.answer.ephemeral
    assert applied.answer.content == (
        "Ana takes Shield: Knife in the right hand, Shield in the left hand (one action).")
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a1"
    again = await table.click(shown, APPLY)  # a second press: nothing left to change
    assert again.ephemeral and "Nothing to rearrange" in again.content, again.content
    assert await _ana_line(table) == "Ana [PCs] Dance Floor 40/40 a1"


async def test_a_two_handed_pick_fills_both_menus_and_survives_a_restart(table: Table) -> None:
    await _armed(table, actions=None)  # one action: it ends the PCs' turn
    panel = (await table.slash("item hands")).answer
    await _pick(table, panel, "Right", "Rifle")
    shown = table.message(panel.id)
    assert _defaults(shown) == ["Right hand: Rifle", "Left hand: Rifle"]
    assert "**Apply** for: Rifle in both hands (one action)." in shown.content
    await _pick(table, panel, "Left", "Shield")  # a one-handed item frees the other hand
    assert _defaults(table.message(panel.id)) == ["Right hand: empty", "Left hand: Shield"]
    await _pick(table, panel, "Right", "Rifle")
    await table.restart()
    not_hers = await _pick(table, panel, "Left", "Knife", user=BOB)
    assert not_hers.ephemeral and "Only their player or a GM" in not_hers.content
    table.dice(3, 4, 6, 2)  # Ana's one action ends round 1 (Goon has nothing to do but wait)
    applied = await table.click(table.message(panel.id), APPLY)
    assert applied.answer.content.startswith(
        "Ana takes Rifle and stows Knife: Rifle in both hands (one action)."), \
        applied.answer.content
    late = await _pick(table, panel, "Right", "Knife")
    assert late.kind == "update"  # the menus still redraw; Apply would be refused until her turn


async def test_the_panel_is_only_for_who_gives_the_orders(table: Table) -> None:
    await _armed(table)
    other = await table.slash("item hands", user=BOB, **{"as": "Ana"})
    assert other.ephemeral and "Only their player or a GM" in other.content
    assert other.message.selects() == []
    gm = await table.slash("item hands", user=GM, **{"as": "Ana"})
    assert gm.answer.ephemeral and gm.answer.content.startswith("**Ana's hands** now:")
    hurt = await table.slash("combat set", user=GM, character="Ana", location="right_arm",
                             marks="\\\\\\")
    assert "Ana drops Knife in Dance Floor." in hurt.answer.content, hurt.answer.content
    panel = (await table.slash("item hands")).answer
    right = _select(panel, "Right")
    assert right["disabled"] and right["placeholder"] == "Right hand: the arm is full of wounds"
    left = [o["label"] for o in _select(panel, "Left")["options"]]  # type: ignore[union-attr]
    assert left == ["Left hand: empty", "Left hand: Knife", "Left hand: Shield"]  # no Rifle
    knife = next(o for o in _select(panel, "Left")["options"]  # type: ignore[attr-defined]
                 if o["label"] == "Left hand: Knife")
    assert knife["description"] == "On the floor of Dance Floor: picked up"
    picked = await _pick(table, panel, "Left", "Knife")
    assert "**Apply** for: nothing in the right hand, Knife in the left hand (one action; " \
        "picks up Knife)." in picked.message.content, picked.message.content
    applied = await table.click(table.message(panel.id), APPLY)
    assert applied.answer.content == (
        "Ana picks up Knife: nothing in the right hand, Knife in the left hand (one action).")


async def test_a_german_player_is_offered_and_may_type_the_empty_hand_in_german(
        table: Table) -> None:
    await _armed(table)
    table.locales[ALICE.id] = "de"
    offered = await table.autocomplete_choices("item hands", "right")
    assert offered[0] == {"name": "leer", "value": "empty"}  # the value stays the command's
    emptied = await table.slash("item hands", right="Leer")
    assert "Knife" in emptied.answer.content and not emptied.answer.ephemeral, \
        emptied.answer.content
    assert "Ana [PCs] Dance Floor 40/40 a1" in (await table.slash("combat status")).content
