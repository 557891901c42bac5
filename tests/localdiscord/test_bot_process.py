"""The unchanged bot process against the local Discord: it logs in, connects, syncs its
commands, and answers people in the guild's channels."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from localdiscord import APP_ID, LocalDiscord
from localdiscord.people import Shown


async def test_the_bot_syncs_and_answers_a_roll_in_the_fight_channel(
        discord: LocalDiscord, bot: Path) -> None:
    assert {c["name"] for c in discord.commands[None]} >= {"roll", "character", "combat"}
    assert discord.gateway.state.identifies == 1

    reply = await discord.people.slash("alice", "fight", "roll", level=40)

    assert reply.kind == "message"
    kept = discord.channel_messages("fight")
    assert [m.id for m in kept] == [reply.message.id]
    assert kept[0].author.id == APP_ID and "40" in kept[0].content
    assert discord.feed.of("message_create", discord.channel("fight").id)


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "7"}


async def _critical(discord: LocalDiscord) -> Shown:
    """Alice rolls until a critical success offers its buttons (the dice are seeded)."""
    for _ in range(40):
        reply = await discord.people.slash("alice", "fight", "roll", level=99)
        if "Extra action" in reply.message.labels:
            return reply.message
    raise AssertionError("forty rolls without a critical success")


async def test_a_press_sent_while_the_connection_is_down_arrives_once_on_the_resume(
        discord: LocalDiscord, bot: Path) -> None:
    roll = await _critical(discord)
    state = discord.gateway.state
    state.answer_resume.clear()  # Discord is slow to take the bot back
    await discord.faults.drop()
    pressed = discord.people.send_press("alice", roll, "Extra action")
    await asyncio.sleep(0.2)
    assert pressed.answered is None  # the bot has not seen it
    state.answer_resume.set()

    reply = await discord.people.wait(pressed)

    assert reply.kind == "update" and "Extra action" not in reply.message.labels
    assert (state.identifies, state.resumes) == (1, 1)
    session = discord.gateway.sessions[0]
    sent = [e for e in session.events if e["t"] == "INTERACTION_CREATE"
            and e["d"]["id"] == str(pressed.id)]
    assert len(sent) == 1
    answers = [c for c in discord.calls if pressed.token in c.path]
    assert [(c.method, c.status) for c in answers] == [("POST", 200)]  # answered once


async def test_a_modal_and_an_autocomplete_go_through_the_bot_as_on_discord(
        discord: LocalDiscord, bot: Path) -> None:
    roll = await _critical(discord)
    form = await discord.people.press("alice", roll, "Adjust")
    assert form.kind == "modal"
    (label,) = form.modal.fields
    assert label.startswith("Set the roll to")

    adjusted = await discord.people.submit("alice", form, {label: "1"})

    assert adjusted.kind == "update" and adjusted.message.id == roll.id
    assert not discord.messages[roll.id].components  # decided: no buttons left
    made = await discord.people.slash("gamemaster", "fight", "character create", name="Ana",
                                      level=50)
    assert made.kind == "message"
    offered = await discord.people.autocomplete("gamemaster", "fight", "character copy",
                                                "character", count=1)
    assert [c["name"] for c in offered] == ["Ana"]
