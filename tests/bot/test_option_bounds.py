"""Numbers past an option's bounds: Discord's client keeps to a command's declared range, a
forged or outdated payload does not, and discord.py passes the number through. Every command
refuses it before it runs, with a clear answer, writing and posting nothing."""

from __future__ import annotations

from typing import Any

import pytest

from testbed.harness import ALICE, GM, GUILD_ID, Table
from tests.bot.test_typed_text import refused


def _bounded(option: dict[str, Any]) -> bool:
    """A text declares its longest length, a number both ends of its range."""
    if option["type"] == 3:
        return "max_length" in option
    return {"min_value", "max_value"} <= set(option)


async def test_every_option_declares_its_bounds(table: Table) -> None:
    """What the central check holds every command to: a number's range, a text's length."""
    unbounded = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        for option in options:
            where = f"{path} {option['name']}"
            if option["type"] in (1, 2):
                walk(where, option.get("options", []))
            elif option.get("choices"):
                continue
            elif option["type"] in (3, 4, 10) and not _bounded(option):
                unbounded.append(where)

    for command in table.synced[-1][1]:
        walk(f"/{command['name']}", command.get("options", []))
    assert unbounded == []


@pytest.mark.parametrize(
    ("command", "user", "options", "option", "bounds", "got"),
    [
        ("character copy", GM, {"character": "Ana", "count": 0}, "count", "1 to 25", "0"),
        ("character copy", GM, {"character": "Ana", "count": 10000}, "count", "1 to 25",
         "10,000"),
        ("character create", ALICE, {"name": "Bo", "level": 100}, "level", "1 to 99", "100"),
        ("character create", ALICE, {"name": "Bo", "level": -5}, "level", "1 to 99", "-5"),
        ("roll", ALICE, {"level": 0}, "level", "1 to 99", "0"),
        ("roll", ALICE, {"level": 40, "against": 1000}, "against", "1 to 99", "1,000"),
        ("combat set", GM, {"character": "Ana", "level": -100}, "level", "-99 to 99", "-100"),
        ("combat set", GM, {"character": "Ana", "actions": 10}, "actions", "0 to 9", "10"),
    ],
)
async def test_a_number_out_of_bounds_is_refused_and_changes_nothing(
    table: Table, command: str, user: Any, options: dict[str, Any], option: str,
    bounds: str, got: str,
) -> None:
    await table.slash("character create", name="Ana")
    before = await table.slash("sheet", character="Ana")
    posted = len(table.channel_messages())

    reply = await table.slash(command, user=user, **options)

    refused(reply, f"The `{option}` option takes a number from {bounds}; it got {got}.",
            "Nothing was changed.")
    assert len(table.channel_messages()) == posted
    assert [e.name for e in await table.bot.store.characters.entries(GUILD_ID)] == ["Ana"]
    assert (await table.slash("sheet", character="Ana")).content == before.content
    assert "no fight" in (await table.slash("combat status")).content


async def test_a_number_at_its_bounds_is_taken(table: Table) -> None:
    await table.slash("character create", name="Ana", level=99)
    made = await table.slash("character copy", user=GM, character="Ana", count=25)
    assert not made.ephemeral and "25 NPC copies" in made.content, made.content
