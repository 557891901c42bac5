"""engine.maprender: the list and grid views, who is where, and the size limits."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.maprender import (
    GRID_LEGEND,
    LIMIT,
    LIST_LEGEND,
    marker_letters,
    render_grid,
    render_list,
    render_map,
)
from engine.maps import GameMap, UnknownAreaError, parse_map
from engine.textwidth import width

MAPS = Path(__file__).resolve().parents[2] / "data" / "maps"


def load(name: str) -> GameMap:
    return parse_map((MAPS / f"{name}.map").read_text(encoding="utf-8"))


# Drawn like the book's picture: the catwalk on top, the DJ booth to the left, the bar to the
# right, the pool tables and the entrance below, the kitchen and the alley down the right side.
NIGHTCLUB_GRID = """\
             ┌────────┐
             │Catwalk │
             │        │
             └────────┘
                  ┆
                  ┆
                  ┆
┌────────┐   ┌────────┐   ┌────────┐
│DJ Booth│├──│ Dance  │──┤│  Bar   │
│        │   │ Floor  │   │        │
└────────┘   └────────┘   └────────┘
                  │            │
                  │            │
                  │            ┴
┌────────┐   ┌────────┐   ┌────────┐
│  Pool  │├──│Entrance│   │Kitchen │
│ Tables │   │        │   │        │
└────────┘   └────────┘   └────────┘
                               ┬
                               │
                               │
                          ┌────────┐
                          │ Alley  │
                          │        │
                          └────────┘
─ move+sight ┄ sight only ▶ one way
■ door shut □ door open ╳ no sight
├ ┤ ┬ ┴ cover mark at that end
Other lines:
Catwalk ──┤ DJ Booth
Catwalk ┄┄┄ Bar
Dance Floor ──┤ Pool Tables
* Entrance: PCs may start here
* Alley: PCs may start here"""


def test_nightclub_grid_looks_like_the_picture() -> None:
    club = load("nightclub")
    assert render_map(club) == NIGHTCLUB_GRID
    assert render_grid(club) == NIGHTCLUB_GRID
    assert max(len(line) for line in NIGHTCLUB_GRID.splitlines()) <= 40


def test_nightclub_grid_with_occupants() -> None:
    club = load("nightclub")
    guards = [f"Guard {i}" for i in range(1, 5)]
    bar = ["Gil", *guards, "Al"]
    text = render_map(club, {"dance floor": ["Ann", "Bob"], "BAR": bar})
    lines = text.splitlines()
    assert lines[10] == "│DJ Booth│   │ Dance  │   │  Bar   │"
    assert lines[11] == "│        │├──│ Floor  │──┤│        │"  # lines sit mid-box
    assert lines[12:14] == [
        "│        │   │  A B   │   │G U U U │",  # a letter each, copies share theirs
        "│        │   │        │   │  U L   │",  # a taken initial: another letter
    ]
    assert lines[-3:] == [  # who is who, a name never parted from its letter
        "Who is where:",
        "Dance Floor: A Ann, B Bob",
        "Bar: G Gil, U Guard 1-4, L Al",
    ]
    assert len(text) <= LIMIT


def test_nightclub_list_view() -> None:
    club = load("nightclub")
    text = render_list(club, {"Kitchen": ["Guard 1"]})
    lines = text.splitlines()
    assert tuple(lines[:4]) == LIST_LEGEND
    block = lines[lines.index("Bar") : lines.index("Pool Tables")]
    assert block == ["Bar", "  .. Catwalk", "  |-- Dance Floor", "  --| Kitchen"]
    assert "Kitchen [Guard 1]" in lines
    assert lines[lines.index("Alley") + 1 :] == ["  --| Kitchen", "  * PCs may start here"]
    narrow = render_map(club, width=30)  # names too long for their box become numbers
    assert "│  1   │" in narrow and max(len(line) for line in narrow.splitlines()[:25]) <= 30
    assert narrow.splitlines()[25:28] == ["1 Catwalk", "2 Entrance", "3 Kitchen"]
    assert render_map(club, width=24) == render_list(club, width=24)  # too narrow for boxes


def test_every_connection_kind_in_both_views() -> None:
    for name in ("warehouse", "manor"):
        m = load(name)
        grid = render_map(m)
        assert grid.splitlines()[0].startswith("┌") and len(grid) <= LIMIT
        for glyph in ("┄", "▼", "■", "□", "╳", "├", "┤", "┬", "┴"):
            assert glyph in grid, (name, glyph)
        listed = render_list(m)
        for token in ("--", "..", "->", "<-", "-[]-", "-[ ]-", ".x.", "|--|", "|..|"):
            assert token in listed, (name, token)


def test_manor_grid() -> None:
    lines = render_map(load("manor")).splitlines()
    assert lines[:9] == [
        "┌───────┐   ┌───────┐   ┌───────┐",
        "│Balcony│───│Gallery│─■─│ Tower │",
        "└───────┘   └───────┘   └───────┘",
        "    ┬           ┬           ┬",
        "    │           ┆           ┆",
        "    ┴           ┆           ┴",
        "┌───────┐   ┌───────┐   ┌───────┐",
        "│ Study │─□─│ Hall  │─■┤│Library│",
        "└───────┘   └───────┘   └───────┘",
    ]
    assert "Balcony ─▶─ Garden" in lines and "Study ┄╳┄ Library" in lines


def test_arrows_point_the_way_they_go() -> None:
    m = parse_map("A @ 0,0\nB @ 1,0\nC @ 1,1\nB -> A\nC -> B")
    assert render_grid(m, width=40) == "\n".join(
        [
            "┌─┐   ┌─┐",
            "│A│─◀─│B│",
            "└─┘   └─┘",
            "       │",
            "       ▲",
            "       │",
            "      ┌─┐",
            "      │C│",
            "      └─┘",
            *GRID_LEGEND,
        ]
    )


def test_straight_lines_pass_empty_cells_only() -> None:
    m = parse_map("A @ 0,0\nB @ 2,0\nC @ 0,2\nD @ 1,0\nA -- B\nA .. C")
    text = render_grid(m)
    assert text is not None
    assert "Other lines:\nA ─── B" in text  # D stands between A and B
    assert "┆" in text.split("─ move")[0]  # A to C crosses the empty cell 0,1
    crossing = parse_map("A @ 1,0\nB @ 1,2\nC @ 0,1\nD @ 2,1\nA -- B\nC -- D")
    text = render_grid(crossing)
    assert text is not None and "Other lines:\nC ─── D" in text


def test_no_grid_without_every_position() -> None:
    m = parse_map("A @ 0,0\nA -- B")
    assert render_grid(m) is None
    assert render_map(m) == render_list(m)


def test_unknown_occupant_area() -> None:
    with pytest.raises(UnknownAreaError):
        render_map(load("nightclub"), {"Roof": ["Ann"]})


def test_empty_occupants_draw_empty_rows() -> None:
    text = render_map(load("nightclub"), {})
    assert "Who is where:" not in text and text != NIGHTCLUB_GRID
    assert len(text.splitlines()) == len(NIGHTCLUB_GRID.splitlines()) + 4  # one row per box line


def test_huge_map_is_cut_with_a_count() -> None:
    text = "\n".join(f"Room {i} --| Room {i + 1}" for i in range(200))
    m = parse_map(text)
    out = render_map(m, {"Room 3": ["Ann"]})
    assert len(out) <= LIMIT
    last = out.splitlines()[-1]
    assert last.startswith("… ") and last.endswith(" more areas")
    shown = sum(1 for line in out.splitlines() if line.startswith("Room "))
    assert int(last.split()[1]) == len(m.areas) - shown
    assert "Room 3 [Ann]" in out


def test_big_grid_falls_back_to_the_list() -> None:
    text = "\n".join(f"R{i} @ {i % 10},{i // 10}" for i in range(40))
    m = parse_map(text)
    assert render_grid(m) is None  # 10 columns do not fit 40 characters
    assert render_grid(m, width=100) is not None
    assert render_map(m) == render_list(m)


def test_long_names_are_numbered_and_listed_whole() -> None:
    m = parse_map("The Great Hall Of Kings @ 0,0\nAntechamberofdoom @ 1,0\nB @ 2,0\n"
                  "Garden of the Moon @ 0,1")
    text = render_grid(m)
    assert text is not None
    assert text.splitlines()[:11] == [
        "┌─────────┐   ┌─────────┐   ┌─────────┐",
        "│    1    │   │    2    │   │    B    │",
        "│         │   │         │   │         │",
        "└─────────┘   └─────────┘   └─────────┘",
        "",
        "",
        "",
        "┌─────────┐",
        "│Garden of│",  # two lines hold it whole: no number
        "│the Moon │",
        "└─────────┘",
    ]
    assert text.splitlines()[11:13] == ["1 The Great Hall Of Kings", "2 Antechamberofdoom"]


def test_cjk_and_emoji_names_keep_the_grid_aligned() -> None:
    m = parse_map("庭園 @ 0,0\n大広間の北の塔 @ 1,0\nGate @ 2,0\n🐉 Lair @ 0,1\n"
                  "庭園 -- 大広間の北の塔\n庭園 -- 🐉 Lair")
    text = render_map(m, {"庭園": ["山田太郎", "Ana"], "🐉 lair": ["Zoë"]})
    lines = text.splitlines()
    assert lines[:12] == [  # each wide character takes two columns of the box
        "┌───────┐   ┌───────┐   ┌───────┐",
        "│ 庭園  │───│   1   │   │ Gate  │",
        "│  B A  │   │       │   │       │",
        "└───────┘   └───────┘   └───────┘",
        "    │",
        "    │",
        "    │",
        "┌───────┐",
        "│🐉 Lair│",
        "│   Z   │",
        "└───────┘",
        "1 大広間の北の塔",  # 14 columns: too wide for its box
    ]
    assert lines[-3:] == ["Who is where:", "庭園: B 山田太郎, A Ana", "🐉 Lair: Z Zoë"]
    assert all(width(line) <= 40 for line in lines)


def test_a_crowded_box_shows_a_letter_each_or_a_count_of_the_rest() -> None:
    m = parse_map("Hall @ 0,0\nYard @ 1,0\nRoof @ 2,0\nHall -- Yard")
    crowd = [f"{letter}{letter.lower()}x" for letter in "ABCDEFGHIJKLMNOPQRSTUVWX"]
    text = render_map(m, {"Hall": crowd[:20], "Yard": crowd[20:]})
    lines = text.splitlines()
    assert lines[:5] == [  # boxes widen to the room there is for the letters
        "┌─────────┐   ┌─────────┐   ┌─────────┐",
        "│  Hall   │   │  Yard   │   │  Roof   │",
        "│ABCDEFGHI│───│ U V W X │   │         │",
        "│JKLMNOP+4│   │         │   │         │",  # the legend names all twenty
        "└─────────┘   └─────────┘   └─────────┘",
    ]
    legend = " ".join(lines[lines.index("Who is where:") + 1 :])
    assert all(f"{name}," in legend for name in crowd[:19])
    assert "S Ssx, T Ttx Yard: U Uux" in legend


def test_copies_in_a_box_show_their_letter_once_with_their_count() -> None:
    m = parse_map("Hall @ 0,0\nYard @ 1,0\nRoof @ 2,0\nHall -- Yard")
    goons = [f"Goon {n}" for n in range(1, 34)]
    text = render_map(m, {"Hall": [*goons[:30], "Ana", "Thug 1", "Thug 2"],
                          "Yard": goons[30:]})
    lines = text.splitlines()
    assert lines[1:4] == ["│  Hall   │   │  Yard   │   │  Roof   │",
                          "│ G×30 A  │───│  G G G  │   │         │",
                          "│   T×2   │   │         │   │         │"]
    assert lines[lines.index("Who is where:") + 1:] == [
        "Hall: G Goon 1-30, A Ana, T Thug 1-2",  # one letter for the copies, one line
        "Yard: G Goon 31-33",
    ]


def test_markers_follow_the_order_given_not_the_areas() -> None:
    m = parse_map("Hall @ 0,0\nYard @ 1,0")
    letters = marker_letters(["Gus", "Gil"])
    before = render_map(m, {"Hall": ["Gus"], "Yard": ["Gil"]}, markers=letters)
    after = render_map(m, {"Hall": ["Gil"], "Yard": ["Gus"]}, markers=letters)
    assert before.splitlines()[-2:] == ["Hall: G Gus", "Yard: I Gil"]
    assert after.splitlines()[-2:] == ["Hall: I Gil", "Yard: G Gus"]


names = st.text(alphabet="abcdefghij XYZ山田🐉é", min_size=1, max_size=30).filter(str.strip)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(names, min_size=1, max_size=12, unique_by=lambda s: " ".join(s.split()).casefold()),
    st.data(),
)
def test_any_positioned_map_fits(area_names: list[str], data: st.DataObject) -> None:
    text = "\n".join(f"{n} @ {i % 3},{i // 3}" for i, n in enumerate(area_names))
    text += "\n" + "\n".join(f"{a} -- {b}" for a, b in pairwise(area_names))
    # Some lines between boxes that are not neighbours (listed under the grid).
    far = [(a, b) for i, a in enumerate(area_names) for b in area_names[i + 2 :]]
    extra = data.draw(st.lists(st.sampled_from(far), unique=True, max_size=6)) if far else []
    symbols = st.sampled_from(["|-[ ]-|", "|..|", "->|", ".x."])
    text += "\n" + "\n".join(f"{a} {data.draw(symbols)} {b}" for a, b in extra)
    text += f"\n{area_names[-1]}: {data.draw(st.text(alphabet='abc d', max_size=120))}x"
    m = parse_map(text)
    crowd = ["Somebody With A Long Name", "山田太郎", *(f"Guard {n}" for n in range(4))]
    out = render_map(m, {area_names[0]: crowd})
    assert len(out) <= LIMIT
    assert all(width(line) <= 40 for line in out.splitlines()), out
    assert "…" not in out  # nothing cut: a name too long for its box is listed whole
    joined = " ".join(out.split())
    listed = ["Somebody With A Long Name", "山田太郎", "Guard 0", "Guard 1-3"]  # copies share
    assert all(f"{n}" in joined for n in listed)


def test_lines_listed_under_the_grid_wrap_to_40_columns() -> None:
    m = parse_map(
        "The Long Hall of the Kings @ 0,0\nThe Northern Watchtower Top @ 1,1\n"
        "The Long Hall of the Kings |-[ ]-| The Northern Watchtower Top"
    )
    text = render_grid(m)
    assert text is not None
    assert text.split("Other lines:\n")[1].splitlines() == [
        "The Long Hall of the Kings ├□┤ The",
        "  Northern Watchtower Top",
    ]
    assert max(len(line) for line in text.splitlines()) <= 40
