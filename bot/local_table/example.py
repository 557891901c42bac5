"""A newcomer's example table, made through the bot's own commands as the players and the GM
would type them: two PCs (alice's Ana, bob's Bram) and two NPCs (the GM's Goon and Rat) with
their weapons in hand, in ``#tavern``; then a fight on the book's nightclub map in ``#fight``
with the four of them placed, ready for ``/combat begin``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from localdiscord.server import LocalDiscord

#: name: (player, level, NPC, items (the first is held))
CHARACTERS: dict[str, tuple[str, int, bool, list[tuple[str, str]]]] = {
    "Ana": ("alice", 40, False, [("Knife", "melee_1h")]),
    "Bram": ("bob", 35, False, [("Rifle", "ranged_2h"), ("Bullets", "ammo")]),
    "Goon": ("gamemaster", 15, True, [("Knife", "melee_1h")]),
    "Rat": ("gamemaster", 20, True, [("Pistol", "ranged_1h"), ("Bullets", "ammo")]),
}
#: Where each starts on the nightclub (the book: PCs start at the entrance or the alley).
PLACES = {"Ana": "Entrance", "Bram": "Entrance", "Goon": "Dance Floor", "Rat": "Bar"}
MAP = "Nightclub"
STEPS = ("characters", "fight")


async def run_example(server: LocalDiscord, step: str) -> list[str]:
    """Do ``step`` of the example; the commands sent, as they would be typed."""
    if step not in STEPS:
        return []
    sent: list[str] = []

    async def slash(user: str, channel: str, command: str, **options: Any) -> None:
        await server.people.slash(user, channel, command, **options)
        typed = " ".join(f"{name}:{value}" for name, value in options.items())
        sent.append(f"{user}: /{command} {typed}".rstrip())

    if step == "characters":
        for name, (user, level, npc, items) in CHARACTERS.items():
            await slash(user, "tavern", "character create", name=name, level=level,
                        **({"npc": True} if npc else {}))
            for item, kind in items:
                await slash(user, "tavern", "character item add", character=name, name=item,
                            kind=kind)
            await slash(user, "tavern", "character item hold", character=name,
                        item=items[0][0])
        return sent
    await slash("gamemaster", "fight", "combat start", map=MAP)
    for name, area in PLACES.items():
        await slash(CHARACTERS[name][0], "fight", "combat add", character=name, area=area)
    return sent
