"""`/help`: a page at a time, just for the asker — where a new player and a new GM start, then
dice, characters, maps and sessions, a fight, reacting, fights by post, the GM's tools — with
buttons to the pages either side and `topic:` to open any. Every command the bot has is on
some page, and every command a page names is one the bot has, with the options it names."""

from __future__ import annotations

import itertools
import re
from typing import Any

from discord import app_commands

from bot.cogs.help.pages import PAGES
from bot.cogs.help.paging import help_page
from testbed.harness import DM_CHANNEL_ID, GM, Table

#: The most a page may say: well within Discord's 2,000 characters, a few screens on a phone.
PAGE_LIMIT = 1500


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


def command_of(table: Table, name: str) -> Any:
    """The command or group the bot has by ``name`` (None: it has none)."""
    first, *rest = name.split()
    found: Any = table.bot.tree.get_command(first)
    for part in rest:
        found = found.get_command(part) if isinstance(found, app_commands.Group) else None
    return found


def leaf_commands(table: Table) -> list[str]:
    """The full name of every command the bot registers, subcommands of groups included."""
    found = []
    waiting: list[tuple[str, Any]] = [("", c) for c in table.bot.tree.get_commands()]
    while waiting:
        prefix, command = waiting.pop(0)
        if isinstance(command, app_commands.Group):
            waiting += [(f"{prefix}{command.name} ", c) for c in command.commands]
        else:
            found.append(f"{prefix}{command.name}")
    return found


async def test_help_opens_where_newcomers_start(table: Table) -> None:
    reply = await table.slash("help")
    assert reply.ephemeral and reply.content.startswith("**New here?**")
    players, gms = reply.content.split("**GMs**")
    for step in ("`/character create`", "`/combat add`", "**My options**", "`/attack`"):
        assert step in players, step
    for step in ("`/map list`", "`/map new`", "`/character create npc:True`",
                 "`/combat start map:`", "`/combat add`", "`/combat begin`"):
        assert step in gms, step
    assert reply.content.endswith(f"-# Page 1 of {len(PAGES)}. The buttons go to the other "
                                  "pages, and `/help topic:` opens any of them.")
    assert reply.message.labels == ["◀ GM tools", "Dice ▶"]


async def test_the_buttons_go_through_every_page_and_around(table: Table) -> None:
    message = (await table.slash("help")).message
    seen = [message.content]
    for number in range(2, len(PAGES) + 2):
        pressed = await table.click(message, table.message(message.id).labels[1])
        assert pressed.kind == "update" and pressed.ephemeral, pressed.kind
        seen.append(table.message(message.id).content)
        assert f"Page {(number - 1) % len(PAGES) + 1} of {len(PAGES)}." in seen[-1]
    assert [s.split("\n", 1)[0] for s in seen] == [
        "**New here?**", "**Rolling dice**", "**Characters**", "**Maps**",
        "**Running an Unhex fight**", "**Reacting**", "**Fights by post**", "**GM tools**",
        "**New here?**"]
    assert all(len(page) <= PAGE_LIMIT for page in seen), [len(page) for page in seen]
    back = await table.click(message, "◀ GM tools")
    assert back.ephemeral and table.message(message.id).content.startswith("**GM tools**")
    assert table.message(message.id).labels == ["◀ Fights by post", "Start here ▶"]


async def test_the_buttons_work_after_a_restart(table: Table) -> None:
    message = (await table.slash("help")).message
    await table.restart()
    await table.click(message, "Dice ▶")
    assert table.message(message.id).content.startswith("**Rolling dice**")


async def test_a_topic_opens_its_page(table: Table) -> None:
    for page in PAGES:
        reply = await table.slash("help", topic=page.key)
        assert reply.ephemeral and reply.content.startswith(page.text), page.key
    fights = await table.slash("help", topic="reacting")
    # 004 "Actions": "Either case uses your action, you cannot both act and react using a
    # single action."
    said = " ".join(fights.content.split())
    assert ("A reaction spends your action for the round, as acting does: react, and you "
            "cannot act.") in said, said


async def test_every_command_the_bot_has_is_on_some_page(table: Table) -> None:
    named = {name for page in PAGES for name, _ in named_commands(help_page(page.key)[0])}
    missing = [name for name in leaf_commands(table) if name not in named]
    assert len(leaf_commands(table)) > 60
    assert not missing, f"/help says nothing of /{', /'.join(missing)}"


async def test_every_command_help_names_exists_with_its_options(table: Table) -> None:
    named = [found for page in PAGES for found in named_commands(help_page(page.key)[0])]
    assert len(named) > 60, named
    for name, options in named:
        command = command_of(table, name)
        assert command is not None, f"/help names /{name}, which the bot does not have"
        if isinstance(command, app_commands.Group):
            assert not options, (name, options)  # (a group names no options)
            continue
        known = {p.display_name for p in command.parameters}
        assert set(options) <= known, (name, options, known)


async def test_help_and_its_buttons_work_in_a_direct_message(table: Table) -> None:
    reply = await table.slash("help", guild=None, channel=DM_CHANNEL_ID, user=GM)
    assert reply.content.startswith("**New here?**")
    await table.click(reply.message, "Dice ▶", user=GM, guild=None)
    assert table.message(reply.message.id).content.startswith("**Rolling dice**")
