"""The board's answer to each of Discord's refusals, where the local Discord cannot say it:
an hour-old message's edits refused as a 400 (Discord's other way of saying 30046). The
process tests are in ``tests/localdiscord/test_boards.py``."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.cogs.combat.board_message import BoardMessages
from bot.store.values import StoredCombat
from data import load_rules
from engine.combat import new_combat


class _Response:
    status, reason = 400, "Bad Request"


class _Bot:
    """A bot whose edits Discord refuses (``refusal``)."""

    allowed_mentions = discord.AllowedMentions.none()

    def __init__(self, refusal: dict[str, Any]) -> None:
        self.http = self
        self.refusal = refusal
        self.edited: list[tuple[int, int]] = []

    async def edit_message(self, channel_id: int, message_id: int, **_: Any) -> None:
        self.edited.append((channel_id, message_id))
        raise discord.HTTPException(_Response(), self.refusal)  # type: ignore[arg-type]


class _Channel:
    """A channel recording what is done in it."""

    id = 5

    def __init__(self) -> None:
        self.done: list[tuple[str, int]] = []

    def get_partial_message(self, ident: int) -> Any:
        channel = self

        class Partial:
            async def unpin(self, **_: Any) -> None:
                channel.done.append(("unpin", ident))

        return Partial()

    async def send(self, content: str, **_: Any) -> Any:
        channel = self
        channel.done.append(("post", 99))

        class Posted:
            id = 99

            async def pin(self, **_: Any) -> None:
                channel.done.append(("pin", 99))

        return Posted()


async def test_an_hour_old_board_refused_as_a_400_is_posted_afresh_pinned_the_old_unpinned(
) -> None:
    stored = StoredCombat(1, 2, 5, "bar", new_combat("Bar -- Kitchen"), 3, 7, None, pin=True)
    channel = _Channel()
    bot = _Bot({"code": 30046, "message": "Maximum number of edits to messages older than 1 "
                                          "hour reached. Try again later."})

    shown = await BoardMessages(load_rules(), bot).show(  # type: ignore[arg-type]
        channel, stored, 7, nonce="b1.3")  # type: ignore[arg-type]

    assert bot.edited == [(5, 7)]
    assert shown == 99 and channel.done == [("post", 99), ("pin", 99), ("unpin", 7)]


async def test_a_board_refused_otherwise_is_not_posted_again() -> None:
    stored = StoredCombat(1, 2, 5, "bar", new_combat("Bar -- Kitchen"), 3, 7, None, pin=True)
    channel = _Channel()
    bot = _Bot({"code": 50035, "message": "Invalid Form Body"})

    with pytest.raises(discord.HTTPException):
        await BoardMessages(load_rules(), bot).show(  # type: ignore[arg-type]
            channel, stored, 7, nonce="b1.3")  # type: ignore[arg-type]
    assert bot.edited == [(5, 7)] and channel.done == []
