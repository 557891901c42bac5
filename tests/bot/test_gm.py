"""/gm role: members with Manage Server name the role whose members are GMs; through the real
dispatch path, with the role resolved as Discord sends it."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.permissions import IN_A_DM
from testbed.harness import ALICE, BOB, DM_CHANNEL_ID, GM, GUILD_ID, Table

pytestmark = pytest.mark.both_engines


async def test_gm_role_is_for_manage_server_by_default(table: Table) -> None:
    command = next(c for c in table.synced[-1][1] if c["name"] == "gm")
    permissions = int(command["default_member_permissions"])
    assert permissions == discord.Permissions(manage_guild=True).value
    assert [o["name"] for o in command["options"]] == ["role"]


async def test_a_role_makes_its_members_gms(table: Table) -> None:
    role = table.add_role("Game masters")
    bob_gm = dataclasses.replace(BOB, roles=(role.id,))
    await table.slash("character create", name="Ana")
    refused = await table.slash("character advance", user=bob_gm, character="Ana")
    assert refused.ephemeral and "only they or a GM may change it" in refused.content

    reply = await table.slash("gm role", user=GM, role=role)
    assert not reply.ephemeral
    assert reply.content == (f"🎲 Members with {role.mention} are GMs now, as are members with "
                             "Manage Server. A GM's first fight: a map from `/map list`, then "
                             "`/combat start map:` (`/help` says more).")
    advanced = await table.slash("character advance", user=bob_gm, character="Ana")
    assert advanced.content == "⬆️ Ana advances to max level 51." and not advanced.ephemeral
    npc = await table.slash("character create", user=bob_gm, name="Goon", npc=True)
    assert "**Goon**: an NPC" in npc.content
    assert await table.autocomplete("character advance", "character", user=bob_gm) == [
        "Ana", "Goon (NPC)"]
    # Without the role, Bob is a player again.
    plain = await table.slash("character advance", user=BOB, character="Goon")
    assert plain.ephemeral and "**Goon** is an NPC: only a GM may change it." in plain.content


async def test_only_manage_server_sets_the_role_not_the_role_itself(table: Table) -> None:
    role = table.add_role("Game masters")
    refused = await table.slash("gm role", user=ALICE, role=role)
    assert refused.ephemeral
    assert refused.content == "Only members with Manage Server may set the GM role."
    assert await table.bot.store.guilds.gm_role(900_000_000_000_000_100) is None
    await table.slash("gm role", user=GM, role=role)
    bob_gm = dataclasses.replace(BOB, roles=(role.id,))
    again = await table.slash("gm role", user=bob_gm)  # a GM by role cannot clear it
    assert again.ephemeral and "Manage Server" in again.content
    assert await table.bot.store.guilds.gm_role(900_000_000_000_000_100) == role.id


async def test_the_role_survives_a_restart_and_can_be_cleared(table: Table) -> None:
    role = table.add_role("Game masters")
    bob_gm = dataclasses.replace(BOB, roles=(role.id,))
    await table.slash("gm role", user=GM, role=role)
    await table.restart()
    made = await table.slash("character create", user=bob_gm, name="Goon", npc=True)
    assert not made.ephemeral

    cleared = await table.slash("gm role", user=GM)
    assert not cleared.ephemeral
    assert cleared.content == (f"🎲 {role.mention} is no longer the GM role: GMs are the members "
                               "with Manage Server.")
    refused = await table.slash("character advance", user=bob_gm, character="Goon")
    assert refused.ephemeral and "only a GM may change it" in refused.content
    nothing = await table.slash("gm role", user=GM)
    assert nothing.ephemeral and nothing.content.startswith("No GM role is set")


#: The commands that work in a direct message with the bot: dice, the built-in maps, help,
#: one's own settings.
WORK_IN_A_DM = {"roll", "map list", "map show", "map export", "help", "settings reminders"}


def _leaf_commands(table: Table) -> list[tuple[str, app_commands.Command[Any, ..., Any]]]:
    found = []
    groups: list[tuple[str, Any]] = [("", c) for c in table.bot.tree.get_commands()]
    while groups:
        prefix, command = groups.pop(0)
        if isinstance(command, app_commands.Group):
            groups += [(f"{prefix}{command.name} ", c) for c in command.commands]
        else:
            found.append((f"{prefix}{command.name}", command))
    return found


async def test_in_a_dm_every_server_command_says_it_works_in_a_servers_channel(
        table: Table) -> None:
    """GM commands included, with only their required options (`/combat set` checked what to
    correct first), by a GM of the server and by a player alike; nothing is stored."""
    await table.slash("character create", name="Ana")
    before = await table.bot.store.characters.entries(GUILD_ID)
    typed = {"string": "Ana", "integer": 1, "number": 1, "boolean": True, "role": "1",
             "user": "1", "channel": "1", "attachment": "1", "mentionable": "1"}
    leaves = _leaf_commands(table)
    assert {"combat set", "combat begin", "map new", "gm role", "attack"} <= {n for n, _ in leaves}
    for name, command in leaves:
        if name in WORK_IN_A_DM:
            continue
        options = {p.display_name: p.choices[0].value if p.choices else typed[p.type.name]
                   for p in command.parameters if p.required}
        for user in (GM, ALICE):
            reply = await table.slash(name, user=user, guild=None, channel=DM_CHANNEL_ID,
                                      **options)
            assert reply.ephemeral and reply.content == IN_A_DM, (name, user.name, reply.content)
        offered = [p.display_name for p in command.parameters if p.autocomplete]
        for option in offered:
            assert await table.autocomplete(name, option, user=GM, guild=None,
                                            channel=DM_CHANNEL_ID) == [], (name, option)
    assert await table.bot.store.characters.entries(GUILD_ID) == before
