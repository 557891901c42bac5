"""The board as a phone shows it, through the real commands: every line within 40 columns
(CJK counted two), each fighter's level and actions in sight whatever their name, whole area
names (a number in the grid, the name under it) and one letter per fighter."""

from __future__ import annotations

from itertools import pairwise

from engine.textwidth import width
from testbed.harness import ALICE, GM, Table
from tests.bot.fights import add_character, start_fight
from tests.bot.test_map_commands import new_map

LONG_NAME = "Anastasia Longname-Fairweather X"  # 32 characters, the most a name may have
CJK_NAME = "山田太郎" * 8  # 32 characters, 64 columns
GARDENS = """\
Garden of the Silver Moon @ 0,0
Gate @ 1,0
大広間の北の塔 @ 2,0
Garden of the Silver Moon -- Gate
Gate -- 大広間の北の塔
"""


def board_lines(content: str) -> list[str]:
    """The board's lines, inside its code block."""
    assert content.startswith("```text\nRound") and content.endswith("\n```"), content
    return content.removeprefix("```text\n").removesuffix("\n```").splitlines()


def assert_fits_a_phone(lines: list[str]) -> None:
    assert all(width(line) <= 40 for line in lines), "\n".join(lines)
    assert "…" not in "\n".join(lines)  # nothing cut


async def _gardens_fight(table: Table) -> list[str]:
    """The long-named PC and the CJK-named NPC added to a fight on the gardens; the board
    posted in the channel after the second /combat add, as lines."""
    made = await new_map(table, "Gardens", GARDENS)
    assert "Saved the new map **Gardens**" in made.content, made.content
    await add_character(table, LONG_NAME, level=50)
    await add_character(table, CJK_NAME, user=GM, level=99, npc=True)
    await start_fight(table, (LONG_NAME, "garden of the silver moon"),
                      user_of={LONG_NAME: ALICE}, map_name="Gardens")
    added = await table.slash("combat add", user=GM, character=CJK_NAME, area="大広間の北の塔")
    assert not added.ephemeral, added.content
    return board_lines(added.posted("```text\nRound").content)


async def test_long_and_cjk_names_keep_their_numbers_on_the_posted_board(table: Table) -> None:
    lines = await _gardens_fight(table)
    assert lines[:6] == [
        "Round 0 · setup",
        LONG_NAME,
        "  50/50 a0 [PCs]",
        "  Garden of the Silver Moon",  # an area is never broken over two lines
        "山田太郎山田太郎山田太郎山田太郎山田太郎",  # 64 columns: no line holds it
        "  山田太郎山田太郎山田太郎",
    ]
    assert lines[6:8] == ["  99/99 a0 [NPCs] 大広間の北の塔", "aN: N actions left this round"]
    assert_fits_a_phone(lines)


async def test_the_map_numbers_long_area_names_and_letters_each_fighter(table: Table) -> None:
    lines = await _gardens_fight(table)
    grid = lines[lines.index("┌─────┐   ┌─────┐   ┌─────┐") :]
    assert grid[:6] == [
        "┌─────┐   ┌─────┐   ┌─────┐",
        "│  1  │───│Gate │───│  2  │",  # neither name fits its box
        "│  A  │   │     │   │  B  │",
        "└─────┘   └─────┘   └─────┘",
        "1 Garden of the Silver Moon",
        "2 大広間の北の塔",
    ]
    who = lines[lines.index("Who is where:") + 1 : lines.index(
        "Waiting for: /combat add, then begin.")]
    assert who == [
        "Garden of the Silver Moon:",
        "  A Anastasia Longname-Fairweather X",
        "大広間の北の塔: B 山田太郎山田太郎山田太",
        "  郎山田太郎山田太郎山田太郎山田太郎山田",
        "  太郎",
    ]


async def test_combat_status_shows_the_same_board(table: Table) -> None:
    posted = await _gardens_fight(table)
    status = await table.slash("combat status", user=ALICE)
    assert status.ephemeral
    assert board_lines(status.content) == posted
    assert_fits_a_phone(posted)


async def test_names_and_areas_are_never_broken_across_lines(table: Table) -> None:
    await _gardens_fight(table)
    await add_character(table, "Bartholomew the Bold", level=40)
    joined = await table.slash("combat add", user=ALICE, character="Bartholomew the Bold",
                               area="Garden of the Silver Moon")
    lines = board_lines(joined.posted("```text\nRound").content)
    assert_fits_a_phone(lines)
    fighters = lines[:next(n for n, line in enumerate(lines) if line.startswith("┌"))]
    for whole, times in ((LONG_NAME, 1), ("Bartholomew the Bold", 1),
                         ("Garden of the Silver Moon", 2)):  # each whole on its line
        assert sum(whole in line for line in fighters) == times, fighters
    legend = lines.index("Who is where:")
    assert lines[legend + 1:legend + 4] == [
        "Garden of the Silver Moon:",
        "  A Anastasia Longname-Fairweather X,",  # an entry that fits a line starts one
        "  B Bartholomew the Bold",
    ]


async def test_numbered_copies_share_a_letter_on_the_map(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    for name in ("Thug 1", "Thug 2", "Tom"):
        await add_character(table, name, user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Entrance"), ("Thug 1", "Dance Floor"),
                      ("Thug 2", "Bar"), ("Tom", "Bar"), user_of={"Ana": ALICE})
    lines = board_lines((await table.slash("combat status", user=ALICE)).content)
    assert_fits_a_phone(lines)
    row = next(line for line in lines if line.startswith("│DJ Booth│"))
    markers = lines[lines.index(row) + 2]
    assert markers == "│        │   │   T    │   │  T O   │"  # Thug 1; Thug 2 and Tom
    legend = lines.index("Who is where:")
    assert lines[legend + 1:legend + 4] == [
        "Dance Floor: T Thug 1",
        "Bar: T Thug 2, O Tom",  # Tom's initial is the Thugs': the next letter of his name
        "Entrance: A Ana",
    ]


async def test_a_map_without_positions_keeps_the_board_short(table: Table) -> None:
    areas = [f"Tunnel {n}" for n in range(1, 13)]
    text = "\n".join(f"{a} -- {b}" for a, b in pairwise(areas))
    made = await new_map(table, "Warren", text + "\nTunnel 1: the way in")
    assert "No grid" in made.content
    await add_character(table, "Ana", level=40)
    await add_character(table, "Rat 1", user=GM, level=25, npc=True)
    await add_character(table, "Rat 2", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Tunnel 1"), ("Rat 1", "Tunnel 2"),
                      user_of={"Ana": ALICE}, map_name="Warren")
    added = await table.slash("combat add", user=GM, character="Rat 2", area="Tunnel 12")
    lines = board_lines(added.posted("```text\nRound").content)
    assert lines == [
        "Round 0 · setup",
        "Ana [PCs] Tunnel 1 40/40 a0",
        "Rat 1 [NPCs] Tunnel 2 25/25 a0",
        "Rat 2 [NPCs] Tunnel 12 25/25 a0",
        "aN: N actions left this round",
        "Map: /map show lists its areas",  # not its 40 lines at every edit
        "Waiting for: /combat add, then begin.",
    ]
    shown = await table.slash("map show", user=ALICE, name="Warren")  # the list, one step away
    assert "  -- Tunnel 12" in shown.content and "* the way in" in shown.content
