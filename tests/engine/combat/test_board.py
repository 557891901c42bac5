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
from engine.combat.board import fighter_lines
from engine.textwidth import width
from tests.engine.combat.helpers import (
    P1,
    RULES,
    begin,
    duel,
    go,
    knife,
    pistol,
    setup,
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


def test_a_long_abilities_line_wraps_to_the_phone() -> None:
    name = "Anastasia Longname-Fairweather"
    ana = pistol(name, max_level=60,
                 abilities=("ranged_1h.good_attack", "ranged_1h.precise_attack"))
    c = duel(ana, pistol("Goon", npc=True))
    c = go(c, Attack(fighter=name, target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [7, 2])
    board = render_board(c, rules=RULES)
    assert board.endswith("\nWaiting for: Anastasia\n  Longname-Fairweather (re-roll?)\n"
                          "Anastasia Longname-Fairweather: good,\n  precise (1H ranged attack)")
    assert "…" not in board


# ---- every fighter's numbers stay in sight on a phone ------------------------------------------


LONG_NAME = "Anastasia Longname-Fairweather X"  # 32 characters, the most a name may have
CJK_NAME = "山田太郎" * 8  # 32 characters, 64 columns


def _fighter(board: str, name_start: str) -> list[str]:
    """The board lines of the fighter whose name starts with ``name_start``."""
    lines = board.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(name_start))
    rest = lines[first + 1 :]
    more = next(i for i, line in enumerate(rest) if not line.startswith("  ")
                or line.startswith("   "))  # the map's lines start further in
    return lines[first : first + 1 + more]


def test_a_32_character_name_keeps_its_level_and_actions() -> None:
    c = duel(knife(LONG_NAME, level=99, max_level=99), knife("Goon", npc=True))
    board = render_board(c, rules=RULES)
    assert _fighter(board, "Anastasia") == [LONG_NAME, "  99/99 a1 [PCs] Entrance"]
    assert _fighter(board, "Goon") == ["Goon [NPCs] Entrance 50/50 a1"]
    assert all(width(line) <= 40 for line in board.splitlines())
    knocked_out = setup((knife(LONG_NAME, level=-12, max_level=99), "Pool Tables", None))
    assert _fighter(render_board(knocked_out, rules=RULES), "Anastasia") == [
        LONG_NAME, "  -12/99 a0 dead [PCs] Pool Tables"]


def test_a_cjk_name_keeps_its_level_and_actions_and_the_columns() -> None:
    c = duel(knife("Ana"), knife(CJK_NAME, npc=True))
    board = render_board(c, rules=RULES)
    assert _fighter(board, "山田") == [
        "山田太郎山田太郎山田太郎山田太郎山田太郎",  # 40 columns
        "  山田太郎山田太郎山田太郎",
        "  50/50 a1 [NPCs] Entrance",
    ]
    assert all(width(line) <= 40 for line in board.splitlines())
    short = render_board(duel(knife("Ana"), knife("北斗", npc=True)), rules=RULES)
    assert "\n北斗 [NPCs] Entrance 50/50 a1\n" in short  # 28 columns: one line


def test_the_area_gives_way_before_the_numbers() -> None:
    assert fighter_lines("Bartholomew the Bold", "PCs", "Garden of the Moon", "45/60",
                         "a2 d1 directed all-out") == [
        "Bartholomew the Bold",
        "  45/60 a2 d1 directed all-out [PCs]",
        "  Garden of the Moon",
    ]
    assert fighter_lines("Bo", "The Night Watch", "Garden of the Moon", "45/60", "a2") == [
        "Bo 45/60 a2", "  [The Night Watch] Garden of the Moon"]


def test_a_crowded_board_keeps_what_the_fight_waits_for() -> None:
    crowd = [(knife(f"Anastasia Longname-Fairweather{n:02d}"), "Entrance", 100)
             for n in range(40)]
    c = begin(setup(*crowd, (knife("Goon", npc=True), "Bar", None)), [3, 2, 6, 1], "NPCs")
    board = render_board(c, rules=RULES)
    lines = board.splitlines()
    assert len(board) <= 1980 and all(width(line) <= 40 for line in lines)
    assert "┌" not in board  # the map gives way first, then team and area go in headings
    assert lines[:4] == ["Round 1 · turn · NPCs acting", "[PCs] Entrance:",
                         "  Anastasia Longname-Fairweather00", "    50/50 a1"]
    assert lines[-7:] == [
        "    50/50 a1",
        "[NPCs] Bar:",
        "  Goon 50/50 a1",  # the one the fight waits for, though added last
        "… 3 more: /combat status character:",
        "aN: N actions left this round",  # the key stays: one short line
        "Map left out (crowded): /map show",
        "Waiting for: Goon (act)",
    ]
    assert lines[-8] == "  Anastasia Longname-Fairweather36"
