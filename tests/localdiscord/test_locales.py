"""Languages as Discord carries them: each person's client language in their interactions'
``locale``, the guild's preferred locale in ``guild_locale`` (and GUILD_UPDATE when it
changes); the commands' localizations kept as synced and listed as Discord lists them; the
local table's page offered the languages the commands are localized into."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.local_table import local_discord
from localdiscord import APP_ID, LocalDiscord

ROLL = {"name": "roll", "type": 1, "description": "Roll the dice.",
        "description_localizations": {"de": "Würfle."},
        "options": [{"name": "view", "type": 3, "description": "How it is shown",
                     "description_localizations": {"de": "Wie es gezeigt wird"},
                     "choices": [{"name": "grid", "value": "grid",
                                  "name_localizations": {"de": "Raster", "fr": "grille"}}]}]}


@pytest.fixture
async def http(discord: LocalDiscord) -> AsyncIterator[Any]:
    """``await http(method, path, json, headers)``: status and JSON (a path under the API,
    or the server's own from ``/``)."""
    async with aiohttp.ClientSession(headers={"Authorization": "Bot local"}) as session:
        async def call(method: str, path: str, body: Any = None,
                       headers: dict[str, str] | None = None) -> tuple[int, Any]:
            url = (discord.base if path.startswith("/table") else discord.api) + path
            async with session.request(method, url, json=body, headers=headers) as response:
                return response.status, await response.json()
        yield call


def _sent_by(discord: LocalDiscord, user: str, channel: Any) -> dict[str, Any]:
    """The INTERACTION_CREATE ``user``'s /roll in ``channel`` makes."""
    data = discord.people.command_data(channel, "roll", {}, focused=None)
    interaction = discord.people.send(user, channel, 2, data)
    return discord.people.payload(interaction, data, None)


async def test_each_persons_interactions_carry_their_language_and_the_servers(
        discord: LocalDiscord) -> None:
    discord.commands[None] = [ROLL | {"id": "1"}]
    fight = discord.channel("fight")
    assert (_sent_by(discord, "alice", fight)["locale"],
            _sent_by(discord, "alice", fight)["guild_locale"]) == ("en-US", "en-US")
    discord.people.set_locale("alice", "de")
    discord.set_preferred_locale(discord.guild, "fr")
    alice, bob = _sent_by(discord, "alice", fight), _sent_by(discord, "bob", fight)
    assert (alice["locale"], alice["guild_locale"]) == ("de", "fr")
    assert (bob["locale"], bob["guild_locale"]) == ("en-US", "fr")
    in_dm = _sent_by(discord, "alice", discord.people.dm("alice"))
    assert in_dm["locale"] == "de" and "guild_locale" not in in_dm
    with pytest.raises(ValueError, match="no locale 'de-DE'"):
        discord.people.set_locale("bob", "de-DE")  # Discord says "de"
    with pytest.raises(ValueError):
        discord.set_preferred_locale(discord.guild, "klingon")
    assert discord.guild.preferred_locale == "fr"


async def test_a_servers_new_language_reaches_the_bot_as_guild_update(
        discord: LocalDiscord) -> None:
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(discord.gateway.url()) as gateway:
        assert (await gateway.receive_json(timeout=5))["op"] == 10  # HELLO
        await gateway.send_json({"op": 2, "d": {"token": "local", "intents": 1,
                                                "properties": {}}})
        ready = await gateway.receive_json(timeout=5)
        created = await gateway.receive_json(timeout=5)
        assert ready["t"] == "READY" and created["d"]["preferred_locale"] == "en-US"
        discord.set_preferred_locale(discord.guild, "de")
        updated = await gateway.receive_json(timeout=5)
    assert updated["t"] == "GUILD_UPDATE"
    assert updated["d"]["id"] == str(discord.guild.id)
    assert updated["d"]["preferred_locale"] == "de" and "members" not in updated["d"]


async def test_the_commands_localizations_are_kept_and_listed_as_discord_lists_them(
        discord: LocalDiscord, http: Any) -> None:
    commands = f"/applications/{APP_ID}/commands"
    status, synced = await http("PUT", commands, [ROLL])
    assert status == 200 and synced[0]["description_localizations"] == {"de": "Würfle."}
    _, full = await http("GET", f"{commands}?with_localizations=true")
    assert full == synced
    _, german = await http("GET", commands, headers={"X-Discord-Locale": "de"})
    roll = german[0]
    assert "description_localizations" not in roll and roll["description"] == "Roll the dice."
    assert roll["description_localized"] == "Würfle." and "name_localized" not in roll
    option = roll["options"][0]
    assert option["description_localized"] == "Wie es gezeigt wird"
    assert option["choices"] == [{"name": "grid", "value": "grid", "name_localized": "Raster"}]
    _, plain = await http("GET", commands)
    assert "description_localized" not in plain[0]
    assert "name_localizations" not in plain[0]["options"][0]["choices"][0]


async def test_the_page_offers_the_languages_the_commands_speak_and_keeps_each_persons(
        discord: LocalDiscord, http: Any) -> None:
    await http("PUT", f"/applications/{APP_ID}/commands", [ROLL])
    alice = discord.user("alice").id
    _, seen = await http("GET", f"/table/state?as={alice}")
    assert [(lang["code"], lang["name"]) for lang in seen["locales"]] == [
        ("de", "Deutsch"), ("en-US", "English, US"), ("fr", "Français")]
    assert (seen["locale"], seen["guild_locale"]) == ("en-US", "en-US")
    assert await http("POST", "/table/locale", {"as": alice, "locale": "de"}) == (
        200, {"locale": "de"})
    assert (await http("POST", "/table/locale", {"as": alice, "locale": "xx"}))[0] == 400
    refused = await http("POST", "/table/guild_locale", {"as": alice, "locale": "de"})
    assert refused[0] == 403 and discord.guild.preferred_locale == "en-US"
    gm = discord.guild.owner_id
    assert await http("POST", "/table/guild_locale", {"as": gm, "locale": "de"}) == (
        200, {"guild_locale": "de"})
    _, seen = await http("GET", f"/table/state?as={alice}")
    assert (seen["locale"], seen["guild_locale"]) == ("de", "de")
    assert (await http("GET", f"/table/state?as={gm}"))[1]["locale"] == "en-US"


async def test_the_languages_stay_across_a_restart(tmp_path: Path) -> None:
    kept = tmp_path / "db.sqlite3.discord.json"
    server = await local_discord(kept).start()
    server.people.set_locale("alice", "de")
    server.set_preferred_locale(server.guild, "de")
    await server.stop()

    again = await local_discord(kept).start()
    try:
        assert again.locale_of(again.user("alice").id) == "de"
        assert again.locale_of(again.user("bob").id) == "en-US"
        assert again.guild.preferred_locale == "de"
    finally:
        await again.stop()
