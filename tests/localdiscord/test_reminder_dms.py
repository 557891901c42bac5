"""Reminders by direct message against our Discord, with the real bot process: in a fight by
post, Alice (reminded by DM) is reminded in her DM with the bot; Bob, who chose DMs too but
takes none from the bot, is reminded in the fight's channel, told of the refusal the first
time only.

The bot's clock is the wall clock (our Discord's ``clock.advance`` moves Discord's time, not
the bot's: the other by-post process tests age messages that way), so the questions here are
ten minutes long, the shortest that remind, and the fight reminds 599 s before the deadline:
a second after each question opens."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cogs.combat.reminders import DM_REFUSED
from localdiscord import LocalDiscord
from localdiscord.model import Message
from localdiscord.people import Shown

#: How long the bot is given for what it does of itself (a reminder a second away).
WAIT_SECONDS = 30.0


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "7"}


async def _until(found: Callable[[], list[Message]], what: str) -> list[Message]:
    for _ in range(int(WAIT_SECONDS / 0.05)):
        if made := found():
            return made
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never posted {what}")


def _reminders(discord: LocalDiscord, where: int, mentioning: str) -> list[Message]:
    return [m for m in discord.channel_messages(where)
            if m.content.startswith("⏰ Reminder") and mentioning in m.content]


def _saying(messages: list[Message], words: str) -> list[Message]:
    return [m for m in messages if words in m.content]


def _prompt(discord: LocalDiscord, label: str) -> Shown:
    return next(Shown(discord.message_payload(m)) for m in discord.channel_messages("fight")
                if any(p.get("label") == label for row in m.components
                       for p in row.get("components", [])))


async def test_a_dm_reminder_reaches_the_dm_and_a_refused_one_is_said_once_in_the_channel(
        discord: LocalDiscord, bot: Path) -> None:
    people = discord.people
    alice, bob = (f"<@{discord.user(name).id}>" for name in ("alice", "bob"))
    for player in ("alice", "bob"):
        chose = await people.slash(player, "fight", "settings reminders", where="dm")
        assert chose.message.ephemeral, chose.content
    people.refuse_dms("bob")  # Bob turned off direct messages from server members
    for name, user, npc in (("Ana", "alice", False), ("Bea", "bob", False),
                            ("Goon", "gamemaster", True)):
        made = await people.slash(user, "fight", "character create", name=name, level=40,
                                  **({"npc": True} if npc else {}))
        assert made.kind == "message", made.content
    for step, options in (("character item add", {"name": "Knife", "kind": "melee_1h"}),
                          ("character item hold", {"item": "Knife"})):
        await people.slash("gamemaster", "fight", step, character="Goon", **options)
    await people.slash("gamemaster", "fight", "combat start", map="Nightclub",
                       pace="by post", reaction="10m", turn="10m")
    await people.slash("gamemaster", "fight", "combat settings", remind="599s")
    for name, user in (("Ana", "alice"), ("Bea", "bob"), ("Goon", "gamemaster")):
        await people.slash(user, "fight", "combat add", character=name, area="Dance Floor")
    begun = await people.slash("gamemaster", "fight", "combat begin")
    who_rolls = next(m for m in begun.messages if "Ana rolls" in m.labels)
    rolled = await people.press("alice", who_rolls, "Ana rolls")
    asking = next(m for m in rolled.messages if "PCs first" in m.labels)
    await people.press("alice", asking, "PCs first")

    # (a reminder of the initiative's question, a second after it was asked, may come first
    # when the machine is slow: its deadline is the turn's length too)
    fight = discord.channel("fight").id
    alices = await _until(lambda: _saying(discord.channel_messages(people.dm("alice")),
                                          "Ana may act"), "Alice's DM")
    assert alices[-1].content.startswith(
        f"⏰ Reminder: the fight in <#{fight}> waits for you"), alices[-1].content
    [first] = await _until(lambda: _saying(_reminders(discord, fight, bob), "Bea may act"),
                           "Bob's reminder")
    said = [m for m in _reminders(discord, fight, bob) if DM_REFUSED in m.content]
    assert said[0].content.count(DM_REFUSED) == 1 and alice not in first.content, first.content
    assert len(said) == 1 and discord.channel_messages(people.dm("bob")) == []
    dms_to_alice = len(discord.channel_messages(people.dm("alice")))

    await people.press("bob", _prompt(discord, "Done (PCs)"), "Done (PCs)")
    attacked = await people.slash("gamemaster", "fight", "attack", target="Bea",
                                  **{"as": "Goon"})
    assert any("(within 10 minutes)" in m.content for m in attacked.messages), attacked.content
    [second] = await _until(lambda: _saying(_reminders(discord, fight, bob), "Bea may "
                                            "react"), "Bob's second reminder")
    assert DM_REFUSED not in second.content, second.content
    to_bob = f"/channels/{people.dm('bob').id}/messages"
    tried = [c.status for c in discord.calls if c.path == to_bob]
    assert len(tried) >= 2 and set(tried) == {403}  # tried again each time
    assert len(discord.channel_messages(people.dm("alice"))) == dms_to_alice  # not asked
