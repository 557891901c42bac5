"""What a choice means, said where the player chooses: a damage die's button names the body
part its other die hits (the rules' hit-location table), and the critical success's Adjust
form says what the value is and what taking it does."""

from __future__ import annotations

import re

from testbed.harness import ALICE, GM, Table
from tests.bot.fights import (
    add_character,
    ana_and_goon_on_the_dance_floor,
    begin_pcs_first,
    start_fight,
)

BUTTON_LABEL, FORM_LABEL, FORM_NOTE = 80, 45, 100  # Discord's limits (localdiscord.limits)


async def test_the_damage_buttons_name_the_body_part_each_location_die_hits(
        table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 9)  # 39 against 40: a hit
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    dice = rolled.prompt
    assert dice.labels == ["3 damage · 9: head", "9 damage · 3: right leg"]
    assert all(len(label) <= BUTTON_LABEL for label in dice.labels)
    # The ids still say which option by its place, not by its words.
    assert [re.fullmatch(r"cb:\d+:\d+:choose_dice:([01]):\d*", b.custom_id)[1]  # type: ignore[index]
            for b in dice.buttons] == ["0", "1"]
    hit = await table.click(dice, "9 damage · 3: right leg", user=ALICE)
    assert "Goon takes 9 damage to the right leg" in hit.answer.content, hit.answer.content


async def test_the_adjust_form_says_what_the_value_is_and_what_taking_it_does(
        table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(2, 2)  # 22 against 40: doubles, a critical success
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    opened = await table.click(rolled.prompt, "Adjust", user=ALICE)
    form = opened.modal
    assert form is not None and form.title == "Adjust the critical success"
    (label,) = form.fields
    assert label == "Set Ana's roll to (1-40)"  # up to her level: 22 is not exactly it
    description, placeholder = form.notes[label]
    assert description == ("Instead of an extra action, the roll becomes this number (a "
                           "success); its two digits are the dice.")
    assert placeholder == ("e.g. 36: dice 3 and 6. On a hit, one die is damage, the other "
                           "hit location")
    assert len(label) <= FORM_LABEL and len(description) <= FORM_NOTE
    assert len(placeholder) <= FORM_NOTE
    done = await table.submit(form, {label: "36"}, message=rolled.prompt)
    assert "Ana adjusts the roll to 36." in done.answer.content, done.answer.content
    assert done.prompt.labels == ["3 damage · 6: torso", "6 damage · 3: right leg"]


async def test_a_long_name_gives_way_in_the_adjust_form_never_the_range(table: Table) -> None:
    name = "Anastasia Wolkenkratzer-Montgome"  # 32 characters, the most a name has
    await add_character(table, name, level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, (name, "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={name: ALICE})
    await begin_pcs_first(table)
    declared = await table.slash("attack", target="Goon")
    table.dice(3, 3)  # 33 against 40: doubles, a critical success
    rolled = await table.click(declared.prompt, "Pass", user=GM)
    opened = await table.click(rolled.prompt, "Adjust", user=ALICE)
    assert opened.modal is not None
    (label,) = opened.modal.fields
    assert label.startswith("Set Anastasia") and label.endswith("… to (1-40)"), label
    assert len(label) == FORM_LABEL
