"""004 "Maps" ("make the consequences of positioning unambiguous"): the board as text."""

from __future__ import annotations

from engine.combat import (
    Attack,
    ChooseDice,
    PromptKind,
    React,
    Reroll,
    render_board,
)
from tests.engine.combat.helpers import (
    P1,
    RULES,
    duel,
    go,
    knife,
    pistol,
)


def test_render_board_fits() -> None:
    c = duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    board = render_board(c, rules=RULES)
    assert len(board) <= 1990
    assert board.startswith("Round 1 · reaction · PCs acting")
    assert "Waiting for: Goon (react)" in board
    assert "Ana [PCs] Entrance 50/50 a0\n" in board


# ---- the board says which abilities apply to the roll at hand ---------------------------------


def _abilities_line(board: str) -> list[str]:
    return board.split("Waiting for: ", 1)[1].splitlines()[1:]


def test_board_says_which_abilities_apply_to_the_reroll() -> None:
    sharp = pistol("Ana", max_level=60,
                   abilities=("ranged_1h.good_attack", "ranged_1h.precise_attack"))
    c = duel(sharp, pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [7, 2])
    board = render_board(c, rules=RULES)
    assert "Waiting for: Ana (re-roll?)" in board
    assert _abilities_line(board) == ["Ana: good, precise (1H ranged attack)"]
    assert all(len(line) <= 40 for line in board.splitlines())



def test_board_says_which_abilities_apply_to_the_modifier() -> None:
    sharp = pistol("Ana", max_level=60,
                   abilities=("ranged_1h.good_attack", "ranged_1h.precise_attack"))
    c = duel(sharp, pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 8])
    c = go(c, Reroll(fighter="Ana", which="keep"), actor=P1)
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 3 at 8: precise offered
    assert c.waiting_for()[0].kind is PromptKind.MODIFIER
    assert _abilities_line(render_board(c, rules=RULES)) == ["Ana: precise (1H ranged attack)"]


def test_board_names_the_reactions_abilities() -> None:
    goon = knife("Goon", npc=True, max_level=60,
                 abilities=("melee_1h.good_reactions",))
    c = duel(pistol("Ana"), goon)
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    board = render_board(c, rules=RULES)
    assert _abilities_line(board) == ["Goon: good (1H melee counterattack)"]


def test_board_says_nothing_when_no_ability_applies() -> None:
    c = duel(knife("Ana", max_level=60, abilities=("ranged_1h.good_attack",)),
             knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [1, 2])
    assert c.waiting_for()[0].kind is PromptKind.CHOOSE_DICE
    assert _abilities_line(render_board(c, rules=RULES)) == []


def test_a_long_line_is_cut_to_the_phone() -> None:
    name = "Anastasia Longname-Fairweather"
    ana = pistol(name, max_level=60,
                 abilities=("ranged_1h.good_attack", "ranged_1h.precise_attack"))
    c = duel(ana, pistol("Goon", npc=True))
    c = go(c, Attack(fighter=name, target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [7, 2])
    (line,) = _abilities_line(render_board(c, rules=RULES))
    assert len(line) == 40 and line.endswith("…") and line.startswith(name + ": good")
