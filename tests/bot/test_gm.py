"""/gm role: members with Manage Server name the role whose members are GMs; through the real
dispatch path, with the role resolved as Discord sends it."""

from __future__ import annotations

import dataclasses

import discord

from tests.harness import ALICE, BOB, GM, Table


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
                             "Manage Server.")
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
