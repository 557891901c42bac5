"""`/help`: where a new player and a new GM start, then how a fight runs; every command it
names is one the bot has, with the options it names."""

from __future__ import annotations

import itertools
import re
from typing import Any

from discord import app_commands

from testbed.harness import DM_CHANNEL_ID, GM, Table

#: Discord's limit for a message's text.
MESSAGE_LIMIT = 2000


def named_commands(text: str) -> list[tuple[str, list[str]]]:
    """Each `/command opt: [opt:]` in ``text`` as (its name, its option names); ``a|b`` in a
    name stands for each of its alternatives."""
    found = []
    for span in re.findall(r"`(/[^`]+)`", text):
        words = [w.strip("[]") for w in span[1:].split()]
        options = [w.split(":", 1)[0] for w in words if ":" in w]
        path = [w.split("|") for w in words if ":" not in w]
        found += [(" ".join(names), options) for names in itertools.product(*path)]
    return found


def command_of(table: Table, name: str) -> app_commands.Command[Any, ..., Any] | None:
    first, *rest = name.split()
    found: Any = table.bot.tree.get_command(first)
    for part in rest:
        found = found.get_command(part) if isinstance(found, app_commands.Group) else None
    return found if isinstance(found, app_commands.Command) else None


async def test_help_shows_newcomers_where_to_start_then_the_fight(table: Table) -> None:
    reply = await table.slash("help")
    new_here, fight = reply.messages
    assert new_here.ephemeral and fight.ephemeral
    assert new_here.content.startswith("**New here?**")
    players, gms = new_here.content.split("**GMs**")
    for step in ("`/character create`", "`/combat add`", "**My options**", "`/attack`"):
        assert step in players, step
    for step in ("`/map list`", "`/map new`", "`/character create npc:True`",
                 "`/combat start map:`", "`/combat add`", "`/combat begin`"):
        assert step in gms, step
    assert fight.content.startswith("**Running an Unhex fight**")
    assert all(len(m.content) <= MESSAGE_LIMIT for m in reply.messages)


async def test_every_command_help_names_exists_with_its_options(table: Table) -> None:
    reply = await table.slash("help", user=GM)
    named = named_commands("\n".join(m.content for m in reply.messages))
    assert len(named) > 30, named
    for name, options in named:
        command = command_of(table, name)
        assert command is not None, f"/help names /{name}, which the bot does not have"
        known = {p.display_name for p in command.parameters}
        assert set(options) <= known, (name, options, known)


async def test_help_works_in_a_direct_message(table: Table) -> None:
    reply = await table.slash("help", guild=None, channel=DM_CHANNEL_ID)
    assert [m.content.split("\n", 1)[0] for m in reply.messages] == [
        "**New here?**", "**Running an Unhex fight**"]
