"""The whole sheet: a concept, a description and non-combat items beside the rules sheet,
through the real slash commands; shown on a phone's width with nothing cut, carried by
export and import, and absent from characters stored before they existed."""

from __future__ import annotations

import json

import pytest

from bot.cogs.characters import PASTE_LABEL
from engine.character import Character
from engine.sheet import WIDTH
from engine.textwidth import width
from testbed.harness import ALICE, BOB, GM, Table

pytestmark = pytest.mark.both_engines

DESCRIPTION = ("Tall, tired and polite until she is not. She still carries the badge she was "
               "told to hand in, and knows every bouncer on the strip by name. " * 3)[:400]


def _code_blocks(text: str) -> list[str]:
    return text.split("```")[1::2]


async def _described_ana(table: Table, level: int = 57) -> None:
    await table.slash("character create", name="Ana", level=level)
    reply = await table.slash("character describe", character="Ana",
                              concept="Ex-cop turned bouncer", description=DESCRIPTION)
    assert not reply.ephemeral and "concept: Ex-cop turned bouncer" in reply.content
    for item in ("Police badge", "Lock picks"):
        added = await table.slash("character gear add", character="Ana", name=item)
        assert not added.ephemeral and "no slot" in added.content


async def test_the_sheet_shows_who_the_character_is_above_the_rules(table: Table) -> None:
    await _described_ana(table)
    reply = await table.slash("sheet", character="Ana")
    story, sheet = _code_blocks(reply.content)
    assert story.strip().splitlines()[0] == "Concept: Ex-cop turned bouncer"
    assert " ".join(story.split()).count("every bouncer on the strip") == 2  # nothing cut
    assert "Other items: Police badge, Lock picks" in " ".join(story.split())
    assert "Items 0 of 6 slots · 6 free" in sheet  # non-combat items take no slot
    assert len(reply.content) <= 2000
    assert all(width(line) <= WIDTH for line in reply.content.splitlines())


async def test_a_full_sheet_and_a_long_story_come_in_two_messages(table: Table) -> None:
    await _described_ana(table, level=99)
    for number in range(10):
        await table.slash("character gear add", character="Ana", name=f"{number} " + "g" * 38)
    for number in range(5):
        await table.slash("character ability add", character="Ana",
                          ability=f"good at {number}" + "m" * 58)
    for number in range(10):
        await table.slash("character item add", character="Ana", name=f"{number} " + "Q" * 38,
                          kind="melee_1h")
    reply = await table.slash("sheet", character="Ana")
    assert len(reply.messages) == 2
    assert all(len(m.content) <= 2000 for m in reply.messages)
    assert "Concept:" in reply.messages[0].content and "Hands" in reply.messages[1].content


async def test_clearing_changing_and_removing(table: Table) -> None:
    await _described_ana(table)
    await table.slash("character describe", character="Ana", concept="-")
    removed = await table.slash("character gear remove", character="Ana", name="lock picks")
    assert not removed.ephemeral
    story = _code_blocks((await table.slash("sheet", character="Ana")).content)[0]
    assert "Concept" not in story and "Other items: Police badge" in story
    assert await table.autocomplete("character gear remove", "name",
                                    character="Ana") == ["Police badge"]
    twice = await table.slash("character gear add", character="Ana", name="police BADGE")
    assert twice.ephemeral and "already carries" in twice.content
    nothing = await table.slash("character describe", character="Ana")
    assert nothing.ephemeral and "concept, a description, or both" in nothing.content


async def test_only_the_owner_or_a_gm_describes_a_pc(table: Table) -> None:
    await _described_ana(table)
    refused = await table.slash("character describe", user=BOB, character="Ana",
                                concept="Someone else's idea")
    assert refused.ephemeral
    allowed = await table.slash("character describe", user=GM, character="Ana",
                                concept="Bouncer with a past")
    assert not allowed.ephemeral


async def test_export_and_import_carry_the_story(table: Table) -> None:
    await _described_ana(table)
    exported = await table.slash("character export", user=ALICE, character="Ana")
    data = json.loads(_code_blocks(exported.content)[0].removeprefix("json"))
    assert data["concept"] == "Ex-cop turned bouncer"
    assert data["gear"] == ["Police badge", "Lock picks"]
    await table.slash("character rename", character="Ana", new_name="Ana old")
    opened = await table.slash("character import", user=BOB)
    copied = exported.content[exported.content.index("```"):]  # fences and all, as copied
    done = await table.submit(opened.modal, {PASTE_LABEL: copied}, user=BOB)
    assert not done.ephemeral, done.content
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    assert (found.character.concept, found.character.description, found.character.gear) == (
        "Ex-cop turned bouncer", " ".join(DESCRIPTION.split()), ("Police badge", "Lock picks"))


def test_a_character_stored_before_the_story_loads_unchanged() -> None:
    older = ('{"schema_version": 1, "name": "Ana", "level": 50, "max_level": 50, '
             '"wounds": {}, "items": [], "abilities": [], "good_at": []}')
    ana = Character.model_validate_json(older)
    assert (ana.concept, ana.description, ana.gear) == ("", "", ())
