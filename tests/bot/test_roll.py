"""/roll as a player sees it, through the real dispatch path."""

from __future__ import annotations

from tests.harness import ALICE, BOB, Table


async def test_plain_roll_shows_value_level_outcome_and_degrees(table: Table) -> None:
    table.dice(3, 4)
    reply = await table.slash("roll", level=40)
    assert reply.kind == "message" and not reply.ephemeral
    assert ALICE.mention in reply.content
    assert "**34** (3·4) — SUCCESS · degrees 3 and 4" in reply.content
    assert "vs **40**" in reply.content
    assert reply.message.buttons == []
