"""A fast exchange against Discord's limits: twelve steps, one every half second, each
answered through its interaction (the pressed prompt updated, the next question as a
follow-up), so that the channel's buckets pay for the board alone. Times are the bench's
(``bench/bench_burst.py``); here, what the table sees and what it cost."""

from __future__ import annotations

from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from testbed.exchange import burst, live_prompts, set_up


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "7"}


async def test_twelve_steps_at_human_speed_cost_one_channel_request_each_at_most(
        discord: LocalDiscord, bot: Path) -> None:
    await set_up(discord)

    played = await burst(discord, steps=12, every=0.5)

    assert played.refused == 0, played.summary()
    assert played.per_step <= 1.0, played.summary()
    assert all(s.prompt_at is not None for s in played.steps), played.summary()
    (live,) = live_prompts(discord)  # one message with live buttons: the newest question
    assert live.id == max(m.id for m in discord.channel_messages("fight") if m.components)
    board = next(m for m in discord.channel_messages("fight") if m.pinned)
    fight_log = await discord.people.slash("alice", "fight", "combat status")
    drawn = board.content.removeprefix("```text\n").removesuffix("\n```")
    assert drawn in fight_log.message.content, (board.content, fight_log.message.content)
    print(played.summary())
