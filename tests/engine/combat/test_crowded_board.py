"""Big fights fit: a board of up to 40 fighters keeps every fighter in sight within one
Discord message and a phone's 40 columns. NPC copies that read the same share a line ("Goon
1-5"), the map gives way first, then team and area go in headings; the fighters the fight
acts or waits on always keep their own line."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.combat import Attack, Combat, render_board
from engine.combat.board import KEY, MAP_LEFT_OUT
from engine.combat.crowd import Row, copy_number, group_copies, numbers_text
from engine.combat.fighters import standing_teams
from engine.phrases import english
from engine.textwidth import width
from tests.engine.combat.helpers import GM, RULES, begin, go, knife, setup

AREAS = ("Dance Floor", "Bar", "Kitchen", "Entrance", "Alley")
PC_NAMES = ("Ana", "Bartholomew the Bold", "Cy", "Delphine Okonkwo-Reyes", "Eli", "Fatima",
            "Gunnar Stormhold", "Hua", "Ines", "Kofi Mensah", "Priya Raghunathan", "山田太郎")
BASES = ("Goon", "Bouncer", "Thug", "Security Guard")


def fighter_part(board: str) -> list[str]:
    """The board's fighter lines: after the round line, before what follows them."""
    ends = (english(KEY), "On the floor:", "Effects:", "┌", "-- move+sight", english(MAP_LEFT_OUT),
            "Waiting for:", "… ")
    lines = board.splitlines()[1:]
    return lines[: next(i for i, line in enumerate(lines) if line.lstrip().startswith(ends))]


def _numbers(runs: str) -> set[int]:
    found: set[int] = set()
    for run in runs.split(","):
        first, _, last = run.partition("-")
        found |= set(range(int(first), int(last or first) + 1))
    return found


def on_the_board(board: str, name: str) -> bool:
    """Whether the board's fighter lines name ``name``: itself, or, for a numbered copy, a
    grouped line whose numbers ("Goon 1-3,5") hold its number."""
    text = " " + " ".join(" ".join(fighter_part(board)).split()) + " "
    if f" {name} " in text:
        return True
    numbered = copy_number(name)
    if numbered is None:
        return False
    base, number = numbered
    return any(number in _numbers(runs) for runs in
               re.findall(rf" {re.escape(base)} ([0-9][0-9,-]*) ", text))


def assert_fits(board: str) -> None:
    assert len(board) <= 1980, len(board)
    assert all(width(line) <= 40 for line in board.splitlines()), board
    assert "…" not in board.replace("… ", ""), board  # nothing cut


# ---- the parts ----------------------------------------------------------------------------------


def test_copies_that_read_the_same_share_a_line_and_the_rest_keep_theirs() -> None:
    rows = [Row(f"Goon {n}", "NPCs", "Bar", "25/25", "a1", npc=True) for n in (1, 2, 3, 5, 7)]
    rows[3] = Row("Goon 5", "NPCs", "Bar", "20/25", "a1", npc=True)  # wounded: its own line
    rows.append(Row("Goon 8", "NPCs", "Bar", "25/25", "a1", npc=True, keep=True))  # acting
    rows += [Row(f"Cy {n}", "PCs", "Bar", "25/25", "a1") for n in (1, 2)]  # PCs: never
    rows += [Row("Goon 01", "NPCs", "Bar", "25/25", "a1", npc=True)]  # not a copy's number
    assert [(r.name, r.count) for r in group_copies(rows)] == [
        ("Goon 1-3,7", 4), ("Goon 5", 1), ("Goon 8", 1), ("Cy 1", 1), ("Cy 2", 1),
        ("Goon 01", 1)]
    assert copy_number("Security Guard 12") == ("Security Guard", 12)
    assert copy_number("Goon") is None and copy_number("R2 D2x") is None
    assert numbers_text([9, 1, 2, 3, 5, 8]) == "1-3,5,8-9"


def test_a_small_fight_keeps_one_line_per_copy_and_the_map() -> None:
    c = setup((knife("Ana"), "Bar", 100), (knife("Goon 1", npc=True), "Bar", None),
              (knife("Goon 2", npc=True), "Bar", None))
    board = render_board(begin(c, [3, 2, 6, 1], "NPCs"), rules=RULES)
    assert fighter_part(board) == ["Ana [PCs] Bar 50/50 a1", "Goon 1 [NPCs] Bar 50/50 a1",
                                   "Goon 2 [NPCs] Bar 50/50 a1"]
    assert "┌" in board and english(MAP_LEFT_OUT) not in board
    assert "Waiting for: Goon 1 (act), Goon 2 (act)" in board


def _big_fight() -> Combat:
    """20 PCs and 20 goons (every third one wounded), the NPCs acting."""
    pcs = [(knife(name), ("Bar", "Entrance")[n % 2], 100 + n)
           for n, name in enumerate((*PC_NAMES, "Jo", "Lena", "Mads", "Nadia", "Oskar",
                                     "Quinn", "Rosa", "Sven"))]
    goons = [(knife(f"Goon {n}", npc=True, level=30 if n % 3 == 0 else 50), "Bar", None)
             for n in range(1, 21)]
    return begin(setup(*pcs, *goons), [3, 2, 6, 1], "NPCs")


def test_forty_fighters_keep_the_one_acting_and_the_one_waited_for_on_their_own_lines() -> None:
    c = go(_big_fight(), Attack(fighter="Goon 5", target="Ana"), actor=GM)
    board = render_board(c, rules=RULES)
    assert_fits(board)
    lines = fighter_part(board)
    assert lines[-5:] == ["Goon 1-2,4,7-8,10-11 [NPCs] Bar 50/50 a1",
                          "Goon 13-14,16-17,19-20 50/50 a1", "  [NPCs] Bar",
                          "Goon 3,6,9,12,15,18 [NPCs] Bar 30/50 a1",
                          "Goon 5 [NPCs] Bar 50/50 a0"]  # attacking: never grouped away
    assert "Ana [PCs] Bar 50/50 a1" in lines
    assert board.endswith(f"{english(MAP_LEFT_OUT)}\nWaiting for: Ana (react)")
    assert all(on_the_board(board, f.name) for f in c.fighters)


def test_the_waiting_line_groups_the_copies_a_crowded_turn_waits_for() -> None:
    board = render_board(_big_fight(), rules=RULES)
    assert_fits(board)
    assert board.endswith("\nWaiting for: Goon 1-20 (act)")
    assert all(on_the_board(board, f.name) for f in _big_fight().fighters)


def test_hidden_npcs_group_by_how_hurt_they_look_and_the_gm_sees_the_figures() -> None:
    c = _big_fight()
    fighters = tuple(f if f.name != "Goon 6" else f.model_copy(update={
        "character": f.character.model_copy(update={"level": 40})}) for f in c.fighters)
    # Nobody acting (every goon may share a line); Goon 6 at 40/50, the other wounded at 30.
    c = c.model_copy(update={"hide_npcs": True, "prompts": (), "fighters": fighters})
    players = fighter_part(render_board(c, rules=RULES))
    assert players[-5:] == ["Goon 1-2,4-5,7-8,10-11 unhurt a1", "  [NPCs] Bar",
                            "Goon 13-14,16-17,19-20 unhurt a1", "  [NPCs] Bar",
                            "Goon 3,6,9,12,15,18 [NPCs] Bar hurt a1"]  # the figures untold
    gm = fighter_part(render_board(c, rules=RULES, gm=True))
    assert gm[-4:] == ["Goon 13-14,16-17,19-20 50/50 a1", "  [NPCs] Bar",
                       "Goon 3,9,12,15,18 [NPCs] Bar 30/50 a1", "Goon 6 [NPCs] Bar 40/50 a1"]


# ---- any fight of up to 40 -----------------------------------------------------------------------


@st.composite
def big_fights(draw: st.DrawFn) -> Combat:
    """Up to 40 fighters: PCs (names up to 22 characters, CJK among them) and numbered copies
    of up to four NPCs, in several areas, some wounded; one team acting, perhaps an attack
    under way; NPC figures perhaps hidden."""
    pcs = draw(st.lists(st.sampled_from(PC_NAMES), max_size=len(PC_NAMES), unique=True))
    entries = [(knife(name, level=draw(st.sampled_from((50, 35, 10)))),
                draw(st.sampled_from(AREAS)), 100 + n) for n, name in enumerate(pcs)]
    for base in draw(st.lists(st.sampled_from(BASES), min_size=1, unique=True)):
        area, level = draw(st.sampled_from(AREAS)), draw(st.sampled_from((50, 40, 20)))
        for n in range(1, draw(st.integers(1, 40 - len(entries))) + 1):
            wounded = draw(st.booleans()) and draw(st.booleans())
            entries.append((knife(f"{base} {n}", npc=True, level=level - 15 * wounded),
                            draw(st.sampled_from((area, area, AREAS[n % 5]))), None))
            if len(entries) == 40:
                break
        if len(entries) == 40:
            break
    c = setup(*entries)
    if len(standing_teams(c, RULES)) == 2:  # (all of a team may be down: no fight to begin)
        c = begin(c, [3, 2, 6, 1], draw(st.sampled_from(("PCs", "NPCs"))))
    return c.model_copy(update={"hide_npcs": draw(st.booleans())})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_fights(), st.booleans())
def test_every_fighter_of_a_big_fight_is_on_the_board(c: Combat, gm: bool) -> None:
    board = render_board(c, rules=RULES, gm=gm)
    assert_fits(board)
    assert [f.name for f in c.fighters if not on_the_board(board, f.name)] == [], board
    assert "more: /combat status" not in board

