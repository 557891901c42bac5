"""Making a character as the book tells it, through the real dispatch: the form (name,
concept, description), what is still to choose and where, the form after a restart."""

from __future__ import annotations

import pytest

from engine.character import still_to_choose
from tests.harness import ALICE, BOB, Table

pytestmark = pytest.mark.both_engines


async def test_the_form_makes_a_character_and_says_what_is_left(table: Table) -> None:
    opened = await table.slash("character create")
    assert opened.kind == "modal" and opened.modal is not None
    assert list(opened.modal.fields) == ["Name", "Concept", "Description"]
    made = await table.submit(opened.modal, {"Name": "Ana", "Concept": "Ex-cop turned bouncer",
                                             "Description": "Tall and tired.\nPolite."})
    assert not made.ephemeral
    assert made.content == (
        f"🧍 {ALICE.mention} created **Ana**: a PC at level 50/50. Still to choose: 1 "
        "non-combat ability (`/character ability add`); 1 combat ability (`/character "
        "ability add`); 5 item slots free (`/character item add`). `/sheet character:Ana` "
        "shows the sheet.")
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    assert (found.character.concept, found.character.description) == (
        "Ex-cop turned bouncer", "Tall and tired. Polite.")


async def test_the_book_s_starting_character_from_the_form_and_commands(table: Table) -> None:
    opened = await table.slash("character create", level=50)
    await table.submit(opened.modal, {"Name": "Ana", "Concept": "Bouncer"})
    await table.slash("character ability add", character="Ana", ability="good at lockpicking")
    await table.slash("character ability add", character="Ana",
                      ability="melee_1h.good_attack")
    for name in ("Knife", "Baton", "Cosh", "Shiv", "Bat"):
        await table.slash("character item add", character="Ana", name=name, kind="melee_1h")
    await table.slash("character item hold", character="Ana", item="Knife")
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None and still_to_choose(found.character) == ()


async def test_the_form_still_works_after_a_restart(table: Table) -> None:
    opened = await table.slash("character create", level=61)
    await table.restart()
    made = await table.submit(opened.modal, {"Name": "Ana"})
    assert "a PC at level 61/61" in made.content and "6 item slots free" in made.content


async def test_the_form_refuses_what_the_command_refuses(table: Table) -> None:
    refused = await table.slash("character create", user=BOB, npc=True)
    assert refused.ephemeral and refused.modal is None
    await table.slash("character create", name="Ana")
    opened = await table.slash("character create", user=BOB)
    taken = await table.submit(opened.modal, {"Name": "ana"}, user=BOB)
    assert taken.ephemeral and "already has a character" in taken.content
