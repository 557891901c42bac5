"""004 "Move": one step to a connected area for one action, no roll."""

from __future__ import annotations

from engine.combat import (
    ChooseOrder,
    Done,
    GMSet,
    Move,
    PromptKind,
    React,
    legal_moves,
    legal_targets,
)
from tests.engine.combat.helpers import (
    P1,
    RULES,
    begin,
    go,
    kinds,
    pistol,
    refused,
    run,
    setup,
    texts,
)


def test_rulebook_catwalk_example() -> None:
    # 004 "Line of Sight": "A character on the catwalk can see someone on the dance floor and
    # vice versa, but can not move directly between them. They would have to move to the DJ
    # booth first." (004 "Move": "Moving from one area to an immediately connected area takes
    # one action, and doesn't require a roll to succeed.")
    c = setup((pistol("Ana"), "Catwalk", 100), (pistol("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_targets(c, "ana", RULES) == ("Goon",)  # Ana sees Goon
    assert legal_targets(c, "goon", RULES) == ("Ana",)  # and Goon sees Ana
    refused(c, Move(fighter="Ana", to="Dance Floor"),
            "Catwalk and Dance Floor are joined by sight only", P1)
    assert legal_moves(c, "ana", RULES) == ("DJ Booth",)
    c = go(c, Move(fighter="Ana", to="DJ Booth"), actor=P1)
    assert kinds(c) == [(PromptKind.REACT, "goon")]  # a move may be intercepted
    c, events = run(c, React(fighter="Goon", reaction="pass"))  # no die rolled
    assert texts(events)[-2:] == ["Ana is now in DJ Booth.", "Turn: NPCs."]
    assert c.fighter("ana").area == "DJ Booth" and c.fighter("ana").actions == 0
    c = go(c, Done(), [3, 2, 6, 1])  # the NPCs are done: round 2, the PCs win initiative
    c = go(c, ChooseOrder(first_team="PCs"))
    assert "Dance Floor" in legal_moves(c, "ana", RULES)
    c = go(c, Move(fighter="Ana", to="Dance Floor"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="pass"))
    assert "Ana is now in Dance Floor." in texts(events)
    assert c.fighter("ana").area == "Dance Floor"


def test_nobody_out_of_the_fight_has_a_move_to_offer() -> None:
    c = setup((pistol("Ana"), "Dance Floor", 100), (pistol("Cy"), "Alley", 200),
              (pistol("Goon", npc=True), "Bar", None))
    c = go(begin(c, [3, 2, 6, 1], "PCs"), GMSet(fighter="Ana", level=5))  # unconscious
    assert legal_moves(c, "ana", RULES) == ()
    refused(c, Move(fighter="Ana", to="Bar"), "Ana is unconscious and cannot act", P1)
