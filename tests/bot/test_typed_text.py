"""What users type, sent back within Discord's limits: every string option has a maximum
length that holds when the command arrives (discord.py does not check it), refusals quote
typed text cut short and markdown-escaped, and no refusal is over 2,000 characters (Discord
would reject it and the user would get no answer at all)."""

from __future__ import annotations

from typing import Any

import pytest

from testbed.harness import ALICE, GM, Reply, Table

HUGE = "x" * 6000


def refused(reply: Reply, *parts: str) -> None:
    assert reply.kind == "message" and reply.ephemeral, (reply.kind, reply.messages)
    assert len(reply.content) <= 2000
    for part in parts:
        assert part in reply.content, reply.content


async def test_every_string_option_declares_a_max_length(table: Table) -> None:
    commands = {c["name"]: c for c in table.synced[-1][1]}
    unlimited = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        for option in options:
            where = f"{path} {option['name']}"
            if option["type"] in (1, 2):
                walk(where, option.get("options", []))
            elif option["type"] == 3 and "max_length" not in option and not option.get("choices"):
                unlimited.append(where)

    for name in ("roll", "character", "sheet", "map", "gm"):
        walk(f"/{name}", commands[name].get("options", []))
    assert unlimited == []
    roll = commands["roll"]["options"]
    assert next(o for o in roll if o["name"] == "note")["max_length"] == 200


@pytest.mark.parametrize(
    ("command", "user", "options", "option", "limit"),
    [
        ("character create", ALICE, {"name": HUGE}, "name", "32"),
        ("character rename", ALICE, {"character": "Ana", "new_name": HUGE}, "new_name", "32"),
        ("character rename", ALICE, {"character": HUGE, "new_name": "Bea"}, "character", "100"),
        ("character item add", ALICE, {"character": "Ana", "name": HUGE, "kind": "shield"},
         "name", "40"),
        ("character item remove", ALICE, {"character": "Ana", "item": HUGE}, "item", "100"),
        ("character item hold", ALICE, {"character": "Ana", "item": HUGE}, "item", "100"),
        ("character ability add", ALICE, {"character": "Ana", "ability": HUGE}, "ability",
         "100"),
        ("character ability remove", ALICE, {"character": "Ana", "ability": HUGE}, "ability",
         "100"),
        ("character advance", ALICE, {"character": HUGE}, "character", "100"),
        ("sheet", ALICE, {"character": HUGE}, "character", "100"),
        ("map show", ALICE, {"name": HUGE}, "name", "100"),
        ("map export", ALICE, {"name": HUGE}, "name", "100"),
        ("map new", GM, {"name": HUGE}, "name", "32"),
        ("map edit", GM, {"name": HUGE}, "name", "100"),
        ("map delete", GM, {"name": HUGE}, "name", "100"),
        ("roll", ALICE, {"level": 40, "note": HUGE}, "note", "200"),
    ],
)
async def test_an_over_long_option_gets_a_short_clear_refusal_and_changes_nothing(
    table: Table, command: str, user: Any, options: dict[str, Any], option: str, limit: str,
) -> None:
    """What a stale or forged client may send: Discord's client stops users at the limit."""
    await table.slash("character create", name="Ana")
    before = await table.slash("sheet", character="Ana")
    posted = len(table.channel_messages())
    reply = await table.slash(command, user=user, **options)
    refused(reply, f"The `{option}` option takes at most {limit} characters; yours has 6,000.",
            "Nothing was changed.")
    assert "xxxxxxxxxx" not in reply.content
    assert len(table.channel_messages()) == posted  # nothing posted for the table
    assert (await table.slash("sheet", character="Ana")).content == before.content
    listed = await table.slash("character list")
    assert listed.content.count("• ") == 1


@pytest.mark.parametrize(
    ("command", "options", "option"),
    [
        ("character item add", {"character": "Ana", "name": "Vest", "kind": HUGE}, "kind"),
        ("character item add", {"character": "Ana", "name": "Vest", "kind": "armor",
                                "location": "elbow"}, "location"),
        ("character item hold", {"character": "Ana", "item": "1", "hand": "third"}, "hand"),
        ("character item stow", {"character": "Ana", "hand": HUGE}, "hand"),
        ("map show", {"name": "nightclub", "view": "3d"}, "view"),
    ],
)
async def test_a_value_not_among_an_options_choices_is_refused(
    table: Table, command: str, options: dict[str, Any], option: str
) -> None:
    await table.slash("character create", name="Ana")
    await table.slash("character item add", character="Ana", name="Knife", kind="melee_1h")
    before = await table.slash("sheet", character="Ana")
    reply = await table.slash(command, **options)
    refused(reply, f"The `{option}` option takes one of: “",
            "Nothing was changed.")
    assert (await table.slash("sheet", character="Ana")).content == before.content


async def test_typed_names_are_quoted_cut_short_and_escaped(table: Table) -> None:
    long_name = "*" + "y" * 98 + "*"
    reply = await table.slash("sheet", character=long_name)
    refused(reply, "There is no character called “\\*yyyy", "…” on this server.")
    assert "y" * 70 not in reply.content
    shown = await table.slash("map show", name="_" + "z" * 90)
    refused(shown, "There is no map called “\\_zzz", "…”. `/map list` shows the maps.")
    assert "z" * 70 not in shown.content
    await table.slash("character create", name="Ana")
    ability = await table.slash("character ability add", character="Ana",
                                ability="**" + "w" * 90)
    refused(ability, "There is no combat ability “\\*\\*www", "…”. Pick one from the list")
    assert "w" * 70 not in ability.content


async def test_a_long_refusal_from_anywhere_is_cut_to_fit(table: Table) -> None:
    """The one error handler clips every message: here a fight's area, which the fight
    commands quote back in full."""
    await table.slash("character create", name="Ana")
    started = await table.slash("combat start", user=GM, map="nightclub")
    assert not started.ephemeral, started.content
    reply = await table.slash("combat add", character="Ana", area="a" * 6000)
    refused(reply)


@pytest.mark.both_engines
async def test_a_nul_in_typed_text_is_refused_on_every_engine(table: Table) -> None:
    """Discord's clients never send a NUL, and PostgreSQL cannot keep one in text: a forged
    option holding one is refused before the command runs, with nothing saved."""
    reply = await table.slash("character create", user=ALICE, name="Ana\x00", level=40)
    refused(reply, "`name`", "NUL")
    assert "Ana" not in (await table.slash("character list", user=ALICE)).content
