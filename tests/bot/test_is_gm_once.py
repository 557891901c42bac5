"""Whether the user is a GM is worked out once per interaction, however many checks ask."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.permissions import is_gm


async def test_is_gm_reads_the_gm_role_once_per_interaction() -> None:
    asked: list[int] = []

    async def gm_role(guild_id: int) -> int | None:
        asked.append(guild_id)
        return 5

    interaction: Any = SimpleNamespace(
        extras={}, guild_id=1, permissions=SimpleNamespace(manage_guild=False),
        client=SimpleNamespace(store=SimpleNamespace(guilds=SimpleNamespace(gm_role=gm_role))),
        user=SimpleNamespace(roles=()))
    assert [await is_gm(interaction) for _ in range(3)] == [False] * 3
    assert asked == [1]
