"""The steps most fight tests start with, through the real slash commands: a character made
and armed, a fight started with everyone placed, the PCs going first, ammo given."""

from __future__ import annotations

from testbed.harness import ALICE, GM, Table

__all__ = [
    "add_character", "ana_and_goon_on_the_dance_floor", "arm_with_grenade", "begin_pcs_first",
    "copy_npc", "give_ammo", "start_fight",
]


async def add_character(table: Table, name: str, *, user=ALICE, level: int = 50,
                        npc: bool = False,
                        weapon: tuple[str, str] | None = ("Knife", "melee_1h")) -> None:
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


async def arm_with_grenade(table: Table, name: str, *, user=ALICE) -> None:
    """``name`` takes the Blast ability and holds a grenade for it."""
    for step in (("character ability add", {"ability": "aoe.blast"}),
                 ("character item add", {"name": "Grenade", "kind": "aoe"}),
                 ("character item hold", {"item": "Grenade"})):
        done = await table.slash(step[0], user=user, character=name, **step[1])
        assert not done.ephemeral, done.content


async def copy_npc(table: Table, name: str, count: int) -> None:
    """``count`` NPC copies of ``name`` (Name 1 to Name ``count``), by as many
    `/character copy` as its limit of 25 a command takes."""
    while count:
        step = min(count, 25)
        copied = await table.slash("character copy", user=GM, character=name, count=step)
        assert not copied.ephemeral, copied.content
        count -= step


async def start_fight(table: Table, *placements: tuple[str, str], user_of: dict[str, object],
                      map_name: str = "Nightclub") -> None:
    started = await table.slash("combat start", user=GM, map=map_name)
    assert not started.ephemeral, started.content
    for name, area in placements:
        added = await table.slash("combat add", user=user_of.get(name, GM), character=name,
                                  area=area)
        assert not added.ephemeral, added.content


async def begin_pcs_first(table: Table) -> None:
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)


async def give_ammo(table: Table, name: str, user=GM, item: str = "Bullets",
                    less_lethal: bool = False) -> None:
    options: dict[str, object] = {"character": name, "name": item, "kind": "ammo"}
    if less_lethal:
        options["less_lethal"] = True
    added = await table.slash("character item add", user=user, **options)
    assert not added.ephemeral, added.content


async def ana_and_goon_on_the_dance_floor(table: Table) -> None:
    """Ana (Alice's PC, 40, a knife) and Goon (an NPC, 25, a knife), round 1, PCs acting."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    await begin_pcs_first(table)
