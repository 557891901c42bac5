"""A newcomer's example table, made through the bot's own commands as the players and the GM
would type them: two PCs (alice's Ana, bob's Bram) and two NPCs (the GM's Goon and Rat) with
their weapons in hand, in ``#tavern``; then a fight on the book's nightclub map in ``#fight``
with the four of them placed, ready for ``/combat begin``.

What exists already is asked of the bot first (``/character list``, ``/combat status``, both
answered to the GM alone) and left as it is, so a second press changes nothing; each command
sent is told back with whether the bot accepted it (a refusal is the bot's answer to its
typist alone, which the page's viewer may not be).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from localdiscord.model import Interaction
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
GM = "gamemaster"
#: What the bot says when it did not answer in time (as Discord's client says it).
NO_ANSWER = "The application did not respond"


@dataclass
class Told:
    """What a step of the example did: each command sent (as typed), accepted or refused
    with the bot's answer, and what it left alone because it was there already."""

    accepted: list[str] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "refused": self.refused, "kept": self.kept}


def _answer(server: LocalDiscord, interaction: Interaction) -> tuple[bool, str] | None:
    """The bot's answer to ``interaction``: (whether to its typist alone, its text); None:
    it did not answer."""
    shown = server.messages.get(interaction.original_id or 0)
    if shown is None:
        return None
    return shown.ephemeral, shown.content


async def _ask(server: LocalDiscord, channel: str, command: str) -> str:
    """The text of the bot's answer to the GM's ``/command`` (with no options)."""
    reply = await server.people.slash(GM, channel, command)
    answered = _answer(server, reply.interaction)
    return "" if answered is None else answered[1]


async def run_example(server: LocalDiscord, step: str) -> Told:
    """Do ``step`` of the example, skipping what exists already."""
    told = Told()
    if step not in STEPS:
        return told

    async def slash(user: str, channel: str, command: str, **options: Any) -> None:
        reply = await server.people.slash(user, channel, command, **options)
        typed = f"{user}: /{command} " + " ".join(f"{k}:{v}" for k, v in options.items())
        answered = _answer(server, reply.interaction)
        # The bot says what it did to the table; it refuses to its typist alone.
        if answered is not None and not answered[0]:
            told.accepted.append(typed.rstrip())
        else:
            told.refused.append({"command": typed.rstrip(),
                                 "answer": NO_ANSWER if answered is None else answered[1]})

    if step == "characters":
        listed = await _ask(server, "tavern", "character list")
        existing = set(re.findall(r"^\W*\*\*(.+?)\*\*", listed, re.MULTILINE))
        for name, (user, level, npc, items) in CHARACTERS.items():
            if name in existing:
                told.kept.append(name)
                continue
            await slash(user, "tavern", "character create", name=name, level=level,
                        **({"npc": True} if npc else {}))
            for item, kind in items:
                await slash(user, "tavern", "character item add", character=name, name=item,
                            kind=kind)
            await slash(user, "tavern", "character item hold", character=name,
                        item=items[0][0])
        return told
    status = await _ask(server, "fight", "combat status")
    if "```" in status:  # the board of a fight running there
        told.kept.append("the fight")
    else:
        await slash(GM, "fight", "combat start", map=MAP)
    for name, area in PLACES.items():
        if re.search(rf"^{re.escape(name)} \[", status, re.MULTILINE):
            told.kept.append(name)
        else:
            await slash(CHARACTERS[name][0], "fight", "combat add", character=name, area=area)
    return told
