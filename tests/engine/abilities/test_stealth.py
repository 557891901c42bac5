"""Stealth (004 "Abilities": Stealth; RULINGS 9, 12): "While in an area without enemies, you
gain an additional cover mark between you and any other area. Besides providing cover, this
also counts against line of sight, even if there was already cover in your area. You lose this
effect as soon as you start a Move, Attack or Intercept action. You regain it after a Move
action to an area without enemies, even if you were there previously in the combat."

On the nightclub: a mark stands at the bar's end of the line from the dance floor, none
between the dance floor and the entrance."""

from __future__ import annotations

from engine.character import Character
from engine.combat import (
    Attack,
    Combat,
    Done,
    GMSet,
    Move,
    PromptKind,
    React,
    legal_targets,
    render_board,
)
from engine.combat.stealth import hidden
from engine.phrases import english
from tests.engine.combat.helpers import (
    BULLETS,
    P1,
    RULES,
    begin,
    go,
    kinds,
    knife,
    pistol,
    refused,
    rifle,
    run,
    setup,
)

STEALTH = ("stealth.hide",)


def _ana(**kw: object) -> Character:
    return pistol("Ana", abilities=STEALTH, **kw)


def _fight(ana_area: str, goon: Character | None = None, goon_area: str = "Dance Floor",
           first: str = "NPCs") -> Combat:
    """Ana (Stealth, a pistol) and Goon (a pistol); Cy (a pistol) and Rat (a knife, out of
    everyone's reach) keep each team's turn going."""
    c = setup(
        (_ana(), ana_area, 100),
        (pistol("Cy"), "Alley", 200),
        (goon or pistol("Goon", npc=True), goon_area, None),
        (knife("Rat", npc=True), "Catwalk", None),
    )
    faces = [6, 1, 3, 2] if first == "NPCs" else [3, 2, 6, 1]
    return begin(c, faces, first)


def _is_hidden(c: Combat, name: str) -> bool:
    return hidden(c, c.fighter(name), RULES)


def test_book_the_mark_counts_against_sight_even_with_cover_already_there() -> None:
    # From the dance floor the bar's own mark is one: Ana at the bar is seen, with cover.
    # Hidden, her Stealth mark makes two: Goon no longer sees her at all.
    c = _fight("Bar")
    assert c.fighter("ana").hidden and _is_hidden(c, "Ana")
    assert "Ana" not in legal_targets(c, "goon", RULES)
    refused(c, Attack(fighter="Goon", target="Ana"),
            "Goon has no line of sight from Dance Floor to Bar: Ana is hidden \\(Stealth\\).")
    # A 2H ranged Attack by someone with that ability is blocked only by 3 marks.
    sniper = rifle("Goon", 50, True, BULLETS).model_copy(
        update={"abilities": ("ranged_2h.long_sight",)})
    c = _fight("Bar", sniper)
    assert "Ana" in legal_targets(c, "goon", RULES)


def test_book_the_mark_gives_cover_against_any_other_area() -> None:
    c = _fight("Entrance")  # no mark between the dance floor and the entrance
    assert "Ana" in legal_targets(c, "goon", RULES)  # one mark does not block sight
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c, events = run(c, React(fighter="Ana", reaction="defend"), [3, 4, 8, 0], actor=P1)
    assert _is_hidden(c, "Ana")  # a Defend is none of Move, Attack or Intercept
    assert "Goon hits Ana; Ana is hidden (Stealth: cover) and chooses which die is damage." in [
        english(e.text) for e in events]
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]


def test_book_an_attack_loses_it() -> None:
    c = _fight("Bar", first="PCs")
    c, events = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    assert [english(e.text) for e in events][:2] == ["Ana attacks Goon with Pistol.",
                                            "Ana is no longer hidden."]
    c = go(c, React(fighter="Goon", reaction="pass"), [7, 2])  # a miss
    assert not c.fighter("ana").hidden
    c = go(c, Done(), actor=P1)
    assert c.acting_team == "NPCs" and "Ana" in legal_targets(c, "goon", RULES)


def test_book_a_move_loses_it_and_a_move_to_an_area_without_enemies_regains_it() -> None:
    c = _fight("Bar", first="PCs")
    c, events = run(c, Move(fighter="Ana", to="Kitchen"), actor=P1)
    assert [english(e.text) for e in events][:2] == ["Ana moves from Bar to Kitchen.",
                                            "Ana is no longer hidden."]
    c, events = run(c, React(fighter="Goon", reaction="pass"))
    assert [english(e.text) for e in events][-2:] == ["Ana is now in Kitchen.",
                                             "Ana is hidden again (Stealth)."]
    assert _is_hidden(c, "Ana")


def test_a_move_into_enemies_does_not_regain_it_even_once_they_leave() -> None:
    c = _fight("Entrance", first="PCs")
    c = go(c, Move(fighter="Ana", to="Dance Floor"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"))
    assert c.fighter("ana").area == "Dance Floor" and not c.fighter("ana").hidden
    c = go(c, GMSet(fighter="Goon", area="Bar"))
    assert not _is_hidden(c, "Ana")  # only a Move regains it


def test_book_an_intercept_loses_it() -> None:
    c = _fight("Bar")
    c = go(c, Move(fighter="Goon", to="Entrance"))  # Ana at the bar may intercept (range 1)
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    c, events = run(c, React(fighter="Ana", reaction="intercept"), [7, 2], actor=P1)
    assert "Ana is no longer hidden." in [english(e.text) for e in events]
    assert not c.fighter("ana").hidden


def test_an_enemy_in_the_area_suspends_it_until_they_leave() -> None:
    c = _fight("Pool Tables")
    c = go(c, Move(fighter="Goon", to="Pool Tables"))
    c = go(c, React(fighter="Ana", reaction="pass"), actor=P1)
    assert c.fighter("ana").hidden and not _is_hidden(c, "Ana")  # Goon is right there
    assert "Ana [PCs] Pool Tables 50/50 a1\n" in render_board(c, rules=RULES)
    c = go(c, GMSet(fighter="Goon", area="Entrance"))  # Goon leaves: the mark counts again
    assert _is_hidden(c, "Ana")


def test_the_board_marks_who_is_hidden() -> None:
    c = _fight("Bar")
    board = render_board(c, rules=RULES)
    assert "Ana [PCs] Bar 50/50 a1 hidden\n" in board
    assert "Cy [PCs] Alley 50/50 a1\n" in board


def test_unconscious_or_out_of_the_fight_nothing_is_hidden() -> None:
    c = _fight("Bar")
    c = go(c, GMSet(fighter="Ana", level=5))
    assert c.fighter("ana").hidden and not _is_hidden(c, "Ana")


def test_the_gm_sets_it_for_a_character_with_stealth_only() -> None:
    c = _fight("Bar")
    c, events = run(c, GMSet(fighter="Ana", hidden=False))
    assert events[-1].text == "GM correction to Ana: hidden yes → no."
    assert not _is_hidden(c, "Ana")
    c = go(c, GMSet(fighter="Ana", hidden=True))
    assert _is_hidden(c, "Ana")
    refused(c, GMSet(fighter="Cy", hidden=True),
            "Cy does not have Stealth: only a hidden character's mark can be set.")
    refused(c, GMSet(fighter="Ana", hidden=True), "Only a GM", actor=P1)
