"""A begun fight in `#fight` of our Discord, played by people in Discord's client, and what of
it one may still press: what the real bot process's tests start from."""

from __future__ import annotations

from localdiscord import LocalDiscord
from localdiscord.people import Shown

DONE_PCS = "Done (PCs)"


async def begun_fight(discord: LocalDiscord, *, knife: bool = False) -> Shown:
    """Ana (Alice's PC; ``knife``: a knife in her hand) and Goon (an NPC) in a begun fight,
    the PCs' turn; its live prompt."""
    people = discord.people
    for name, user, npc in (("Ana", "alice", False), ("Goon", "gamemaster", True)):
        made = await people.slash(user, "fight", "character create", name=name, level=40,
                                  **({"npc": True} if npc else {}))
        assert made.kind == "message", made.content
    for step, options in (("character item add", {"name": "Knife", "kind": "melee_1h"}),
                          ("character item hold", {"item": "Knife"})) if knife else ():
        done = await people.slash("alice", "fight", step, character="Ana", **options)
        assert not done.message.ephemeral, done.content
    await people.slash("gamemaster", "fight", "combat start", map="Nightclub")
    for name, user in (("Ana", "alice"), ("Goon", "gamemaster")):
        await people.slash(user, "fight", "combat add", character=name, area="Dance Floor")
    begun = await people.slash("gamemaster", "fight", "combat begin")
    asking = next(m for m in begun.messages if "PCs first" in m.labels)
    await people.press("alice", asking, "PCs first")
    (prompt,) = live_prompts(discord)
    assert DONE_PCS in prompt.labels, prompt.labels
    return prompt


def live_prompts(discord: LocalDiscord) -> list[Shown]:
    """The fight channel's messages with buttons (or menus) one may still use."""
    return [Shown(discord.message_payload(m)) for m in discord.channel_messages("fight")
            if m.components and not m.ephemeral]
