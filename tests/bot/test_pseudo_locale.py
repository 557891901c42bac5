"""A whole fight and the main commands played in the pseudo-locale (testbed/pseudo.py): every
text the bot sends to Discord — messages, embeds, buttons, menus, modals, autocomplete, files —
is read, and English no catalogue translated fails the test.

``KNOWN_LEFT`` names the English still left, each as the line it shows (English words in order,
``#`` a number, ``…`` what was translated or a name): converting a part of the bot empties its
entries, and an entry no longer found fails too, so the list only shrinks. (The whole suite in
the pseudo-locale: ``make test-pseudo``.)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.character.model import Character, Item
from testbed.harness import ALICE, BOB, GM, GUILD_ID, Table
from testbed.pseudo import PseudoWatch, english_lines, start_watching, stop_watching

#: The English lines still sent in this fight and these commands, by the part that says them.
KNOWN_LEFT: dict[str, set[str]] = {}


@pytest.fixture
async def pseudo(database: str) -> AsyncIterator[tuple[Table, PseudoWatch]]:
    """A table playing in the pseudo-locale, and what it found."""
    watch = start_watching()
    watch.begin("pseudo-locale table")
    try:
        table = await Table(database).start()
        yield table, watch
        await table.stop()
    finally:
        stop_watching()


async def _characters(table: Table) -> None:
    gear = {"Ana": (ALICE, 40, [("Knife", "melee_1h")]),
            "Bram": (BOB, 35, [("Rifle", "ranged_2h"), ("Bullets", "ammo")]),
            "Goon": (GM, 15, [("Knife", "melee_1h")]),
            "Rat": (GM, 20, [("Pistol", "ranged_1h"), ("Bullets", "ammo")])}
    for name, (user, level, items) in gear.items():
        npc: dict[str, Any] = {"npc": True} if user is GM else {}
        await table.slash("character create", user=user, name=name, level=level, **npc)
        for item, kind in items:
            await table.slash("character item add", user=user, character=name, name=item,
                              kind=kind)
        await table.slash("character item hold", user=user, character=name, item=items[0][0])


async def _fight(table: Table) -> None:
    """The nightclub's whole fight (tests/bot/test_whole_fight.py's), with the log, the
    status, My options and a sheet on the way."""
    await table.slash("combat start", user=GM, map="Nightclub")
    await table.autocomplete("combat add", "character", user=GM)
    for name, area, user in (("Ana", "Dance Floor", ALICE), ("Bram", "Entrance", BOB),
                             ("Goon", "Dance Floor", GM), ("Rat", "Bar", GM)):
        await table.slash("combat add", user=user, character=name, area=area)
    table.dice(3, 4, 6, 2)
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first")
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    await table.click(turn, "My options", user=GM)
    await table.click(turn, "Catch up")
    attack = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    table.dice(1, 2, 3, 2)
    both = await table.click(attack.prompt, "Counterattack")
    goon_hits = await table.click(both.prompt, "2 damage · 1: left leg", user=GM)
    await table.click(goon_hits.prompt, "3 damage · 2: right leg")
    moving = await table.slash("move", user=GM, to="Dance Floor", **{"as": "Rat"})
    table.dice(1, 7)
    intercepted = await table.click(moving.prompt, "Intercept", user=BOB)
    stopped = await table.click(intercepted.prompt, "7 damage · 1: left leg", user=BOB)
    table.dice(1, 0, 5, 6)
    round_two = await table.click(stopped.prompt, "Stop in Bar", user=BOB)
    await table.click(round_two.prompt, "PCs first")
    await table.slash("combat status")
    shot = await table.slash("attack", user=BOB, target="Rat")
    table.dice(2, 9, 1, 5)
    defended = await table.click(shot.prompt, "Defend", user=GM)
    await table.click(defended.prompt, "2 damage · 9: head", user=GM)
    attack = await table.slash("attack", target="Goon")
    table.dice(1, 8)
    passed = await table.click(attack.prompt, "Pass", user=GM)
    table.dice(2, 0, 7, 0)
    round_three = await table.click(passed.prompt, "8 damage · 1: left leg")
    await table.click(round_three.prompt, "PCs first")
    await table.slash("combat log", user=GM)
    await table.slash("combat log", user=GM, file=True)
    shot = await table.slash("attack", user=BOB, target="Rat")
    table.dice(3, 4)
    passed = await table.click(shot.prompt, "Pass", user=GM)
    await table.click(passed.prompt, "3 damage · 4: torso", user=GM)
    await table.slash("sheet", user=BOB, character="Rat")


async def _commands(table: Table) -> None:
    table.dice(7, 2)
    rolled = await table.slash("roll", level=40, good=True, note="Schloss")
    table.dice(3, 3)
    await table.click(rolled.message, rolled.message.labels[0])
    table.dice(1, 2)
    await table.slash("roll")
    await table.slash("character list")
    await table.slash("sheet", character="Ana")
    await table.slash("map show", name="nightclub")
    await table.slash("map list")
    await table.slash("help")
    await table.slash("session start")
    await table.slash("session join", character="Ana")
    await table.slash("session status")
    await table.slash("session end", user=GM, achieved=True)
    await table.slash("settings reminders", where="dm")


async def test_a_whole_fight_and_the_main_commands_leave_no_english_but_the_known(
        pseudo: tuple[Table, PseudoWatch]) -> None:
    table, watch = pseudo
    await _characters(table)
    await _commands(table)  # first: a session's status after the fight would depend on the clock
    table.bot.fights.clock = lambda: 1_800_000_000.0  # type: ignore[union-attr]
    await _fight(table)
    known = set().union(*KNOWN_LEFT.values())
    found = {line: leak.text for leak in watch.leaks for line in english_lines(leak)}
    assert {line: text for line, text in found.items() if line not in known} == {}
    assert known - set(found) == set(), "no longer English: take these out of KNOWN_LEFT"


async def test_a_table_a_test_sets_in_another_language_is_not_read_for_english(
        pseudo: tuple[Table, PseudoWatch]) -> None:
    """What the bot says in a language the test chose (a German channel, a German client) is
    that language's, not English left behind: the table is read only while it plays wholly in
    the pseudo-locale."""
    table, watch = pseudo
    assert table.pseudo is not None
    table.pseudo.read("content", ["Left in English"])
    assert await _leaks(table, watch) == 1
    chose = await table.slash("settings language", user=GM, language="de")
    assert chose.content.startswith("🌐 Der Bot spricht"), chose.content
    table.pseudo.read("content", ["Left in English"])
    assert await _leaks(table, watch) == 1
    await table.bot.store.guilds.set_language(GUILD_ID, None)  # the server's own: en-XA
    table.pseudo.read("content", ["Left in English"])
    assert await _leaks(table, watch) == 2
    table.locales[ALICE.id] = "de"
    table.pseudo.read("content", ["Left in English"])
    table.locales[ALICE.id] = "en-XA"
    table.guild_locale = "de"
    table.pseudo.read("content", ["Left in English"])
    assert await _leaks(table, watch) == 2


async def test_what_the_store_holds_is_said_as_written_whoever_put_it_there(
        pseudo: tuple[Table, PseudoWatch]) -> None:
    """A set-up may write straight to the store, or copy a database another test built: the
    names it holds (a character's, its items', a map's and its areas, a fight's fighters and
    teams) and its whole texts (a map's notes) are nobody's English; other English is. What
    it held when the table started stays a name once deleted."""
    table, watch = pseudo
    assert table.pseudo is not None
    zed = Character.new("Zed", level=30).model_copy(
        update={"items": (Item(name="Crowbar", kind="melee_1h"),)})
    await table.bot.store.characters.add(guild_id=GUILD_ID, owner_id=ALICE.id, character=zed)
    await table.bot.store.maps.add(guild_id=GUILD_ID, name="Lair",
                                   text="Hall -- Cellar\nHall: pull the lever", author_id=GM.id)
    table.pseudo.read("content", ["Zed Crowbar Lair Hall Cellar", "pull the lever",
                                  "Zed pulls the lever", "Lair Left"])
    assert [leak.words for leak in watch.leaks] == []
    assert await _leaks(table, watch) == 2
    assert [leak.words for leak in watch.leaks] == [("pulls", "the", "lever"), ("Left",)]
    # what a table started with stays named as it was, once deleted
    await table.restart()
    stored = await table.bot.store.characters.get(GUILD_ID, "Zed")
    assert stored is not None
    await table.bot.store.characters.delete(stored.id, stored.created_at)
    table.pseudo.read("content", ["Zed Crowbar gone"])
    assert await _leaks(table, watch) == 3
    assert watch.leaks[-1].words == ("gone",)


async def _leaks(table: Table, watch: PseudoWatch) -> int:
    """How many leaks the watch kept, once the table judged what it suspected."""
    await table.settle()
    return len(watch.leaks)
