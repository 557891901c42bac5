"""004 "Intercept": an attack on a moving character."""

from __future__ import annotations

import re

import pytest

from engine.character import Character, Item
from engine.combat import (
    AddFighter,
    ChooseDice,
    Combat,
    Move,
    PromptKind,
    React,
    new_combat,
)
from engine.phrases import english
from tests.engine.combat.helpers import (
    BULLETS,
    CLUB,
    DARTS,
    P1,
    begin,
    go,
    kinds,
    knife,
    pistol,
    pistol_with,
    refused,
    run,
    setup,
    texts,
)


def test_rulebook_intercept_example() -> None:
    # 004 "Intercept": "The range from the entrance to a character moving between the catwalk
    # and dance floor is one." The nightclub joins the catwalk and the dance floor by sight
    # only, so to play the sentence the catwalk gets a way down instead: an arrow, one way
    # (004 "Movement": "jumping down?"), with the same marks, so the same ranges and sight.
    jump = re.sub(r"(?m)^Catwalk \.\. Dance Floor.*$", "Catwalk -> Dance Floor", CLUB)
    assert jump != CLUB
    c = new_combat(jump)
    for ch, area, owner in ((knife("Ana"), "Catwalk", 100), (knife("Cy"), "Alley", 200),
                            (pistol("Goon", npc=True), "Entrance", None),
                            (knife("Rat", npc=True), "Entrance", None)):
        c = go(c, AddFighter(character=ch, area=area, owner_id=owner))
    club = c.game_map()
    assert club.range("Entrance", "Catwalk") == 2 and club.range("Entrance", "Dance Floor") == 1
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Move(fighter="Ana", to="Dance Floor"), actor=P1)
    # "Use the smaller of the two ranges": 1. Goon's pistol (range 0 or 1) reaches Ana; Rat's
    # knife (range 0) does not, so only Goon is asked.
    assert kinds(c) == [(PromptKind.REACT, "goon")]
    c, events = run(c, React(fighter="Goon", reaction="intercept"), [2, 3])
    assert "Goon attacks Ana with Pistol: 23 (2·3) vs 50 — SUCCESS." in texts(events)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"))  # 3 damage, location 2
    assert texts(events)[-1] == "Ana is now in Dance Floor."
    assert c.fighter("ana").character.level == 47


def _intercept_window(interceptor: Character) -> Combat:
    """Ana moves from the dance floor to the bar; ``interceptor`` on the dance floor may
    intercept (range 0, a pistol reaches it). Cy keeps the PCs' turn going afterwards."""
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Cy"), "Alley", 200),
              (interceptor, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    return go(c, Move(fighter="Ana", to="Bar"), actor=P1)


@pytest.mark.parametrize(("ammo", "choices"), [
    ((BULLETS,), "intercept"),
    ((DARTS,), "intercept (less-lethal only)"),
    ((BULLETS, DARTS), "intercept (lethal or less-lethal)"),
])
def test_the_window_says_whether_an_intercept_can_be_less_lethal(
        ammo: tuple[Item, ...], choices: str) -> None:
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Cy"), "Alley", 200),
              (pistol_with("Goon", *ammo), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c, events = run(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert f"Goon may {choices} or pass (within 45 seconds)." in texts(events)


def test_a_less_lethal_intercept_needs_less_lethal_ammo() -> None:
    c = _intercept_window(pistol_with("Goon", BULLETS))
    assert c.waiting_for()[0].options == ("intercept", "pass")  # no less-lethal button
    refused(c, React(fighter="Goon", reaction="intercept", lethal=False),
            "Goon has no less-lethal ammo: a less-lethal intercept with Pistol needs a "
            "less-lethal ammo slot")
    refused(c, React(fighter="Goon", reaction="intercept", weapon="Pistol", lethal=False),
            "Goon has no less-lethal ammo")


def test_a_less_lethal_intercept_with_darts_only() -> None:
    c = _intercept_window(pistol_with("Goon", DARTS))
    assert c.waiting_for()[0].options == ("intercept_less_lethal", "pass")
    refused(c, React(fighter="Goon", reaction="intercept"),
            "Goon has only less-lethal ammo left for Pistol: the intercept can only be "
            "less-lethal")
    c, events = run(c, React(fighter="Goon", reaction="intercept", lethal=False), [2, 4])
    assert "Goon intercepts with Pistol (less-lethal)." in [english(e.text) for e in events]
    assert c.attack is not None and c.attack.intercept and not c.attack.lethal
    c = go(c, ChooseDice(fighter="Goon", damage="ones"))  # 4 at location 2: the right leg
    ana = c.fighter("ana")
    assert ana.character.level == 46 and not ana.character.wounds and ana.area == "Bar"


@pytest.mark.parametrize(("lethal", "destroyed"), [(True, "Bullets"), (False, "Darts")])
def test_a_ranged_intercept_fumble_destroys_ammo_of_its_sort(lethal: bool,
                                                              destroyed: str) -> None:
    c = _intercept_window(pistol_with("Goon", BULLETS, DARTS))
    assert c.waiting_for()[0].options == ("intercept", "intercept_less_lethal", "pass")
    c, events = run(c, React(fighter="Goon", reaction="intercept", lethal=lethal), [7, 7])
    assert f"Goon's {destroyed} is destroyed (a ranged critical failure)." in [
        english(e.text) for e in events]
    items = {it.name: it.destroyed for it in c.fighter("goon").character.items}
    assert items == {"Pistol": False, "Bullets": lethal, "Darts": not lethal}
