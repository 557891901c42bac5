"""One legality query at the table: what `/attack`, `/move`, `/door`, `/direct` and `/item`
autocomplete offers is what the engine's query (``engine.combat.options``) says the fighter may
start now, for a player and for the GM acting as an NPC; and a pick from **My options** is
judged once, by applying it, with the panel drawn once afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.combat.acting import split_actor
from engine.combat import Actor, Attack, Combat, Command
from engine.combat.machine import HANDLERS
from engine.combat.options import Slot, slot_values
from testbed.harness import ALICE, GM, Table, User
from tests.bot.fights import add_character, begin_pcs_first, give_ammo, start_fight

#: Each slash command's option the query answers: (command, option, slot, the option the
#: slot depends on).
SLOTS: tuple[tuple[str, str, Slot, str | None], ...] = (
    ("attack", "target", Slot.TARGET, None),
    ("attack", "with", Slot.WEAPON, "target"),
    ("move", "to", Slot.MOVE, None),
    ("move", "then", Slot.SECOND_MOVE, "to"),
    ("door", "area", Slot.DOOR, None),
    ("direct", "who", Slot.DIRECT, None),
    ("firstaid", "target", Slot.FIRST_AID, None),
    ("item hold", "item", Slot.HOLD, None),
    ("item pickup", "item", Slot.PICKUP, None),
    ("item drop", "item", Slot.DROP, None),
    ("item use", "what", Slot.USE, None),
)


async def _manor(table: Table) -> None:
    """Ana (Alice's leader with Speed, a pistol and a knife in the pack) and Bo (hers too) in
    the manor's hall; Goon and Rat (NPCs with knives) in the library and the hall. PCs act."""
    await add_character(table, "Ana", level=60, weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Ana", user=ALICE)
    knife = await table.slash("character item add", character="Ana", name="Knife",
                              kind="melee_1h")
    assert not knife.ephemeral, knife.content
    for ability in ("speed.move_twice", "leader.direct"):
        gained = await table.slash("character ability add", character="Ana", ability=ability)
        assert not gained.ephemeral, gained.content
    await add_character(table, "Bo", level=30)
    await add_character(table, "Goon", user=GM, level=30, npc=True)
    await add_character(table, "Rat", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Hall"), ("Bo", "Hall"), ("Goon", "Library"),
                      ("Rat", "Hall"), user_of={"Ana": ALICE, "Bo": ALICE}, map_name="Manor")
    await begin_pcs_first(table)


async def _state(table: Table) -> Combat:
    stored = await table.bot.fights.fight(table.channel_messages()[-1].channel_id)
    assert stored is not None
    return stored.state


async def _offered(table: Table, command: str, option: str, user: User,
                   **given: str) -> list[str]:
    """What autocomplete offers, as the values the command then gets."""
    choices = await table.autocomplete_choices(command, option, user=user, **given)
    return [split_actor(c["value"])[1] for c in choices]


async def _check_every_slot(table: Table, name: str, user: User, **whose: str) -> int:
    """Every slot's autocomplete is the query's answer for ``name``; how many names in all."""
    state = await _state(table)
    actor = Actor(user_id=user.id, gm=user.gm)
    rules = table.bot.fights.rules
    total = 0
    for command, option, slot, depends in SLOTS:
        givens = [None] if depends is None else list(slot_values(
            state, name, rules, actor, Slot.TARGET if depends == "target" else Slot.MOVE))
        for given in givens:
            extra = {} if given is None else {depends: given}
            expected = list(slot_values(state, name, rules, actor, slot, given))[:25]
            offered = await _offered(table, command, option, user, **whose, **extra)
            assert offered == expected, (command, option, given)
            total += len(expected)
    return total


async def test_autocomplete_offers_what_the_query_says(table: Table) -> None:
    await _manor(table)
    assert await _check_every_slot(table, "Ana", ALICE, **{"as": "Ana"}) > 10
    assert await _offered(table, "attack", "target", ALICE, **{"as": "Ana"}) == ["Rat", "Bo"]
    assert await _offered(table, "move", "then", ALICE, to="Library", **{"as": "Ana"}) == []
    # Ana's action spent: her gear and place still name what she could start.
    moved = await table.slash("move", to="Study", **{"as": "Ana"})
    assert not moved.ephemeral, moved.content
    await _check_every_slot(table, "Ana", ALICE, **{"as": "Ana"})
    await _check_every_slot(table, "Bo", ALICE, **{"as": "Bo"})
    # The GM acting as an NPC, on the other team's turn.
    await _check_every_slot(table, "Goon", GM, **{"as": "Goon"})


async def test_a_pick_from_my_options_is_judged_once(table: Table,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    await _manor(table)
    judged: list[tuple[Combat, Command]] = []

    def counting(kind: type) -> Any:
        handler = HANDLERS[kind]

        def judge(c: Combat, cmd: Command, ctx: Any) -> Combat:
            judged.append((c, cmd))
            return handler(c, cmd, ctx)
        return judge

    for kind in list(HANDLERS):
        monkeypatch.setitem(HANDLERS, kind, counting(kind))
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    panel = (await table.click(turn, "My options", user=ALICE)).message
    judged.clear()
    before = await _state(table)
    menus = panel.selects()
    index = next(i for i, s in enumerate(menus) if s["placeholder"] == "Move or a door…")
    value = next(o["value"] for o in menus[index]["options"] if o["label"] == "Study")
    picked = await table.choose(panel, [value], user=ALICE, index=index)
    assert picked.kind == "update", picked.answer.content
    attacks = [cmd for c, cmd in judged if isinstance(cmd, Attack) and c == before]
    assert attacks == [], "the pick is a move: no attack is tried on the fight before it"
    on_before = [cmd for c, cmd in judged if c == before]
    assert len(on_before) == 1, on_before  # the pick, applied once
    after = [(id(c), cmd) for c, cmd in judged if c != before]
    assert len(after) == len(set(after)), "each option of the panel after it, judged once"
