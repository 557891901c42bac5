"""engine.sheet: the sheet as players read it on a phone (40 columns, under 2,000 characters)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from data import load_rules
from engine.character import (
    Character,
    Item,
    add_ability,
    add_good_at,
    add_item,
    character_problems,
    destroy_item,
    hold,
    slots,
    take_damage,
)
from engine.sheet import MAX_CHARS, WIDTH, render_sheet, render_story, render_wounds
from engine.textwidth import width

RULES = load_rules()
S = "\\"

EXPECTED_SHEET = r"""Ana Lind · PC
Level 56/66 · fine

              9 Head
              \ □ □
  8 R arm   4-6 Torso   7 L arm
     X        X X □        □
     X        □ □ □        □
     X        □ □ □        □
    2-3 R leg     0-1 L leg
      \ \ \         □ □ □
      \ □ □         □ □ □
Right arm full: right hand unusable

Hands
R hand: can't be used
L hand: Riot shield

Items 7 of 7 slots · 0 free
 1. Riot shield (shield) [L hand]
 2. Service pistol (1H ranged)
 3. 9mm rounds (ammo)
 4. Stun rounds (ammo, less-lethal)
 5. Kevlar vest (armor, torso)
 6. Flashbang (AoE, Blast)
 7. Medkit (first aid) DESTROYED

Abilities 3 of 3 · 0 free
 Good at forensic accounting
Good, precise, powerful
 Defend with shield: good
Special rules
 AoE: Blast
   Blast: damage, extra targets"""


def ana_lind() -> Character:
    c = Character.new("Ana Lind", level=66)
    c, _ = add_good_at(c, "forensic accounting", rules=RULES)
    c, _ = add_ability(c, "shield.good_defend", rules=RULES)
    c, _ = add_ability(c, "aoe.blast", rules=RULES)
    for name, kind, extra in [
        ("Riot shield", "shield", {}),
        ("Service pistol", "ranged_1h", {}),
        ("9mm rounds", "ammo", {}),
        ("Stun rounds", "ammo", {"less_lethal": True}),
        ("Kevlar vest", "armor", {"location": "torso"}),
        ("Flashbang", "aoe", {}),
        ("Medkit", "first_aid", {}),
    ]:
        c, _ = add_item(c, name, kind, rules=RULES, **extra)  # type: ignore[arg-type]
    c, _ = hold(c, "riot shield", "left", rules=RULES)
    c, _ = take_damage(c, 4, 2, rules=RULES)
    c, _ = take_damage(c, 5, 8, mark="X", rules=RULES)
    c, _ = take_damage(c, 1, 9, rules=RULES)
    c, _ = destroy_item(c, "medkit", rules=RULES)
    return c


def test_sample_sheet() -> None:
    assert render_sheet(ana_lind(), rules=RULES) == EXPECTED_SHEET


def test_wounds_view_is_the_heading_and_figure() -> None:
    text = render_wounds(ana_lind(), rules=RULES)
    assert text == "\n".join(
        line for line in EXPECTED_SHEET.split("\n\nHands")[0].splitlines() if line
    )


def figure_of(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Head" in line)
    return lines[start : start + 9]


def test_figure_is_laid_out_like_a_person_seen_from_the_front() -> None:
    figure = figure_of(render_sheet(Character.new("Bo"), rules=RULES))
    head_label, head_boxes, arms_label, *torso_rows, legs_label, leg1, leg2 = figure
    assert "Head" in head_label and head_boxes.split() == ["□"] * 3
    # The character's right arm is on the viewer's left.
    assert arms_label.index("R arm") < arms_label.index("Torso") < arms_label.index("L arm")
    assert legs_label.index("R leg") < legs_label.index("L leg")
    for row in torso_rows:  # arms hang beside the torso, one box per row
        assert row.split() == ["□"] * 5
    assert leg1.split() == leg2.split() == ["□"] * 6
    # The head sits above the torso's middle column.
    assert head_boxes.index("□") == torso_rows[0].index("□", torso_rows[0].index("□") + 1)


def test_every_box_and_mark_is_drawn() -> None:
    c = Character(
        name="Bo",
        level=40,
        max_level=50,
        wounds={"head": "■X" + S, "torso": "XX", "left_leg": S},
    )
    figure = "\n".join(figure_of(render_sheet(c, rules=RULES)))
    glyphs = [ch for ch in figure if ch in "□\\X■"]
    assert len(glyphs) == 30
    assert glyphs.count("■") == 1 and glyphs.count("X") == 3 and glyphs.count("\\") == 2
    assert figure_of(render_sheet(c, rules=RULES))[1].split() == ["■", "X", "\\"]


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"level": 9}, "Level 9/50 · unconscious"),
        ({"level": -3}, "Level -3/50 · dead"),
        ({"level": 0, "surrendered": True}, "Level 0/50 · surrendered"),
        ({"wounds": {"torso": "■" * 9}}, "Level 50/50 · dead"),
    ],
)
def test_status_line(fields: dict[str, object], line: str) -> None:
    c = Character.model_validate({"name": "Bo", "level": 50, "max_level": 50, **fields})
    assert render_sheet(c, rules=RULES).splitlines()[1] == line


def test_npc_heading_and_penalty_notes() -> None:
    c = Character(
        name="Goon", npc=True, level=30, max_level=30, wounds={"right_leg": S * 6}
    )
    text = render_sheet(c, rules=RULES)
    assert text.startswith("Goon · NPC\nLevel 30/30 · fine")
    assert "Right leg full: moves only with\n  two empty hands" in text
    both = c.model_copy(update={"wounds": {"right_leg": S * 6, "left_leg": "X" * 6}})
    assert "Both legs full: cannot move" in render_wounds(both, rules=RULES)


def test_two_handed_item_and_free_slots() -> None:
    c, _ = add_item(Character.new("Bo", level=55), "Greatsword", "melee_2h", rules=RULES)
    c, _ = hold(c, 0, rules=RULES)
    text = render_sheet(c, rules=RULES)
    assert "Hands\nBoth hands: Greatsword\n" in text
    assert " 1. Greatsword (2H melee) [both hands]" in text
    assert "Items 1 of 6 slots · 5 free" in text
    assert "Abilities 0 of 2 · 2 free" in text


# -- limits: any valid character fits a phone and a Discord message ----------------------------

NAME_CHARS = st.one_of(
    st.characters(codec="utf-8", exclude_categories=("C", "Z"), exclude_characters="`"),
    st.just(" "),
)


@st.composite
def any_character(draw: st.DrawFn) -> Character:
    """Valid characters built field by field, reaching the longest names and lists."""
    max_level = draw(st.integers(1, 99))
    level = draw(st.integers(-30, max_level))
    wounds = {
        loc.id: "".join(draw(st.lists(st.sampled_from("■X\\"), max_size=loc.boxes)))
        for loc in RULES.body.locations
    }
    c = Character(
        name=draw(st.text(NAME_CHARS, min_size=1, max_size=32).filter(str.strip)),
        npc=draw(st.booleans()),
        level=level,
        max_level=max_level,
        wounds=wounds,
    )
    items = []
    for _ in range(draw(st.integers(0, slots(c)))):
        kind = draw(st.sampled_from(["melee_1h", "shield", "ammo", "ranged_2h", "first_aid"]))
        name = draw(st.text(NAME_CHARS, min_size=1, max_size=40).filter(str.strip)
                    | st.just("W" * 40))
        items.append(Item(name=name, kind=kind, destroyed=draw(st.booleans())))
    c = c.model_copy(update={"items": tuple(items)})
    for activity in draw(st.lists(st.text(NAME_CHARS, min_size=1, max_size=60), max_size=5)):
        with contextlib.suppress(ValueError):  # a duplicate, or blank once stripped
            c, _ = add_good_at(c, activity, rules=RULES)
    c = Character.model_validate(c.model_dump())
    assume(character_problems(c, rules=RULES) == ())
    return c


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_character())
def test_every_sheet_fits(c: Character) -> None:
    for text in (render_sheet(c, rules=RULES), render_wounds(c, rules=RULES)):
        assert len(text) <= MAX_CHARS
        assert all(width(line) <= WIDTH for line in text.splitlines()), text
        assert "```" not in text


def test_a_cjk_name_and_item_wrap_by_columns() -> None:
    c = Character.new("山田太郎" * 8, level=40)  # 32 characters, 64 columns
    c, _ = add_item(c, "盾" * 40, "shield", rules=RULES)
    text = render_sheet(c, rules=RULES)
    assert text.splitlines()[:2] == ["山田太郎" * 5, "    山田太郎山田太郎山田太郎 · PC"]
    assert all(width(line) <= WIDTH for line in text.splitlines())
    assert "".join(text.split()).count("盾") == 40  # wrapped, not cut


def test_the_largest_sheet_fits() -> None:
    c = Character.new("W" * 32, level=99, npc=True)
    for i in range(5):
        c, _ = add_good_at(c, f"{i}" + "m" * 59, rules=RULES)
    c, _ = add_ability(c, "aoe.continuous", rules=RULES)
    for i in range(10):
        c, _ = add_item(c, f"{i} " + "Q" * 38, "aoe", rules=RULES)
        c, _ = destroy_item(c, i, rules=RULES)
    text = render_sheet(c, rules=RULES)
    assert len(text) <= MAX_CHARS and max(len(line) for line in text.splitlines()) <= WIDTH
    assert text.count("DESTROYED") == 10


def test_every_special_rule_has_a_brief_that_fits_one_sheet_line() -> None:
    """The sheet lists modifiers by action and item, and every other rule by its brief: so each
    combat row that is more than a good, precise or powerful modifier needs one."""
    for ability in RULES.abilities.combat:
        pure_modifier = ability.modifier is not None and ability.id != "leader.good_initiative"
        assert pure_modifier or ability.brief, ability.id
        assert len("   " + ability.brief) <= WIDTH, ability.id


def test_the_most_abilities_fit_the_sheet() -> None:
    c = Character.new("Q" * 32, level=99)
    c, _ = add_good_at(c, "x" * 60, rules=RULES)
    for ability in ("unarmed.fight", "unarmed.good_attack", "unarmed.good_reactions",
                    "unarmed.precise_attack", "unarmed.stop_movement"):
        c, _ = add_ability(c, ability, rules=RULES)
    text = render_sheet(c, rules=RULES)
    assert len(text) <= MAX_CHARS and all(len(line) <= WIDTH for line in text.splitlines())
    assert " Counterattack unarmed: good" in text and " Attack unarmed: good, precise" in text


def test_the_largest_story_fits_beside_any_sheet_in_two_messages() -> None:
    c = Character.new("W" * 32, level=99).model_copy(update={
        "concept": "C" * 80, "description": " ".join(["word"] * 80)[:400],
        "gear": tuple(f"{i:02} " + "g" * 37 for i in range(12))})
    c = Character.model_validate(c.model_dump())
    story = render_story(c)
    assert len(story) < 1100 and all(width(line) <= WIDTH for line in story.splitlines())
    assert "".join(story.split()).count("g" * 37) == 12  # wrapped, nothing cut
