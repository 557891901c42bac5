"""/map as GMs and players meet it, through the real dispatch path: slash commands,
the map-text modal, the delete confirmation buttons and name autocomplete."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord.ext.test.backend as dpytest_backend
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from data import builtin_maps
from engine.maprender import GRID_LEGEND, LIST_LEGEND
from testbed.harness import ALICE, BOB, GM, GUILD_ID, Modal, Reply, Table, User

LABEL = "Map text (up to 4,000 characters)"
DOCKS = """\
# the docks at night
Pier @ 0,0
Shed @ 1,0
Pier --| Shed        # crates at the shed's end
Shed: the boat key
"""
OTHER_GM = User(800_000_000_000_000_009, "second-gm", gm=True)


def code_block(content: str) -> str:
    """The text between the message's code fences."""
    found = re.search(r"```[a-z]*\n(.*)\n```", content, re.S)
    assert found, f"no code block in {content!r}"
    return found.group(1)


async def open_new(table: Table, name: str, *, user: User = GM) -> Modal:
    reply = await table.slash("map new", user=user, name=name)
    assert reply.kind == "modal", reply.messages and reply.content
    assert reply.modal is not None and LABEL in reply.modal.fields
    return reply.modal


async def new_map(table: Table, name: str, text: str, *, user: User = GM) -> Reply:
    return await table.submit(await open_new(table, name, user=user), {LABEL: text}, user=user)


async def listed(table: Table, user: User = ALICE) -> str:
    reply = await table.slash("map list", user=user)
    assert reply.kind == "message"
    return reply.content


def _text_inputs(components: Any) -> list[dict[str, Any]]:
    found = []
    for c in components or ():
        if c.get("type") == 4:
            found.append(c)
        found += _text_inputs(c.get("components") or ([c["component"]] if "component" in c
                                                       else []))
    return found


@pytest.fixture
def text_fields(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, Any]]:
    """The text field of each form the bot showed (its payload: value, placeholder, …), by
    form id. The harness's Modal keeps only labels, so listen in on the webhook adapter it
    patched."""
    seen: dict[str, dict[str, Any]] = {}
    patched = AsyncWebhookAdapter.request

    async def spy(adapter: AsyncWebhookAdapter, route: Any, session: Any = None,
                  **kwargs: Any) -> Any:
        payload = kwargs.get("payload") or {}
        if payload.get("type") == 9:
            data = payload["data"]
            seen[data["custom_id"]] = _text_inputs(data["components"])[0]
        return await patched(adapter, route, session, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", spy)
    return seen


class _Prefilled:
    """What each form's text field was prefilled with, by form id, read from ``fields``."""

    def __init__(self, fields: dict[str, dict[str, Any]]) -> None:
        self.fields = fields

    def __getitem__(self, form_id: str) -> str | None:
        value = self.fields[form_id].get("value")
        return None if value is None else str(value)


@pytest.fixture
def prefilled(text_fields: dict[str, dict[str, Any]]) -> _Prefilled:
    return _Prefilled(text_fields)


@pytest.fixture
def attachments(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(file name, text) of every file the bot attaches to an interaction reply. The harness
    records messages but not their files, so listen in on the webhook adapter it patched."""
    seen: list[tuple[str, str]] = []
    patched = AsyncWebhookAdapter.request

    async def spy(adapter: AsyncWebhookAdapter, route: Any, session: Any = None,
                  **kwargs: Any) -> Any:
        for part in kwargs.get("multipart") or []:
            if "filename" in part:
                seen.append((part["filename"], part["value"].read().decode()))
                part["value"].seek(0)
        return await patched(adapter, route, session, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", spy)
    return seen


# -- list and show -------------------------------------------------------------------------------


async def test_list_shows_the_builtin_maps_then_the_servers(table: Table) -> None:
    before = await listed(table)
    for name in ("nightclub", "warehouse", "manor"):
        assert f"• {name} · " in before
    assert "• nightclub · 8 areas" in before
    assert "no maps of its own yet" in before

    await new_map(table, "Docks", DOCKS)
    after = await listed(table)
    assert "**This server's maps:**" in after
    assert f"• Docks · 2 areas · by {GM.mention}" in after
    assert "no maps of its own" not in after


async def test_show_nightclub_draws_the_grid_with_its_legend_for_everyone(table: Table) -> None:
    reply = await table.slash("map show", name="nightclub")
    assert reply.kind == "message" and not reply.ephemeral
    assert "**nightclub** (built-in) · 8 areas" in reply.content
    picture = code_block(reply.content)
    assert "│Catwalk │" in picture and "│DJ Booth│├──│ Dance  │──┤│  Bar   │" in picture
    for line in GRID_LEGEND:
        assert line in picture
    assert "* Entrance: PCs may start here" in picture
    assert max(len(line) for line in picture.splitlines()) <= 40
    assert len(reply.content) <= 2000


async def test_show_takes_any_case_and_offers_the_list_view(table: Table) -> None:
    reply = await table.slash("map show", name="  NightClub ", view="list")
    picture = code_block(reply.content)
    for line in LIST_LEGEND:
        assert line in picture
    assert "Dance Floor\n  --| DJ Booth\n" in picture
    assert "┌" not in picture


async def test_asking_for_a_grid_without_positions_explains_and_shows_the_list(
    table: Table,
) -> None:
    await new_map(table, "Sewers", "Tunnel -> Outfall\nTunnel .x. Grate")
    reply = await table.slash("map show", name="sewers", view="grid")
    assert "not every area has a position" in reply.content
    assert "Tunnel\n  -> Outfall" in code_block(reply.content)
    plain = await table.slash("map show", name="sewers")
    assert "position" not in plain.content and LIST_LEGEND[0] in plain.content


async def test_a_grid_wider_than_40_columns_falls_back_to_the_list(table: Table) -> None:
    text = "\n".join(f"Room {i} @ {i},0" for i in range(8))
    text += "\n" + "\n".join(f"Room {i} --| Room {i + 1}" for i in range(7))
    await new_map(table, "Corridor", text)
    asked = await table.slash("map show", name="Corridor", view="grid")
    assert "The grid is wider than 40 columns or too long for one message" in asked.content
    plain = await table.slash("map show", name="Corridor")
    assert "wider" not in plain.content
    for reply in (asked, plain):
        picture = code_block(reply.content)
        assert "┌" not in picture and "Room 3\n  |-- Room 2\n  --| Room 4" in picture
        assert max(len(line) for line in picture.splitlines()) <= 40
        assert len(reply.content) <= 2000


async def test_a_map_too_big_for_one_message_is_shown_cut_short(table: Table) -> None:
    text = "\n".join(f"Room {i} --| Room {i + 1}" for i in range(150))
    assert len(text) < 4000
    await new_map(table, "Maze", text)
    reply = await table.slash("map show", name="Maze")
    assert len(reply.content) <= 2000
    assert re.search(r"… \d+ more areas\n```$", reply.content)


async def test_show_of_an_unknown_map_says_how_to_find_one(table: Table) -> None:
    reply = await table.slash("map show", name="Atlantis")
    assert reply.ephemeral
    assert reply.content == "There is no map called “Atlantis”. `/map list` shows the maps."


async def test_a_stored_map_the_engine_cannot_read_is_explained_briefly(table: Table) -> None:
    # A map saved by an older bot, with a line the engine now quotes in full in its error.
    await table.bot.store.maps.add(guild_id=GUILD_ID, name="Old",
                                   text="Hall " + "~" * 3000 + " Bar", author_id=GM.id)
    reply = await table.slash("map show", name="Old")
    assert reply.ephemeral and len(reply.content) <= 2000
    assert reply.content.startswith("The map **Old** cannot be read (")
    assert reply.content.endswith("…). A GM can fix it with `/map edit`.")


async def test_a_backtick_fence_in_a_note_cannot_break_the_code_block(table: Table) -> None:
    await new_map(table, "Lab", "Lab: says ```run``` on the door\nLab -- Vault")
    reply = await table.slash("map show", name="Lab")
    assert reply.content.count("```") == 2
    assert reply.content.endswith("\n```")


# -- new -------------------------------------------------------------------------------------


async def test_new_map_through_the_modal_then_show_it(table: Table) -> None:
    modal = await open_new(table, "Docks")
    assert modal.title == "New map: Docks"
    saved = await table.submit(modal, {LABEL: DOCKS}, user=GM)
    assert saved.ephemeral
    assert "Saved the new map **Docks** · 2 areas" in saved.content
    assert "│Pier│──┤│Shed│" in code_block(saved.content)

    shown = await table.slash("map show", name="docks", user=BOB)
    assert not shown.ephemeral
    assert "**Docks** · 2 areas" in shown.content and "(built-in)" not in shown.content
    assert "* Shed: the boat key" in code_block(shown.content)


async def test_bad_map_text_names_the_line_gives_the_text_back_and_saves_nothing(
    table: Table,
) -> None:
    bad = "Bar --| Kitchen\n\nKitchen --> Alley\nAlley: the way out"
    reply = await new_map(table, "Back Room", bad)
    assert reply.ephemeral
    assert reply.content.startswith("Line 3 has a mistake: unknown connector '-->'")
    assert "> `Kitchen --> Alley`" in reply.content
    assert "Nothing was saved." in reply.content
    assert code_block(reply.content) == bad  # what the GM typed, to fix and paste again
    assert "Back Room" not in await listed(table)
    refused = await table.slash("map show", name="Back Room")
    assert refused.ephemeral and "There is no map called" in refused.content


async def test_a_wrong_connector_is_answered_with_the_cover_forms_too(table: Table) -> None:
    reply = await new_map(table, "Back Room", "Bar -| Kitchen")
    assert reply.ephemeral
    first = reply.content.splitlines()[0]
    assert first.startswith("Line 1 has a mistake: unknown connector '-|': use -- .. ->")
    assert "--|" in first and "|--" in first  # the forms of a cover mark, where a GM looks


async def test_a_map_without_positions_is_told_how_to_get_a_grid(
    table: Table, text_fields: dict[str, dict[str, Any]]
) -> None:
    opened = await open_new(table, "Cellar")
    assert "@ 0,0" in text_fields[opened.custom_id]["placeholder"]  # the form says it too
    assert "grid" in text_fields[opened.custom_id]["placeholder"]
    saved = await table.submit(opened, {LABEL: "Stairs -- Cellar\nCellar --| Well"}, user=GM)
    assert "Saved the new map **Cellar** · 3 areas" in saved.content
    assert ("-# No grid: give each area a position, a line like `Stairs @ 0,0` (column, row), "
            "and the map is drawn as a grid") in saved.content
    placed = await new_map(table, "Attic", "Attic @ 0,0\nRoof @ 1,0\nAttic -- Roof")
    assert "Saved the new map **Attic**" in placed.content
    assert "No grid" not in placed.content  # every area has its position


async def test_other_map_mistakes_come_back_with_their_line(table: Table) -> None:
    cases = {
        "Bar -- Bar": "Line 1 has a mistake: an area cannot connect to itself ('Bar')",
        "A -- B\nB -- A": "Line 2 has a mistake: B and A are already connected (line 1)",
        "# only a comment": "That map cannot be read: the map has no areas.",
        "A -- B\nC @ x,y": "Line 2 has a mistake: a grid position is 'Area @ col,row'",
    }
    for text, expected in cases.items():
        reply = await new_map(table, "Bad", text)
        assert reply.ephemeral and reply.content.startswith(expected), reply.content
    assert "Bad" not in await listed(table)


async def test_a_name_is_unique_per_server_ignoring_case_and_spaces(table: Table) -> None:
    await new_map(table, "Old Docks", DOCKS)
    for name in ("old docks", "OLD   DOCKS"):
        again = await table.slash("map new", user=GM, name=name)
        assert again.kind == "message" and again.ephemeral and again.modal is None
        assert again.content.startswith("This server already has a map called **Old Docks**")
    assert (await listed(table)).count("Old Docks") == 1


async def test_a_name_taken_while_the_modal_was_open_is_refused_with_the_text_back(
    table: Table,
) -> None:
    first = await open_new(table, "Docks")
    second = await open_new(table, "docks", user=OTHER_GM)
    await table.submit(first, {LABEL: DOCKS}, user=GM)
    late = await table.submit(second, {LABEL: "Quay -- Boat"}, user=OTHER_GM)
    assert late.ephemeral and "already has a map called **Docks**" in late.content
    assert code_block(late.content) == "Quay -- Boat"
    shown = await table.slash("map show", name="Docks")
    assert "Pier" in shown.content and "Quay" not in shown.content


async def test_a_builtin_name_cannot_be_shadowed(table: Table) -> None:
    reply = await table.slash("map new", user=GM, name="NightClub")
    assert reply.ephemeral and reply.modal is None
    assert "**nightclub** is a built-in map's name" in reply.content
    assert "`/map export name:nightclub`" in reply.content


async def test_map_names_are_trimmed_and_limited(table: Table) -> None:
    blank = await table.slash("map new", user=GM, name="   ")
    assert blank.ephemeral and "1-32 characters" in blank.content
    saved = await new_map(table, "  Tidy   Name ", "A -- B")
    assert "**Tidy Name**" in saved.content


# -- edit ------------------------------------------------------------------------------------


async def test_edit_prefills_the_text_and_saves_the_change(
    table: Table, prefilled: _Prefilled
) -> None:
    await new_map(table, "Docks", DOCKS)
    opened = await table.slash("map edit", user=GM, name="DOCKS")
    assert opened.kind == "modal" and opened.modal is not None
    assert opened.modal.title == "Edit map: Docks"
    assert prefilled[opened.modal.custom_id] == DOCKS.rstrip()

    changed = DOCKS + "Shed -> Water\n"
    saved = await table.submit(opened.modal, {LABEL: changed}, user=GM)
    assert saved.ephemeral and "Saved your changes to **Docks** · 3 areas" in saved.content
    shown = await table.slash("map show", name="Docks", view="list")
    assert "Shed\n  |-- Pier\n  -> Water" in code_block(shown.content)
    exported = await table.slash("map export", name="Docks")
    assert code_block(exported.content) == changed.rstrip()  # comments kept as typed


async def test_a_bad_edit_keeps_the_old_map(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    opened = await table.slash("map edit", user=GM, name="Docks")
    bad = await table.submit(opened.modal, {LABEL: "Pier -- "}, user=GM)
    assert bad.ephemeral and bad.content.startswith("Line 1 has a mistake")
    exported = await table.slash("map export", name="Docks")
    assert code_block(exported.content) == DOCKS.rstrip()


async def test_two_gms_editing_at_once_cannot_overwrite_each_other(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    mine = (await table.slash("map edit", user=GM, name="Docks")).modal
    theirs = (await table.slash("map edit", user=OTHER_GM, name="Docks")).modal
    await table.submit(mine, {LABEL: DOCKS + "Pier .. Boat"}, user=GM)
    late = await table.submit(theirs, {LABEL: DOCKS + "Shed -- Road"}, user=OTHER_GM)
    assert late.ephemeral and "Somebody saved **Docks** while you edited it" in late.content
    assert code_block(late.content) == (DOCKS + "Shed -- Road").rstrip()
    exported = await table.slash("map export", name="Docks")
    assert "Pier .. Boat" in exported.content and "Road" not in exported.content


async def test_a_map_deleted_while_being_edited_is_not_brought_back(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    editing = (await table.slash("map edit", user=GM, name="Docks")).modal
    asked = await table.slash("map delete", user=OTHER_GM, name="Docks")
    await table.click(asked.message, "Delete map", user=OTHER_GM)
    late = await table.submit(editing, {LABEL: "Pier -- Boat"}, user=GM)
    assert late.ephemeral and "**Docks** was deleted while you edited it" in late.content
    assert code_block(late.content) == "Pier -- Boat"
    assert "Docks" not in await listed(table)


async def test_builtin_maps_cannot_be_edited_but_may_be_copied(table: Table) -> None:
    reply = await table.slash("map edit", user=GM, name="warehouse")
    assert reply.ephemeral and reply.modal is None
    assert reply.content.startswith("Built-in maps cannot be edited.")
    assert "`/map export name:warehouse`, then `/map new`" in reply.content


# -- delete ------------------------------------------------------------------------------------


async def test_delete_asks_a_gm_to_confirm_and_a_second_click_is_refused(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    asked = await table.slash("map delete", user=GM, name="docks")
    assert asked.kind == "message" and not asked.ephemeral
    assert f"{GM.mention} asks to delete the map **Docks**" in asked.content
    assert asked.message.labels == ["Delete map", "Keep map"]
    stale = asked.message

    player = await table.click(stale, "Delete map", user=BOB)
    assert player.ephemeral and player.content.startswith("Only a GM may answer this")
    assert "Docks" in await listed(table)
    assert table.message(stale.id).labels == ["Delete map", "Keep map"]

    done = await table.click(stale, "Delete map", user=GM)
    assert done.kind == "update"
    assert done.content == f"🗑️ {GM.mention} deleted the map **Docks**."
    assert done.message.buttons == []
    assert "Docks" not in await listed(table)

    again = await table.click_stale(stale, "Delete map", user=GM)
    assert again.ephemeral
    assert again.content == "That map is already deleted; nothing changed."


async def test_any_gm_may_confirm_or_keep_the_map(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    asked = await table.slash("map delete", user=GM, name="Docks")
    kept = await table.click(asked.message, "Keep map", user=OTHER_GM)
    assert kept.content == f"🗺️ {OTHER_GM.mention} kept the map **Docks**; nothing was deleted."
    assert kept.message.buttons == []
    assert "Docks" in await listed(table)

    asked = await table.slash("map delete", user=GM, name="Docks")
    await table.click(asked.message, "Delete map", user=OTHER_GM)
    assert "Docks" not in await listed(table)


async def test_a_stale_delete_button_cannot_delete_a_new_map_of_the_same_name(
    table: Table,
) -> None:
    await new_map(table, "Docks", DOCKS)
    first = await table.slash("map delete", user=GM, name="Docks")
    second = await table.slash("map delete", user=GM, name="Docks")
    await table.click(first.message, "Delete map", user=GM)
    await new_map(table, "Docks", "Quay -- Boat")  # SQLite may give it the deleted map's id
    late = await table.click(second.message, "Delete map", user=GM)
    assert late.ephemeral and "already deleted" in late.content
    assert "Docks" in await listed(table)


@pytest.mark.parametrize("how", ["role taken from them", "role no longer the GM role"])
async def test_a_gm_who_lost_the_role_cannot_confirm_their_own_delete(
    table: Table, how: str
) -> None:
    role = table.add_role("Game masters")
    await table.slash("gm role", user=GM, role=role)
    bob_gm = dataclasses.replace(BOB, roles=(role.id,))
    await new_map(table, "Docks", DOCKS, user=bob_gm)
    asked = await table.slash("map delete", user=bob_gm, name="Docks")
    assert not asked.ephemeral and asked.message.labels == ["Delete map", "Keep map"]
    if how == "role taken from them":
        presser = BOB  # Discord sends the member's roles as they are at the press
    else:
        presser = bob_gm
        await table.slash("gm role", user=GM)
    for label in ("Delete map", "Keep map"):
        refused = await table.click(asked.message, label, user=presser)
        assert refused.ephemeral
        assert refused.content == (
            "You asked to delete this map, but you are no longer a GM: a GM must answer. "
            "GMs have Manage Server or the GM role (`/gm role`)."
        )
    assert "• Docks · 2 areas" in await listed(table)
    assert table.message(asked.message.id).labels == ["Delete map", "Keep map"]
    done = await table.click(asked.message, "Delete map", user=GM)
    assert done.content == f"🗑️ {GM.mention} deleted the map **Docks**."


async def test_builtin_maps_cannot_be_deleted(table: Table) -> None:
    reply = await table.slash("map delete", user=GM, name="Manor")
    assert reply.ephemeral and reply.message.buttons == []
    assert reply.content == "Built-in maps cannot be deleted (**manor** is one)."


# -- export ------------------------------------------------------------------------------------


async def test_export_gives_the_text_as_written(table: Table) -> None:
    reply = await table.slash("map export", name="nightclub", user=BOB)
    assert reply.ephemeral
    assert code_block(reply.content) == builtin_maps()["nightclub"].strip("\n")
    assert "paste it into `/map new` under a new name" in reply.content


async def test_a_long_map_is_exported_as_a_file(
    table: Table, attachments: list[tuple[str, str]]
) -> None:
    text = "\n".join(f"Room {i} --| Room {i + 1}    # corridor {i}" for i in range(90))
    assert 2000 < len(text) <= 4000
    await new_map(table, "Big Maze", text)
    reply = await table.slash("map export", name="big maze")
    assert reply.ephemeral and "too long for one message, so it is attached" in reply.content
    assert attachments == [("Big-Maze.map", text + "\n")]


async def test_a_map_holding_a_code_fence_is_exported_as_a_file(
    table: Table, attachments: list[tuple[str, str]]
) -> None:
    text = "Lab: says ```run``` on the door\nLab -- Vault"
    await new_map(table, "Lab", text)
    reply = await table.slash("map export", name="Lab")
    assert "```" not in reply.content and "attached" in reply.content
    assert attachments == [("Lab.map", text + "\n")]


async def test_a_bad_map_too_long_to_quote_comes_back_as_a_file(
    table: Table, attachments: list[tuple[str, str]]
) -> None:
    text = "\n".join(f"Room {i} --| Room {i + 1}    # corridor {i}" for i in range(90))
    text += "\nRoom 1 ~~ Room 5"
    reply = await new_map(table, "Big Maze", text)
    assert reply.ephemeral and reply.content.startswith("Line 91 has a mistake")
    assert attachments == [("draft.map", text)]


# -- autocomplete ------------------------------------------------------------------------------


async def test_names_autocomplete_builtins_and_server_maps(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    await new_map(table, "Night Market", "Stalls -- Canal")
    everything = await table.autocomplete("map show", "name")
    assert everything == ["manor (built-in)", "nightclub (built-in)", "warehouse (built-in)",
                          "Docks", "Night Market"]
    assert await table.autocomplete("map show", "name", name="NIGHT") == [
        "nightclub (built-in)", "Night Market"]
    assert await table.autocomplete("map export", "name", name="ock") == ["Docks"]
    assert await table.autocomplete("map show", "name", name="zzz") == []
    # Only the server's own maps can be edited or deleted.
    assert await table.autocomplete("map edit", "name", user=GM) == ["Docks", "Night Market"]
    assert await table.autocomplete("map delete", "name", name="n", user=GM) == ["Night Market"]


async def test_autocomplete_offers_at_most_25_and_the_list_fits_one_message(
    table: Table,
) -> None:
    store = table.bot.store.maps
    names = [f"Arena {i:02} of the Long Night Sky" for i in range(60)]
    if table.pseudo is not None:  # stored as if a GM had typed them into `/map new`
        table.pseudo.allow_whole(names)
    for name in names:
        await store.add(guild_id=GUILD_ID, name=name, text="A -- B", author_id=GM.id)
    choices = await table.autocomplete("map show", "name", name="arena")
    assert len(choices) == 25 and choices[0] == "Arena 00 of the Long Night Sky"
    content = await listed(table)
    assert len(content) <= 2000
    more = re.search(r"… and (\d+) more: type a name in `/map show`\.$", content)
    assert more, content[-200:]
    assert content.count("• Arena") + int(more.group(1)) == 60


# -- who may ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "doing"),
    [("map new", "write a map"), ("map edit", "edit a map"), ("map delete", "delete a map")],
)
async def test_players_may_not_write_edit_or_delete_maps(
    table: Table, command: str, doing: str
) -> None:
    await new_map(table, "Docks", DOCKS)
    reply = await table.slash(command, user=ALICE, name="Docks")
    assert reply.kind == "message" and reply.ephemeral and reply.modal is None
    assert reply.content.startswith(f"Only a GM may {doing}.")
    assert table.channel_messages() == []  # no confirmation posted
    shown = await table.slash("map show", name="Docks", user=ALICE)
    assert "Pier" in shown.content


def gm_role(table: Table) -> int:
    """A role on the server, made its GM role; returns its id."""
    role = 900_000_000_000_000_777
    guild = table.bot.get_guild(GUILD_ID)
    assert guild is not None
    dpytest_backend.make_role("Game Master", guild, id_num=role)
    return role


async def test_a_player_with_the_gm_role_may_write_maps(table: Table) -> None:
    role = gm_role(table)
    await table.bot.store.guilds.set_gm_role(GUILD_ID, role)
    carol = User(800_000_000_000_000_010, "carol", roles=(role,))
    saved = await new_map(table, "Docks", DOCKS, user=carol)
    assert "Saved the new map **Docks**" in saved.content


async def test_a_modal_opened_by_a_gm_who_is_no_longer_one_saves_nothing(table: Table) -> None:
    role = gm_role(table)
    await table.bot.store.guilds.set_gm_role(GUILD_ID, role)
    carol = User(800_000_000_000_000_010, "carol", roles=(role,))
    modal = await open_new(table, "Docks", user=carol)
    await table.bot.store.guilds.set_gm_role(GUILD_ID, None)
    reply = await table.submit(modal, {LABEL: DOCKS}, user=carol)
    assert reply.ephemeral and reply.content.startswith("Only a GM may write a map.")
    assert "Docks" not in await listed(table)


# -- restarts ------------------------------------------------------------------------------------


async def test_a_new_map_form_left_open_across_a_restart_still_saves(table: Table) -> None:
    name = "The Long Night Market Of Old Port"[:32]
    modal = await open_new(table, name)
    assert len(modal.custom_id) <= 100 and name in modal.custom_id  # the name is not cut
    await table.restart()
    saved = await table.submit(modal, {LABEL: DOCKS}, user=GM)
    assert saved.ephemeral and f"Saved the new map **{name}** · 2 areas" in saved.content
    assert f"• {name} · 2 areas" in await listed(table)
    # The form still checks who submits it, and that the name is still free.
    again = await table.submit(modal, {LABEL: "Quay -- Boat"}, user=GM)
    assert again.ephemeral and f"already has a map called **{name}**" in again.content
    assert code_block(again.content) == "Quay -- Boat"
    player = await table.submit(modal, {LABEL: "Quay -- Boat"}, user=ALICE)
    assert player.ephemeral and player.content.startswith("Only a GM may write a map.")


async def test_an_edit_form_left_open_across_a_restart_still_saves(
    table: Table, prefilled: _Prefilled
) -> None:
    await new_map(table, "Docks", DOCKS)
    opened = (await table.slash("map edit", user=GM, name="Docks")).modal
    assert opened is not None and len(opened.custom_id) <= 100
    await table.restart()
    saved = await table.submit(opened, {LABEL: DOCKS + "Shed -> Water"}, user=GM)
    assert saved.ephemeral and "Saved your changes to **Docks** · 3 areas" in saved.content
    exported = await table.slash("map export", name="Docks")
    assert code_block(exported.content) == DOCKS + "Shed -> Water"
    # The same form again is an edit of a version that is no longer there.
    late = await table.submit(opened, {LABEL: DOCKS + "Pier .. Boat"}, user=GM)
    assert late.ephemeral and "Somebody saved **Docks** while you edited it" in late.content
    assert "Boat" not in (await table.slash("map export", name="Docks")).content


async def test_a_forged_map_form_saves_nothing(table: Table) -> None:
    """What a form's id and text hold is checked again on submit: a form id from another
    version of the bot, a name no /map new would accept, a text over the form's limit."""
    await new_map(table, "Docks", DOCKS)
    opened = (await table.slash("map edit", user=GM, name="Docks")).modal
    assert opened is not None
    cases = {
        "map-text:0123456789abcdef": "This form was opened before the bot restarted",
        "map-text:new:nightclub": "**nightclub** is a built-in map's name",
        "map-text:new:" + "n" * 40: "A map's name is 1-32 characters.",
        "map-text:new:   ": "A map's name is 1-32 characters.",
    }
    for custom_id, problem in cases.items():
        forged = Modal(custom_id, "New map", opened.fields)
        reply = await table.submit(forged, {LABEL: "Quay -- Boat"}, user=GM)
        assert reply.ephemeral and problem in reply.content, reply.content
        assert code_block(reply.content) == "Quay -- Boat"
    too_long = await table.submit(opened, {LABEL: "Quay -- Boat\n" + "#" * 4000}, user=GM)
    assert too_long.ephemeral and too_long.content.startswith(
        "A map's text is at most 4,000 characters; yours has 4,013.")
    assert len(too_long.content) <= 2000
    content = await listed(table)
    assert "Quay" not in content and "nightclub ·" in content and content.count("• Docks") == 1
    assert code_block((await table.slash("map export", name="Docks")).content) == DOCKS.rstrip()


@pytest.mark.both_engines
async def test_a_map_form_holding_a_nul_is_refused_on_every_engine(table: Table) -> None:
    """Discord's clients never send a NUL and PostgreSQL cannot keep one: a forged form
    holding one is refused the same way on both engines, and nothing is saved."""
    nul = await new_map(table, "Quay", "Quay -- Boat\x00")
    assert nul.ephemeral and "holds a NUL character" in nul.content, nul.content
    assert "Quay" not in await listed(table)


async def test_maps_and_delete_buttons_survive_a_restart(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    asked = await table.slash("map delete", user=GM, name="Docks")
    await table.restart()
    assert "• Docks · 2 areas" in await listed(table)
    shown = await table.slash("map show", name="docks")
    assert "│Pier│──┤│Shed│" in shown.content
    assert await table.autocomplete("map show", "name", name="do") == ["Docks"]
    done = await table.click(asked.message, "Delete map", user=GM)
    assert "deleted the map **Docks**" in done.content
    assert "Docks" not in await listed(table)


async def test_a_map_given_the_fights_map_name_is_not_shown_as_the_fights(table: Table) -> None:
    await new_map(table, "Docks", DOCKS)
    started = await table.slash("combat start", user=GM, map="Docks")
    assert not started.ephemeral, started.content
    fights = await table.slash("map show", user=ALICE, name="docks", view="list")
    assert "as this channel's fight has it (round 0)" in fights.content, fights.content
    assert "Pier" in fights.content

    # During the fight the map is deleted and another takes its name (and, SQLite being what
    # it is, its id): that one is not the fight's map.
    asked = await table.slash("map delete", user=GM, name="Docks")
    await table.click(asked.message, "Delete map", user=GM)
    await new_map(table, "Docks", "Quay @ 0,0\nBoat @ 1,0\nQuay -- Boat")
    shown = await table.slash("map show", user=ALICE, name="Docks", view="list")
    assert "fight" not in shown.content and "Effects" not in shown.content, shown.content
    assert "Quay" in shown.content and "Pier" not in shown.content
    board = await table.slash("combat status")
    assert "Pier" in board.content  # the fight goes on where it was
