"""engine.maps: the nightclub as the book describes it, the parser, and property tests that
compare every query with a brute-force search over all paths (RULINGS 7-13)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.maps import GameMap, Kind, MapError, UnknownAreaError, parse_map

MAPS = Path(__file__).resolve().parents[2] / "data" / "maps"


def load(name: str) -> GameMap:
    return parse_map((MAPS / f"{name}.map").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def club() -> GameMap:
    return load("nightclub")


# -- the nightclub: every statement of 004 "Maps" to "Intercept" ------------------------------


def test_nightclub_is_the_picture(club: GameMap) -> None:
    assert club.areas == (
        "Catwalk",
        "DJ Booth",
        "Dance Floor",
        "Bar",
        "Pool Tables",
        "Entrance",
        "Kitchen",
        "Alley",
    )
    lines = {(c.a, c.token, c.b) for c in club.connections}
    assert lines == {
        ("Catwalk", "--|", "DJ Booth"),
        ("DJ Booth", "|--", "Dance Floor"),
        ("Catwalk", "..", "Dance Floor"),
        ("Catwalk", "..", "Bar"),
        ("Dance Floor", "--|", "Bar"),
        ("Bar", "--|", "Kitchen"),
        ("Kitchen", "|--", "Alley"),
        ("Dance Floor", "--|", "Pool Tables"),
        ("Pool Tables", "|--", "Entrance"),
        ("Dance Floor", "--", "Entrance"),
    }


def test_gm_might_start_pcs_in_entrance_or_alley(club: GameMap) -> None:
    # "In the example map, the GM might tell PCs they can start in the entrance or alley."
    assert club.notes("Entrance") == ("PCs may start here",)
    assert club.notes("Alley") == ("PCs may start here",)


def test_bar_has_cover_against_the_dance_floor_not_the_catwalk(club: GameMap) -> None:
    # "A character in the bar would have cover against a shot from the dance floor. That same
    # character in the bar would not have cover against an attack from the catwalk."
    assert club.has_cover("Dance Floor", "Bar")
    assert not club.has_cover("Catwalk", "Bar")


def test_attackers_area_does_not_count_for_cover(club: GameMap) -> None:
    # "Don't consider the attacker's area when determining cover." / "A character on the dance
    # floor would not have cover against a shot from the bar."
    assert not club.has_cover("Bar", "Dance Floor")


def test_bar_has_cover_against_the_dj_booth(club: GameMap) -> None:
    # "if at least one of the shortest paths has cover, the target benefits from cover. A
    # character in the bar would have cover against a shot from the DJ booth."
    # Two shortest paths: over the dance floor (mark at the bar) and over the catwalk (none).
    assert club.range("DJ Booth", "Bar") == 2
    assert club.range("DJ Booth", "Catwalk") == 1 and club.range("Catwalk", "Bar") == 1
    assert club.has_cover("DJ Booth", "Bar")


def test_cover_only_against_other_areas(club: GameMap) -> None:
    # "Cover applies only to attacks made by characters from other areas. This means it does
    # not apply to melee attacks, nor to ranged attacks within the same area."
    for area in club.areas:
        assert not club.has_cover(area, area)
        assert club.range(area, area) == 0


def test_ranges(club: GameMap) -> None:
    # "The range from the entrance to the dance floor is one. The range from the entrance to
    # the catwalk is two."
    assert club.range("Entrance", "Dance Floor") == 1
    assert club.range("Entrance", "Catwalk") == 2
    # "Characters in your area are at range zero."
    assert club.range("Entrance", "Entrance") == 0


def test_alley_sees_the_kitchen_but_not_the_bar(club: GameMap) -> None:
    # "A character in the alley has line of sight to the kitchen, but not the bar."
    assert club.line_of_sight("Alley", "Kitchen")
    assert not club.line_of_sight("Alley", "Bar")


def test_pool_tables_see_the_bar_but_not_the_kitchen(club: GameMap) -> None:
    # "A character in the pool tables has line of sight to the bar, but not the kitchen."
    assert club.line_of_sight("Pool Tables", "Bar")
    assert not club.line_of_sight("Pool Tables", "Kitchen")
    # RULINGS 9: the next-shortest path, over the catwalk, crosses only one mark (the
    # kitchen's), but only shortest paths count: the one over the dance floor crosses two.
    assert club.range("Pool Tables", "Kitchen") == 3
    over_catwalk = ["Pool Tables", "Dance Floor", "Catwalk", "Bar", "Kitchen"]
    assert all(club.range(a, b) == 1 for a, b in pairwise(over_catwalk))
    # A 2H ranged attacker with the ability needs three marks to be blocked.
    assert club.line_of_sight("Pool Tables", "Kitchen", marks_to_block=3)


def test_pool_tables_and_kitchen_count_two_marks_from_either_end(club: GameMap) -> None:
    # RULINGS 9: "pool tables to kitchen has none". Over the dance floor and the bar, each end
    # leaves out its own mark and still crosses two: the bar's, and the other end's.
    assert not club.line_of_sight("Kitchen", "Pool Tables")
    assert club.line_of_sight("Kitchen", "Pool Tables", marks_to_block=3)
    # Demolish at the bar (its one mark, toward the dance floor) leaves one mark each way.
    bar_flat = club.demolished("Bar")
    assert bar_flat.line_of_sight("Pool Tables", "Kitchen")
    assert bar_flat.line_of_sight("Kitchen", "Pool Tables")


def test_always_sight_within_an_area(club: GameMap) -> None:
    # "A character in the DJ booth has line of sight to another character in the DJ booth."
    # "You always have line of sight to a target in your area, even if there's cover in all
    # directions." The kitchen has a mark on every connection.
    assert club.line_of_sight("DJ Booth", "DJ Booth")
    assert all(c.cover_at("Kitchen") for c in club.connections_of("Kitchen"))
    assert club.line_of_sight("Kitchen", "Kitchen")
    assert club.line_of_sight("Kitchen", "Kitchen", hidden=True)


def test_catwalk_and_dance_floor_see_but_cannot_move(club: GameMap) -> None:
    # "A character on the catwalk can see someone on the dance floor and vice versa, but can
    # not move directly between them. They would have to move to the DJ booth first."
    assert club.line_of_sight("Catwalk", "Dance Floor")
    assert club.line_of_sight("Dance Floor", "Catwalk")
    assert not club.can_move("Catwalk", "Dance Floor")
    assert not club.can_move("Dance Floor", "Catwalk")
    assert club.can_move("Catwalk", "DJ Booth") and club.can_move("DJ Booth", "Dance Floor")
    assert "Dance Floor" not in club.moves_from("Catwalk")
    assert club.moves_from("Catwalk") == ("DJ Booth",)


def test_move_along_solid_lines(club: GameMap) -> None:
    # "Solid lines connecting areas indicate you can both see and move between them."
    for c in club.connections:
        assert club.can_move(c.a, c.b) == club.can_move(c.b, c.a) == (c.kind is Kind.LINE)
        assert club.line_of_sight(c.a, c.b) and club.line_of_sight(c.b, c.a)
    assert club.moves_from("Dance Floor") == ("DJ Booth", "Bar", "Pool Tables", "Entrance")


def test_intercept_example(club: GameMap) -> None:
    # "The range from the entrance to a character moving between the catwalk and dance floor
    # is one." (Intercept: the smaller of the two ranges; sight to either area will do.)
    assert club.intercept_range("Entrance", "Catwalk", "Dance Floor") == 1
    assert club.intercept_range("Entrance", "Dance Floor", "Catwalk") == 1
    assert club.intercept_sight("Entrance", "Catwalk", "Dance Floor")
    # Moving between the dance floor and the bar, seen from the kitchen: range 1 (the bar).
    assert club.intercept_range("Kitchen", "Dance Floor", "Bar") == 1
    # The alley sees neither the bar nor the dance floor.
    assert not club.intercept_sight("Alley", "Dance Floor", "Bar")
    # ... but sees someone leaving the kitchen for the bar (sight to the kitchen is enough).
    assert club.intercept_sight("Alley", "Kitchen", "Bar")


def test_intercept_uses_the_smaller_range(club: GameMap) -> None:
    # "A character moving between an area at range one and zero is effectively at range
    # zero, between two and one is at range one, and so on."
    assert club.range("Entrance", "Dance Floor") == 1
    assert club.intercept_range("Entrance", "Entrance", "Dance Floor") == 0
    assert club.intercept_range("Entrance", "Dance Floor", "Entrance") == 0
    assert club.range("Entrance", "Bar") == 2
    assert club.intercept_range("Entrance", "Bar", "Dance Floor") == 1
    assert club.range("Entrance", "Kitchen") == 3
    assert club.intercept_range("Entrance", "Kitchen", "Bar") == 2


def test_kitchen_and_dance_floor_do_not_see_each_other(club: GameMap) -> None:
    # RULINGS 9, "There are no situations where line of sight is one-way": counted from the
    # kitchen only the bar's mark is crossed, but counted from the dance floor the bar's and
    # the kitchen's make 2, so neither sees the other. The same holds for the entrance.
    assert club.range("Kitchen", "Dance Floor") == 2
    assert not club.line_of_sight("Kitchen", "Dance Floor")
    assert not club.line_of_sight("Dance Floor", "Kitchen")
    assert not club.line_of_sight("Kitchen", "Entrance")
    assert not club.line_of_sight("Entrance", "Kitchen")
    # Three marks to block: both counts (1 and 2) fall short, so both see.
    assert club.line_of_sight("Kitchen", "Dance Floor", marks_to_block=3)
    assert club.line_of_sight("Dance Floor", "Kitchen", marks_to_block=3)


def test_stealth(club: GameMap) -> None:
    # RULINGS 12: one more mark at the hidden target's area against every other area.
    assert not club.has_cover("Bar", "Dance Floor")
    assert club.has_cover("Bar", "Dance Floor", hidden=True)
    assert not club.has_cover("Bar", "Bar", hidden=True)
    assert club.line_of_sight("Alley", "Kitchen")
    assert not club.line_of_sight("Alley", "Kitchen", hidden=True)
    assert club.line_of_sight("Alley", "Kitchen", hidden=True, marks_to_block=3)
    # The Stealth mark stands at the hidden one's area, so only the viewer's count meets it:
    # hidden in the alley, seen from the kitchen, it makes one mark from the kitchen's end (the
    # kitchen's own left out), as the kitchen's mark makes one from the alley's end.
    assert club.line_of_sight("Kitchen", "Alley", hidden=True)
    assert not club.line_of_sight("Kitchen", "Alley", hidden=True, marks_to_block=1)


def test_aoe_cover_and_demolish(club: GameMap) -> None:
    # RULINGS 13: AoE Cover puts a mark at the area's end of each of its connections.
    covered = club.with_area_cover("dance floor")
    assert covered.has_cover("Bar", "Dance Floor")
    assert covered.has_cover("Catwalk", "Dance Floor")
    assert not covered.line_of_sight("Bar", "Entrance")  # two marks at the dance floor's ends
    assert club.line_of_sight("Bar", "Entrance")
    assert club.has_cover("Dance Floor", "Bar") and covered.has_cover("Dance Floor", "Bar")
    assert not club.has_cover("Bar", "Dance Floor")  # the stored map is untouched
    # Demolish removes every mark at the area's ends, terrain and AoE alike.
    flat = covered.demolished("Dance Floor")
    assert not flat.has_cover("Bar", "Dance Floor")
    assert flat == club
    open_kitchen = club.demolished("Kitchen")
    assert open_kitchen.line_of_sight("Alley", "Bar")
    assert not open_kitchen.has_cover("Bar", "Kitchen")
    assert open_kitchen.has_cover("Dance Floor", "Bar")  # the bar's own mark stays


def test_aoe_cover_counts_for_line_of_sight() -> None:
    m = parse_map("A -- B\nB -- C")
    assert m.line_of_sight("A", "C")
    assert m.with_area_cover("B").line_of_sight("A", "C") is False
    assert m.with_area_cover("C").line_of_sight("A", "C")  # one mark only
    # An end's own marks count only from the other end: one mark each way here.
    assert m.with_area_cover("A").line_of_sight("A", "C")
    assert m.with_area_cover("A").line_of_sight("C", "A")
    assert m.with_area_cover("A").with_area_cover("C").line_of_sight("A", "C")
    assert not m.with_area_cover("A").line_of_sight("C", "A", marks_to_block=1)


# -- doors, arrows, .x. ----------------------------------------------------------------------

DOORS = """
Hall -[]- Vault
Hall -[ ]- Study
Roof -> Hall
Study .x. Roof
Vault |..| Yard
"""


def test_doors() -> None:
    m = parse_map(DOORS)
    assert m.doors_of("hall") == (("Vault", False), ("Study", True))
    assert m.range("Hall", "Vault") is None and m.range("Yard", "Hall") is None
    assert not m.can_move("Hall", "Vault") and not m.line_of_sight("Hall", "Vault")
    assert m.can_move("Study", "Hall") and m.can_move("Hall", "Study")
    opened = m.with_door("VAULT", "hall", open=True)
    assert opened.doors_of("Vault") == (("Hall", True),)
    assert opened.range("Yard", "Study") == 3 and opened.can_move("Vault", "Hall")
    assert opened.with_door("Hall", "Vault", open=False) == m
    shut = m.with_door("Hall", "Study", False)
    assert shut.range("Hall", "Study") is None and shut.range("Roof", "Study") is None
    with pytest.raises(MapError, match="no door between Hall and Roof"):
        m.with_door("Hall", "Roof", True)


def test_arrows_move_one_way_but_see_both_ways() -> None:
    m = parse_map(DOORS)
    assert m.can_move("Roof", "Hall") and not m.can_move("Hall", "Roof")
    assert m.range("Hall", "Roof") == m.range("Roof", "Hall") == 1
    assert m.line_of_sight("Hall", "Roof") and m.line_of_sight("Roof", "Hall")
    assert m.moves_from("Hall") == ("Study",)
    back = parse_map("Hall <- Roof")
    assert back.can_move("Roof", "Hall") and not back.can_move("Hall", "Roof")
    assert back.connections == parse_map("Roof -> Hall").connections


def test_x_blocks_sight_whatever_the_paths() -> None:
    m = parse_map(DOORS)
    assert m.range("Study", "Roof") == 2  # .x. is no connection
    assert not m.line_of_sight("Study", "Roof") and not m.line_of_sight("Roof", "Study")
    assert m.line_of_sight("Study", "Hall")
    assert m.with_area_cover("Study").connection("Study", "Roof") == m.connection("Study", "Roof")


def test_sight_lines_chain() -> None:
    m = parse_map("A .. B\nB .. C")
    assert m.range("A", "C") == 2 and m.line_of_sight("A", "C")
    assert m.moves_from("B") == ()


def test_unknown_areas() -> None:
    m = parse_map(DOORS)
    for call in (
        lambda: m.area("Attic"),
        lambda: m.range("Attic", "Hall"),
        lambda: m.line_of_sight("Hall", "Attic"),
        lambda: m.notes("Attic"),
    ):
        with pytest.raises(UnknownAreaError) as info:
            call()
        assert isinstance(info.value, KeyError) and isinstance(info.value, MapError)
        assert isinstance(info.value, RuleError)
        assert info.value.line == 0 and str(info.value) == "no area called 'Attic' on this map"
    assert "hall" in m and "attic" not in m


# -- parsing ---------------------------------------------------------------------------------


def test_names_are_case_insensitive() -> None:
    with pytest.raises(MapError, match="line 2: dance floor and BAR are already connected"):
        parse_map("dance  floor -- BAR\nDance Floor .. bar\n")
    m = parse_map("dance  floor -- BAR\n  BAR   : the taps \nDANCE FLOOR -> Roof")
    assert m.areas == ("dance floor", "BAR", "Roof")
    assert m.area(" Dance FLOOR ") == "dance floor"
    assert m.notes("bar") == ("the taps",)
    assert m.connections[1].a == "dance floor"


def test_positions_notes_and_lone_areas() -> None:
    m = parse_map(
        "# a comment\n\nVault\nVault @ 0 , 1\nVault: the loot # not this\nHall: lever\n"
        "Vault: alarm: loud\nvault\n"
    )
    assert m.areas == ("Vault", "Hall")
    assert m.position("Vault") == (0, 1) and m.position("Hall") is None
    assert m.notes("Vault") == ("the loot", "alarm: loud")
    assert m.connections == () and m.range("Vault", "Hall") is None
    assert m.moves_from("Vault") == () and m.doors_of("Vault") == ()


def test_notes_may_hold_connectors_and_colons() -> None:
    m = parse_map("Office: alarm -- loud .. very: yes @ 3,4\nOffice -- Yard")
    assert m.notes("Office") == ("alarm -- loud .. very: yes @ 3,4",)
    assert parse_map(m.to_text()) == m
    with pytest.raises(MapError, match="line 1: cannot read 'Yard: x'"):
        parse_map("Office -- Yard: x")


def test_cover_marks_everywhere_but_x() -> None:
    m = parse_map("A |->| B\nB -[]-| C\nC |-[ ]- D\nD |..| E\nE <-| F")
    assert [(c.cover_a, c.cover_b) for c in m.connections] == [
        (True, True),
        (False, True),
        (True, False),
        (True, True),
        (True, False),
    ]
    assert m.connections[-1].a == "F" and m.connections[-1].b == "E"
    assert m.has_cover("F", "E") is False and m.has_cover("E", "F") is True


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("A -- B\nB -- A", 2, "B and A are already connected (line 1)"),
        ("A -- B\n\nB .x. a", 3, "already connected (line 1)"),
        ("A .x. B\nA -- B", 2, "already connected (line 1)"),
        ("A -> B\nB -> A", 2, "already connected"),
        ("A -- B\nX -- x ", 2, "cannot connect to itself ('X')"),
        ("A -- B\nA --- B", 2, "unknown connector '---'"),
        ("Bar--Kitchen", 1, "cannot read 'Bar--Kitchen': a connector like '--' needs a space"),
        ("A -- B\nBar..Kitchen", 2, "'..' needs a space on each side"),
        ("Bar -- Kitchen.x.Alley", 1, "'.x.' needs a space on each side"),
        ("Bar-- Kitchen", 1, "cannot read 'Bar--'"),
        ("A - B", 1, "unknown connector '-'"),
        ("A --> B", 1, "unknown connector '-->'"),
        ("A => B", 1, "unknown connector '=>'"),
        ("A -[x]- B", 1, "unknown connector '-[x]-'"),
        ("A|--B", 1, "cannot read 'A|--B'"),
        ("A -- B -- C", 1, "more than one connector"),
        ("-- B", 1, "expected an area name before '--'"),
        ("# x\nA --|", 2, "expected an area name after '--|'"),
        ("A |.x. B", 1, ".x. line is no connection and cannot carry cover marks"),
        ("A .x.| B", 1, "cannot carry cover marks"),
        ("A:", 1, "expected a note after ':'"),
        (": note", 1, "expected an area name before ':'"),
        ("A @ 1", 1, "a grid position is 'Area @ col,row'"),
        ("A @ x,1", 1, "a grid position is 'Area @ col,row'"),
        ("A @ 1,2 : note", 1, "cannot read 'A @ 1,2'"),
        ("A @ 100,0", 1, "0 to 99"),
        ("A @ 1,1\nB -- A\nA @ 1,2", 3, "A already has a position (line 1)"),
        ("A @ 1,1\nB @ 1,1", 2, "A is already at 1,1"),
        ("A [1]", 1, "area names cannot contain [ ]"),
        ("Bar <1>", 1, "cannot contain < >"),
        ("x" * 41, 1, "at most 40 characters"),
        ("A: " + "n" * 201, 1, "at most 200 characters"),
    ],
)
def test_parse_errors(text: str, line: int, message: str) -> None:
    with pytest.raises(MapError) as info:
        parse_map(text)
    assert info.value.line == line
    assert message in info.value.message
    assert str(info.value) == f"line {line}: {info.value.message}"


@pytest.mark.parametrize("text", ["", "\n  \n# only a comment\n"])
def test_empty_map_is_an_error(text: str) -> None:
    with pytest.raises(MapError, match="no areas") as info:
        parse_map(text)
    assert info.value.line == 0 and str(info.value) == "the map has no areas"


def test_names_may_hold_dots_dashes_and_x() -> None:
    m = parse_map("St. Mary's -- Back-Room\nRoom X .. St. MARY'S\nWait... -> Room X")
    assert m.areas == ("St. Mary's", "Back-Room", "Room X", "Wait...")
    assert m.range("Room X", "Back-Room") == 2


def test_parse_accepts_lines() -> None:
    assert parse_map(["A -- B", "B: x"]) == parse_map("A -- B\nB: x")


# -- the shipped maps --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.stem for p in MAPS.glob("*.map")))
def test_shipped_maps_round_trip_and_have_positions(name: str) -> None:
    m = load(name)
    text = m.to_text()
    assert parse_map(text) == m
    assert parse_map(text).to_text() == text
    assert all(pos is not None for pos in m.positions)


@pytest.mark.parametrize("name", ["warehouse", "manor"])
def test_original_maps_use_every_kind_of_line(name: str) -> None:
    m = load(name)
    kinds = {(c.kind, c.is_open if c.kind is Kind.DOOR else None) for c in m.connections}
    assert kinds == {
        (Kind.LINE, None),
        (Kind.SIGHT, None),
        (Kind.ARROW, None),
        (Kind.DOOR, True),
        (Kind.DOOR, False),
        (Kind.NO_SIGHT, None),
    }
    assert any(c.cover_a and c.cover_b for c in m.connections)
    assert any(c.cover_a != c.cover_b for c in m.connections)
    assert any(m.notes(a) for a in m.areas)


def test_map_equality_and_hash(club: GameMap) -> None:
    again = load("nightclub")
    assert again == club and hash(again) == hash(club)
    assert club != club.with_area_cover("Bar")


# -- property tests against brute force ------------------------------------------------------

NAMES = ["Bar", "Dance Floor", "Roof", "Alley", "Vault", "Hall", "Crypt"]
SYMBOLS = ["--", "..", "->", "<-", "-[]-", "-[ ]-", ".x."]


@dataclass(frozen=True)
class Line:
    """A connection as the test generated it, read independently of engine.maps."""

    a: str  # display names; arrows from a to b
    b: str
    symbol: str  # '--' '..' '->' '-[]-' '-[ ]-' '.x.'
    mark_a: bool
    mark_b: bool

    def sight(self) -> bool:
        return self.symbol in ("--", "..", "->", "-[ ]-")

    def move(self, frm: str, to: str) -> bool:
        if self.symbol in ("--", "-[ ]-"):
            return True
        return self.symbol == "->" and (frm, to) == (self.a, self.b)

    def mark_at(self, area: str) -> bool:
        return self.mark_a if area == self.a else self.mark_b


@dataclass(frozen=True)
class Model:
    areas: tuple[str, ...]
    lines: tuple[Line, ...]
    text: str

    def paths(self, a: str, b: str) -> list[list[tuple[str, str, Line]]]:
        """Every simple path from a to b along sight lines, as (from, to, line) steps."""
        found: list[list[tuple[str, str, Line]]] = []

        def walk(at: str, seen: set[str], path: list[tuple[str, str, Line]]) -> None:
            if at == b:
                found.append(list(path))
                return
            for ln in self.lines:
                if not ln.sight() or at not in (ln.a, ln.b):
                    continue
                nxt = ln.b if at == ln.a else ln.a
                if nxt not in seen:
                    walk(nxt, seen | {nxt}, [*path, (at, nxt, ln)])

        walk(a, {a}, [])
        return found

    def shortest(self, a: str, b: str) -> list[list[tuple[str, str, Line]]]:
        paths = self.paths(a, b)
        if not paths:
            return []
        best = min(len(p) for p in paths)
        return [p for p in paths if len(p) == best]

    def range(self, a: str, b: str) -> int | None:
        paths = self.shortest(a, b)
        return len(paths[0]) if paths else None

    def sight(self, a: str, b: str, k: int, hidden: bool) -> bool:
        """RULINGS 9 as written: every shortest path, counted from each end, each time without
        that end's own marks; a hidden b's Stealth mark counts from a's end only."""
        if a == b:
            return True
        if any(ln.symbol == ".x." and {ln.a, ln.b} == {a, b} for ln in self.lines):
            return False
        paths = self.shortest(a, b)
        if not paths:
            return False
        for path in paths:
            marks = [mark for u, v, ln in path for mark in ((u, ln.mark_at(u)), (v, ln.mark_at(v)))]
            from_a = hidden + sum(there for area, there in marks if area != a)
            from_b = sum(there for area, there in marks if area != b)
            if from_a >= k or from_b >= k:
                return False
        return True

    def cover(self, a: str, b: str, hidden: bool) -> bool:
        if a == b:
            return False
        return hidden or any(p[-1][2].mark_at(b) for p in self.shortest(a, b))

    def can_move(self, a: str, b: str) -> bool:
        return a != b and any({ln.a, ln.b} == {a, b} and ln.move(a, b) for ln in self.lines)


def vary(draw: st.DrawFn, name: str) -> str:
    """The same name as a GM might type it again: other case, other spacing."""
    style = draw(st.sampled_from(["same", "upper", "lower", "spaced"]))
    if style == "upper":
        return name.upper()
    if style == "lower":
        return name.lower()
    if style == "spaced":
        return "  " + "   ".join(name.split()) + " "
    return name


@st.composite
def models(draw: st.DrawFn, max_areas: int = 6) -> Model:
    areas = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=max_areas, unique=True))
    pairs = draw(st.lists(st.sampled_from(list(combinations(range(len(areas)), 2)) or [(0, 0)])))
    # (text, line, ((name, as written), ...)); the names a line holds, in order
    statements: list[tuple[str, Line | None, tuple[tuple[str, str], ...]]] = []
    seen: set[frozenset[int]] = set()
    for i, j in pairs:
        if i == j or frozenset((i, j)) in seen:
            continue
        seen.add(frozenset((i, j)))
        if draw(st.booleans()):
            i, j = j, i
        symbol = draw(st.sampled_from(SYMBOLS))
        marks = (draw(st.booleans()), draw(st.booleans()))
        left, right = (False, False) if symbol == ".x." else marks
        wi, wj = vary(draw, areas[i]), vary(draw, areas[j])
        text = f"{wi} {'|' * left}{symbol}{'|' * right} {wj}"
        a, b, ma, mb = areas[i], areas[j], left, right
        if symbol == "<-":
            a, b, ma, mb, symbol = b, a, mb, ma, "->"
        statements.append((text, Line(a, b, symbol, ma, mb), ((areas[i], wi), (areas[j], wj))))
    for k, name in enumerate(areas):
        kind = draw(st.sampled_from(["none", "bare", "note", "position"]))
        written = vary(draw, name)
        if kind == "bare":
            statements.append((written, None, ((name, written),)))
        elif kind == "note":
            note = draw(st.sampled_from(["a lever", "loot: gold", "exit"]))
            statements.append((f"{written}: {note}", None, ((name, written),)))
        elif kind == "position":
            statements.append((f"{written} @ {k % 3},{k // 3}", None, ((name, written),)))
        elif not any(name == n for _, _, named in statements for n, _ in named):
            statements.append((written, None, ((name, written),)))
    order = draw(st.permutations(statements))
    text_lines: list[str] = []
    for stmt, _, _ in order:
        if draw(st.booleans()):
            text_lines.append(draw(st.sampled_from(["", "# comment", "   "])))
        text_lines.append(stmt + draw(st.sampled_from(["", "  # why", " "])))
    shown: dict[str, str] = {}  # name -> as first written
    for _, _, named in order:
        for name, written in named:
            shown.setdefault(name, " ".join(written.split()))
    lines = tuple(
        Line(shown[ln.a], shown[ln.b], ln.symbol, ln.mark_a, ln.mark_b)
        for _, ln, _ in order
        if ln is not None
    )
    return Model(tuple(shown.values()), lines, "\n".join(text_lines))


@settings(max_examples=300, deadline=None)
@given(models())
def test_parse_reads_what_was_written(model: Model) -> None:
    m = parse_map(model.text)
    assert m.areas == model.areas
    got = {(c.a, c.b, c.symbol, c.cover_a, c.cover_b) for c in m.connections}
    assert got == {(ln.a, ln.b, ln.symbol, ln.mark_a, ln.mark_b) for ln in model.lines}


@settings(max_examples=300, deadline=None)
@given(models())
def test_round_trip(model: Model) -> None:
    m = parse_map(model.text)
    text = m.to_text()
    assert parse_map(text) == m
    assert parse_map(text).to_text() == text


@settings(max_examples=300, deadline=None)
@given(models())
def test_queries_agree_with_brute_force(model: Model) -> None:
    m = parse_map(model.text)
    for a in model.areas:
        assert m.line_of_sight(a, a) and not m.has_cover(a, a)
        assert not m.has_cover(a, a, hidden=True)
        assert m.moves_from(a) == tuple(b for b in model.areas if model.can_move(a, b))
        for b in model.areas:
            assert m.range(a, b) == m.range(b, a) == model.range(a, b)
            assert m.can_move(a, b) == model.can_move(a, b)
            for hidden in (False, True):
                assert m.has_cover(a, b, hidden=hidden) == model.cover(a, b, hidden)
                for k in (1, 2, 3):
                    expected = model.sight(a, b, k, hidden)
                    assert m.line_of_sight(a, b, marks_to_block=k, hidden=hidden) == expected


@settings(max_examples=300, deadline=None)
@given(models())
def test_line_of_sight_is_mutual(model: Model) -> None:
    # "There are no situations where line of sight is one-way" (RULINGS 9).
    m = parse_map(model.text)
    for a, b in combinations(model.areas, 2):
        for k in (2, 3):
            assert m.line_of_sight(a, b, marks_to_block=k) == m.line_of_sight(
                b, a, marks_to_block=k
            )


@settings(max_examples=150, deadline=None)
@given(models(max_areas=5), st.data())
def test_intercept_and_changes_agree_with_brute_force(model: Model, data: st.DataObject) -> None:
    m = parse_map(model.text)
    w, frm, to = (data.draw(st.sampled_from(model.areas)) for _ in range(3))
    ranges = [r for r in (model.range(w, frm), model.range(w, to)) if r is not None]
    assert m.intercept_range(w, frm, to) == (min(ranges) if ranges else None)
    assert m.intercept_sight(w, frm, to) == (
        model.sight(w, frm, 2, False) or model.sight(w, to, 2, False)
    )
    area = data.draw(st.sampled_from(model.areas))
    for covered, cover in ((m.with_area_cover(area), True), (m.demolished(area), False)):

        def changed(ln: Line, cover: bool = cover) -> Line:
            if ln.symbol == ".x." or area not in (ln.a, ln.b):
                return ln
            if ln.a == area:
                return Line(ln.a, ln.b, ln.symbol, cover, ln.mark_b)
            return Line(ln.a, ln.b, ln.symbol, ln.mark_a, cover)

        after = Model(model.areas, tuple(changed(ln) for ln in model.lines), "")
        assert parse_map(covered.to_text()) == covered
        for a in model.areas:
            for b in model.areas:
                assert covered.line_of_sight(a, b) == after.sight(a, b, 2, False)
                assert covered.has_cover(a, b) == after.cover(a, b, False)
    doors = [ln for ln in model.lines if ln.symbol in ("-[]-", "-[ ]-")]
    for ln in doors:
        flipped = m.with_door(ln.b, ln.a, open=ln.symbol == "-[]-")
        assert flipped.can_move(ln.a, ln.b) == (ln.symbol == "-[]-")
        assert flipped.with_door(ln.a, ln.b, open=ln.symbol == "-[ ]-") == m
