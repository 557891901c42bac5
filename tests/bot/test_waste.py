"""Choices that would waste something, as a newcomer met them, driven through the real
payloads: the character panel offers only what the character can take (an AoE weapon with an
AoE ability), in one combat-ability menu, its hold menu named; first aid is offered and taken
only where it can treat a \\ mark (rules notes 57), and refused before the kit is spent; and
whom to attack lists the other side first."""

from __future__ import annotations

from data import load_rules
from engine.combat import Combat
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight

AOE_WEAPON = load_rules().items.kind("aoe").name


def _menus(table: Table, panel: Message) -> dict[str, list[str]]:
    """Each menu of the panel as it is now: its placeholder and its entries' labels."""
    return {s["placeholder"]: [o["label"] for o in s["options"]]
            for s in table.message(panel.id).selects()}


async def test_the_panel_offers_an_aoe_weapon_only_once_an_aoe_ability_is_taken(
        table: Table) -> None:
    await table.slash("character create", name="Ana")
    panel = (await table.slash("character panel", character="Ana")).message
    menus = _menus(table, panel)
    assert list(menus) == ["Choose a combat ability", "Add an item: its kind"]  # one of each
    assert AOE_WEAPON not in menus["Add an item: its kind"]
    # 33 abilities are open, more than a menu holds: their kinds first, then the kind's own.
    assert "AoE…" in menus["Choose a combat ability"]
    assert "Speed: Roll to move twice" in menus["Choose a combat ability"]  # alone in its kind
    await table.pick(panel, "AoE…")
    assert _menus(table, panel)["Choose a combat ability: AoE"] == [
        "AoE: Blast", "AoE: Continuous", "AoE: Cover", "AoE: Demolish",
        "Other kinds of ability…"]
    await table.pick(panel, "Other kinds of ability…")  # and back
    assert "AoE…" in _menus(table, panel)["Choose a combat ability"]
    await table.pick(panel, "AoE…")
    taken = await table.pick(panel, "AoE: Blast")
    assert taken.messages[-1].content == "✨ Ana gains AoE: Blast."
    menus = _menus(table, panel)
    assert list(menus) == ["Add an item: its kind"]  # the one combat ability is taken
    assert AOE_WEAPON in menus["Add an item: its kind"]
    form = await table.pick(panel, AOE_WEAPON)
    added = await table.submit(form.modal, {"Name": "Grenade"}, message=panel)
    assert added.messages[-1].content.startswith("🎒 Ana carries Grenade (AoE) in slot 1")


async def test_an_ability_spent_on_something_else_never_saw_an_aoe_weapon_offered(
        table: Table) -> None:
    await table.slash("character create", name="Ana")
    panel = (await table.slash("character panel", character="Ana")).message
    assert AOE_WEAPON not in _menus(table, panel)["Add an item: its kind"]
    await table.pick(panel, "Shield…")
    await table.pick(panel, "Shield: Good Defend")
    assert list(_menus(table, panel)) == ["Add an item: its kind"]
    assert AOE_WEAPON not in _menus(table, panel)["Add an item: its kind"]


async def test_a_forged_kind_of_ability_is_refused(table: Table) -> None:
    await table.slash("character create", name="Ana")
    panel = (await table.slash("character panel", character="Ana")).message
    for forged in ("kind:99", "kind:-1", "kind:x"):
        refused = await table.choose(panel, [forged])
        assert refused.ephemeral and "Pick one of the menu's entries." in refused.content


async def test_the_menu_of_what_is_in_hand_has_a_visible_label(table: Table) -> None:
    """Discord hides a menu's placeholder once entries are picked (the items held show
    instead), so a line of the panel names that menu and says what it holds."""
    await table.slash("character create", name="Ana")
    for name, kind in (("Knife", "melee_1h"), ("Rifle", "ranged_2h")):
        await table.slash("character item add", character="Ana", name=name, kind=kind)
    panel = (await table.slash("character panel", character="Ana")).message
    label = ("✋ **In hand when a fight starts** (the last menu: a 1H item per hand, or one "
             "2H): ")
    assert panel.content.endswith(label + "nothing yet.")
    assert table.message(panel.id).selects()[-1]["placeholder"].startswith(
        "In hand when a fight starts")
    await table.pick(panel, "1. Knife")
    assert table.message(panel.id).content.endswith(label + "Knife in the right hand.")
    await table.pick(panel, "2. Rifle")
    assert table.message(panel.id).content.endswith(label + "Rifle in both hands.")


async def _fight(table: Table) -> None:
    """Ana (Alice's, a Med kit in hand), Bram (Bob's, her teammate, added first) and Goon and
    Rat (NPCs) on the dance floor, the PCs acting."""
    await add_character(table, "Bram", user=BOB, level=30)
    await add_character(table, "Ana", level=40, weapon=("Knife", "melee_1h"))
    kit = await table.slash("character item add", character="Ana", name="Med kit",
                            kind="first_aid")
    assert not kit.ephemeral, kit.content
    held = await table.slash("character item hold", character="Ana", item="Med kit")
    assert held.content.startswith("✋ Ana has Knife in the right hand and Med kit in the left")
    for npc, level in (("Goon", 25), ("Rat", 20)):
        await add_character(table, npc, user=GM, level=level, npc=True)
    await start_fight(table, ("Bram", "Dance Floor"), ("Ana", "Dance Floor"),
                      ("Goon", "Dance Floor"), ("Rat", "Dance Floor"),
                      user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)


async def _mark(table: Table, name: str, marks: str) -> None:
    done = await table.slash("combat set", user=GM, character=name, location="torso",
                             marks=marks)
    assert not done.ephemeral, done.content


async def _state(table: Table) -> Combat:
    stored = await table.bot.fights.fight(CHANNEL_ID)
    assert stored is not None
    return stored.state


async def _options(table: Table) -> dict[str, list[str]]:
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    panel = (await table.click(turn, "My options", user=ALICE)).message
    assert panel.ephemeral and "**Ana**" in panel.content, panel.content
    return {s["placeholder"]: [o["label"] for o in s["options"]] for s in panel.selects()}


def _first_aid(menus: dict[str, list[str]]) -> list[str]:
    return [label for labels in menus.values() for label in labels
            if label.startswith("First aid")]


async def test_first_aid_is_offered_only_where_it_can_treat_a_mark(table: Table) -> None:
    await _fight(table)
    # Nobody is hurt: no first aid to anyone, in the panel or /firstaid's autocomplete.
    assert _first_aid(await _options(table)) == []
    assert await table.autocomplete("firstaid", "target") == []
    # Only X and ■ marks: first aid cannot treat them (004 "Damage").
    await _mark(table, "Bram", "X■")
    assert _first_aid(await _options(table)) == []
    await _mark(table, "Bram", "X\\")
    assert _first_aid(await _options(table)) == ["First aid to Bram"]
    assert await table.autocomplete("firstaid", "target") == ["Bram"]


async def test_first_aid_that_would_change_nothing_is_refused_before_the_kit_is_spent(
        table: Table) -> None:
    await _fight(table)
    before = await _state(table)
    refused = await table.slash("firstaid", target="Bram")
    assert refused.ephemeral
    assert refused.content == ("Bram has no \\ mark for first aid to treat: it would change "
                               "nothing, so nothing is spent.")
    after = await _state(table)
    assert after.model_dump_json() == before.model_dump_json()  # kit, action, log: unchanged
    kit = next(i for i in after.fighter("Ana").character.items if i.name == "Med kit")
    assert not kit.destroyed


async def test_whom_to_attack_lists_the_other_side_first(table: Table) -> None:
    """Bram, Ana's teammate, came into the fight first; her choices still start with the
    NPCs, each side in the fight's order (rules notes 48)."""
    await _fight(table)
    attacks = (await _options(table))["Attack…"]
    assert attacks == [
        "Goon with Knife", "Rat with Knife",
        "Goon with Knife (less-lethal)", "Rat with Knife (less-lethal)",
        "Bram with Knife", "Bram with Knife (less-lethal)"]
    assert await table.autocomplete("attack", "target") == ["Goon", "Rat", "Bram"]
