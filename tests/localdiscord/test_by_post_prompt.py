"""The one live prompt of a fight by post, against our Discord with the real bot process, its
messages a day old (Discord's clock advanced): a standing order set meanwhile changes nothing
the prompt asks, so the prompt stays where it is (no new message, no edit) and its buttons
still answer; a prompt Discord refuses to strip (its hour-old edits spent: 30046) is deleted
instead, so the fight keeps one live prompt and the step that replaced it is answered as usual.
"""

from __future__ import annotations

import asyncio

import pytest

from localdiscord import LocalDiscord
from localdiscord.people import Shown
from tests.localdiscord.two_fighters import begun_fight, live_prompts

DAY = 24 * 3600.0


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The dice as the pace's tests roll them: the PCs win initiative."""
    return {"UNHEX_DICE_SEED": "7"}


async def _one_live_prompt(discord: LocalDiscord, asks: str) -> Shown:
    """Once the bot is done: the fight's one message with live buttons, offering ``asks``."""
    live: list[Shown] = []
    for _ in range(200):
        live = live_prompts(discord)
        if len(live) == 1 and asks in live[0].labels:
            return live[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"live prompts: {[(m.content[:60], m.labels) for m in live]}")


async def _armed_fight(discord: LocalDiscord) -> Shown:
    """Ana (Alice's PC, a knife in hand) and Goon (an NPC) in a begun fight, the PCs' turn;
    its live prompt."""
    await begun_fight(discord, knife=True)
    return await _one_live_prompt(discord, "Done (PCs)")


async def _ana_attacks_goon(discord: LocalDiscord) -> Shown:
    """Ana attacks Goon in the PCs' turn: the prompt asking the GM how Goon reacts."""
    attacked = await discord.people.slash("alice", "fight", "attack", target="Goon")
    assert attacked.kind == "message", attacked.kind
    assert not any(m.ephemeral for m in attacked.messages), attacked.messages  # no error
    assert any("Goon may" in m.content for m in attacked.messages), attacked.messages
    return await _one_live_prompt(discord, "Pass")


async def test_an_order_set_on_a_day_old_fight_keeps_the_prompt_and_its_buttons_answer(
        discord: LocalDiscord, bot: object) -> None:
    await _armed_fight(discord)
    prompt = await _ana_attacks_goon(discord)
    fight = discord.channel("fight")
    discord.clock.advance(DAY)
    opened = await discord.people.slash("gamemaster", "fight", "combat orders",
                                        character="Goon")
    panel = next(m for m in opened.messages if m.ephemeral)
    since = len(discord.calls)
    picked = await discord.people.pick("gamemaster", panel, "When attacked: defend")
    assert any(m.content.startswith("Saved:") for m in picked.messages), picked.messages

    pressed = await discord.people.press("gamemaster", prompt, "Pass")

    assert pressed.interaction.answer_kind == "update", pressed.content
    assert "out of date" not in pressed.content
    between = discord.calls[since:]
    assert not [c for c in between if c.method == "POST"
                and c.path == f"/channels/{fight.id}/messages"]  # no prompt posted afresh
    assert not [c for c in between if c.method == "PATCH" and str(prompt.id) in c.path]
    after = await _one_live_prompt(discord, "8 damage · 1: left leg")  # Goon was hit
    assert after.id != prompt.id


async def test_a_strip_refused_for_an_hour_old_prompt_deletes_it_and_the_step_is_answered(
        discord: LocalDiscord, bot: object) -> None:
    old = await _armed_fight(discord)
    discord.clock.advance(DAY)
    discord.limiter.limits.old_edit = (0, 60.0)  # every edit of an hour-old message: 30046

    prompt = await _ana_attacks_goon(discord)

    assert prompt.id != old.id
    assert old.id not in discord.messages  # deleted rather than stripped
    fight = discord.channel("fight")
    refused = [c.status for c in discord.calls if c.method == "PATCH"
               and c.path == f"/channels/{fight.id}/messages/{old.id}"]
    assert refused == [429]
    assert [c.status for c in discord.calls if c.method == "DELETE"
            and c.path == f"/channels/{fight.id}/messages/{old.id}"] == [204]
