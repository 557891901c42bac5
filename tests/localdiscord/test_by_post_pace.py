"""A fight by post against our Discord, with the real bot process: its prompt and board a day
old (Discord's clock advanced, the bot's not), so every edit of them spends the channel's
scarce edits of hour-old messages (30046), and a follow-up that reaches Discord past its
token's 15 minutes is refused (50027). Each time a press on the day-old prompt is answered,
the board ends current (edited, or posted afresh and pinned once Discord refuses the edit),
exactly one message of the fight has live buttons, and every step is kept once."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from localdiscord import APP_ID, LocalDiscord
from localdiscord.model import Channel, Message
from localdiscord.people import Shown
from tests.localdiscord.two_fighters import begun_fight

DAY, TOKEN_LIFE = 24 * 3600.0, 15 * 60.0
OLD_MESSAGE_EDITS = 30046
#: Presses on each channel's prompt, a round by post: each press, what the board then says
#: and what the next prompt asks (the dice seeded: in the tavern, Thug's critical failure at
#: initiative costs the NPCs their turn of round 2).
FIRST_STEPS = (("Done (PCs)", "Round 1 · turn · NPCs acting", "Done (NPCs)"),
               ("Done (NPCs)", "Round 2 · initiative", "PCs first"),
               ("PCs first", "Round 2 · turn · PCs acting", "Done (PCs)"))
ROUND = {"fight": (*FIRST_STEPS, ("Done (PCs)", "Round 2 · turn · NPCs acting", "Done (NPCs)")),
         "tavern": (*FIRST_STEPS, ("Done (PCs)", "Round 3 · initiative", "NPCs first"))}


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The dice as the boards' tests roll them: the PCs win initiative."""
    return {"UNHEX_DICE_SEED": "7"}


def _boards(discord: LocalDiscord, where: Channel) -> list[Message]:
    return [m for m in discord.channel_messages(where.id) if m.content.startswith("```text")]


def _live(discord: LocalDiscord, where: Channel) -> list[Message]:
    """The channel's messages with buttons (or menus) one may still use."""
    return [m for m in discord.channel_messages(where.id) if m.components and not m.ephemeral]


async def _the_table_shows(discord: LocalDiscord, where: Channel, board_says: str,
                           asks: str) -> tuple[Message, Shown]:
    """Once the bot is done: one pinned board saying ``board_says`` and one live prompt
    with the button ``asks``; the two."""
    for _ in range(200):
        pinned = discord.pins(where.id)
        live = [Shown(discord.message_payload(m)) for m in _live(discord, where)]
        if len(pinned) == 1 and board_says in pinned[0].content and len(live) == 1 \
                and asks in live[0].labels:
            return pinned[0], live[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"pinned: {[b.content[:60] for b in pinned]}; live prompts: "
                         f"{[(m.content[:60], m.labels) for m in live]}")


def _steps(bot: Path) -> dict[int, list[str]]:
    """Each fight's kept steps (their kinds), in order."""
    database = sqlite3.connect(bot.parent / "db.sqlite3")
    try:
        rows = database.execute("SELECT combat_id, command FROM combat_log ORDER BY id")
        kept: dict[int, list[str]] = {}
        for combat_id, command in rows:
            kept.setdefault(combat_id, []).append(json.loads(command)["kind"])
        return kept
    finally:
        database.close()


async def _begin_in(discord: LocalDiscord, channel: str, pc: str, npc: str,
                    player: str) -> Shown:
    """``pc`` (``player``'s) and ``npc`` (the GM's) in a begun fight in ``channel``, the PCs
    first; its live prompt."""
    people = discord.people
    for name, user, is_npc in ((pc, player, False), (npc, "gamemaster", True)):
        made = await people.slash(user, channel, "character create", name=name, level=40,
                                  **({"npc": True} if is_npc else {}))
        assert made.kind == "message", made.content
    await people.slash("gamemaster", channel, "combat start", map="Nightclub")
    for name, user in ((pc, player), (npc, "gamemaster")):
        await people.slash(user, channel, "combat add", character=name, area="Dance Floor")
    begun = await people.slash("gamemaster", channel, "combat begin")
    asking = next(m for m in begun.messages if "PCs first" in m.labels)
    await people.press("gamemaster", asking, "PCs first")
    _, prompt = await _the_table_shows(discord, discord.channel(channel),
                                       "Round 1 · turn · PCs acting", "Done (PCs)")
    return prompt


async def test_a_press_on_a_day_old_prompt_is_answered_and_the_board_edited(
        discord: LocalDiscord, bot: Path) -> None:
    prompt = await begun_fight(discord)
    fight = discord.channel("fight")
    (board,) = discord.pins(fight.id)
    discord.clock.advance(DAY)
    assert discord.messages[prompt.id].age(discord.clock.now()) > DAY

    reply = await discord.people.press("alice", prompt, "Done (PCs)")

    assert reply.interaction.answer_kind == "update"  # its own token: a minute old
    assert not discord.messages[prompt.id].components
    now, asking = await _the_table_shows(discord, fight, "Round 1 · turn · NPCs acting",
                                         "Done (NPCs)")
    assert now.id == board.id  # an hour-old message: edited while its edits last
    assert asking.id > prompt.id
    (kept,) = _steps(bot).values()
    assert kept[-1] == "done" and kept.count("done") == 1


async def test_presses_in_a_row_in_two_channels_spend_the_old_edits_and_boards_are_posted_afresh(
        discord: LocalDiscord, bot: Path) -> None:
    # Discord gives no figure: 3 edits of hour-old messages a channel, here for a minute
    # rather than 6 s, so that a slow machine spends them too.
    discord.limiter.limits.old_edit = (3, 60.0)
    channels = {"fight": ("Ana", "Goon", "alice"), "tavern": ("Bo", "Thug", "bob")}
    prompts = {name: await _begin_in(discord, name, *fighters)
               for name, fighters in channels.items()}
    old_boards = {name: discord.pins(name)[0].id for name in channels}
    begun = {name: len(steps) for name, steps in zip(channels, _steps(bot).values(),
                                                     strict=True)}
    discord.clock.advance(DAY)

    for step in range(len(FIRST_STEPS) + 1):
        for name in channels:  # a press here, then one there: each channel's own edits
            label, board_says, asks = ROUND[name][step]
            reply = await discord.people.press("gamemaster", prompts[name], label)
            assert reply.interaction.answer_kind == "update", reply.content
            _, prompts[name] = await _the_table_shows(discord, discord.channel(name),
                                                      board_says, asks)

    for name in channels:
        where = discord.channel(name)
        refused = [c for c in discord.calls if c.method == "PATCH" and c.status == 429
                   and c.path.endswith(f"/channels/{where.id}/messages/{old_boards[name]}")]
        assert [c.status for c in refused] == [429]  # the 4th edit: posted afresh, pinned
        (board,) = discord.pins(where.id)
        assert board.id != old_boards[name] and board.age(discord.clock.now()) < DAY
        assert ROUND[name][-1][1] in board.content
        assert not discord.messages[old_boards[name]].pinned
    kinds = list(_steps(bot).values())
    assert [len(k) - begun[name] for k, name in zip(kinds, channels, strict=True)] == [4, 4]


async def test_a_follow_up_past_its_tokens_15_minutes_is_posted_in_the_channel(
        discord: LocalDiscord, bot: Path) -> None:
    prompt = await begun_fight(discord)
    fight = discord.channel("fight")
    discord.clock.advance(DAY)
    arrived = asyncio.Event()
    pressed = discord.people.send_press("alice", prompt, "Done (PCs)")
    # The bot's follow-ups reach Discord late: after the token's 15 minutes.
    discord.faults.hold_next(f"/webhooks/{APP_ID}/{pressed.token}", arrived, count=5)
    await asyncio.wait_for(pressed.done.wait(), 5)  # answered (type 7) in time
    discord.clock.advance(TOKEN_LIFE + 1)
    arrived.set()
    reply = await discord.people.wait(pressed)

    assert reply.interaction.answer_kind == "update"
    follow_ups = [c.status for c in discord.calls if pressed.token in c.path
                  and c.method == "POST" and "/webhooks/" in c.path]
    assert follow_ups and set(follow_ups) == {401}  # 50027: none made
    _, asking = await _the_table_shows(discord, fight, "Round 1 · turn · NPCs acting",
                                       "Done (NPCs)")
    assert discord.messages[asking.id].interaction_id is None  # the channel's post
    (told,) = [m for m in discord.channel_messages(fight.id) if "PCs are done." in m.content]
    assert told.interaction_id is None and told.id < asking.id
    assert _steps(bot)[1][-1] == "done" and _steps(bot)[1].count("done") == 1
