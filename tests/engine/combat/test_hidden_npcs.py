"""Secrets for the GM: with ``hide_npcs`` the players read how hurt an NPC looks, never its
level or marks; the GM reads the exact figures (``Event.gm_text``, the GM's board)."""

from __future__ import annotations

import pytest

from engine.character import Character, Item
from engine.combat import (
    AidMark,
    Attack,
    Begin,
    ChooseDice,
    ChooseOrder,
    Combat,
    EndCombat,
    Event,
    Fighter,
    FirstAid,
    GMSet,
    PromptKind,
    React,
    Surrender,
    render_board,
)
from engine.combat.hidden_npcs import band, figures_hidden, secret_options
from engine.combat.recap import recap_text
from engine.phrases import english
from tests.engine.combat.helpers import CLUB, P1, RULES, go, kinds, knife, run, setup


def _fighter(level: int = 50, max_level: int = 50, owner: int | None = None,
             **wounds: str) -> Fighter:
    ch = Character(name="Goon", npc=owner is None, level=level, max_level=max_level,
                   wounds=wounds)
    return Fighter(key="goon", name="Goon", team="NPCs", area="Bar", owner_id=owner,
                   character=ch)


@pytest.mark.parametrize(
    ("fighter", "expected"),
    [
        (_fighter(), "unhurt"),
        (_fighter(49), "hurt"),  # below max level
        (_fighter(torso="\\"), "hurt"),  # one box marked
        (_fighter(head="■"), "hurt"),  # an old permanent wound is still a mark
        (_fighter(26), "hurt"),  # just above half the max level
        (_fighter(25), "badly hurt"),  # half the max level
        (_fighter(right_arm="\\\\\\"), "badly hurt"),  # an arm full of marks
        (_fighter(left_leg="XXXXXX"), "badly hurt"),  # a leg full of marks
        (_fighter(9), "down"),  # unconscious: level below 10
        (_fighter(head="\\\\\\"), "down"),  # unconscious: a full head
        (_fighter(-1), "down"),  # dead
    ],
)
def test_band_says_how_hurt_a_fighter_looks(fighter: Fighter, expected: str) -> None:
    assert band(fighter, RULES) == expected


def test_a_surrendered_fighter_is_down() -> None:
    goon = _fighter(0)
    goon = goon.model_copy(update={
        "character": goon.character.model_copy(update={"surrendered": True})})
    assert band(goon, RULES) == "down"


def test_only_npcs_in_a_fight_that_hides_them_have_hidden_figures() -> None:
    hiding = Combat(map_text=CLUB, hide_npcs=True)
    assert figures_hidden(hiding, _fighter())
    assert not figures_hidden(hiding, _fighter(owner=100))  # a PC: its player sees it anyway
    assert not figures_hidden(Combat(map_text=CLUB), _fighter())


def test_a_fight_stored_before_the_setting_shows_everything() -> None:
    doc = Combat(map_text=CLUB).model_dump(mode="json")
    del doc["hide_npcs"]
    assert Combat.model_validate(doc).hide_npcs is False


def _duel(*, hide: bool = True) -> tuple[Combat, list[Event]]:
    """Ana (P1's, 40, a knife) and Goon (an NPC at 37 of 50, a knife) on the dance floor; the
    fight begun (Ana 34, Goon 21: the PCs go first), and the events so far."""
    c = setup((knife("Ana", 40), "Dance Floor", 100),
              (knife("Goon", 37, npc=True, max_level=50), "Dance Floor", None))
    c = c.model_copy(update={"hide_npcs": hide})
    c, begun = run(c, Begin(), [3, 4, 2, 1])
    c, chosen = run(c, ChooseOrder(first_team="PCs"), actor=P1)
    return c, [*begun, *chosen]


def _hit_goon(c: Combat) -> tuple[Combat, list[Event]]:
    """Ana attacks Goon, who defends: 34 beats 21, and Ana puts 3 damage on the torso. That
    ends round 1 (nobody has an action left): round 2's initiative goes as round 1's."""
    events: list[Event] = []
    c, said = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    events += said
    c, said = run(c, React(fighter="Goon", reaction="defend"), [3, 4, 2, 1])
    events += said
    c, said = run(c, ChooseDice(fighter="Ana", damage="tens"), [3, 4, 2, 1], actor=P1)
    return c, [*events, *said]


def _leaks(events: list[Event]) -> list[str]:
    """Public texts that state Goon's level or marks (37 at first, 34 after the hit)."""
    told = [english(e.text) for e in events]
    return [t for t in told if "vs 37" in t or "vs 34" in t or "→" in t or "Marked" in t]


def test_a_hidden_npc_s_rolls_and_damage_are_told_without_its_figures() -> None:
    c, events = _duel()
    c, fought = _hit_goon(c)
    events += fought
    assert c.fighter("goon").character.level == 34
    assert _leaks(events) == []
    exact = {english(e.text): english(e.gm_text) for e in events if e.gm_text is not None}
    # Only Goon's rolls and the damage it takes are told another way to the players.
    assert exact == {
        "Goon rolls initiative for NPCs: 21 (2·1) — SUCCESS.":  # round 2's: rolled against 34
            "Goon rolls initiative for NPCs: 21 (2·1) vs 34 — SUCCESS.",
        "Goon defends: 21 (2·1) — SUCCESS.": "Goon defends: 21 (2·1) vs 37 — SUCCESS.",
        "Goon takes 3 damage to the torso.":
            "Goon takes 3 damage to the torso: level 37 → 34. Marked 3 on the torso.",
    }
    told = [english(e.text) for e in events]
    assert told.count("Goon rolls initiative for NPCs: 21 (2·1) — SUCCESS.") == 2
    assert "Ana rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in told  # a PC: exact
    assert "Ana attacks Goon with Knife: 34 (3·4) vs 40 — SUCCESS." in told
    assert "34 beats Goon's Defend (21): the attack is not stopped." in told  # dice are public
    assert next(e for e in events if english(e.text).startswith("Goon defends:")).dice == (2, 1)


def test_without_the_setting_everyone_reads_the_exact_figures() -> None:
    c, events = _duel(hide=False)
    c, fought = _hit_goon(c)
    told = [english(e.text) for e in [*events, *fought]]
    assert "Goon rolls initiative for NPCs: 21 (2·1) vs 37 — SUCCESS." in told
    assert ("Goon takes 3 damage to the torso: level 37 → 34. Marked 3 on the torso."
            in told)
    assert all(e.gm_text is None for e in [*events, *fought])


def test_the_board_shows_a_hidden_npc_s_band_and_the_gm_s_board_its_level() -> None:
    c, _ = _duel()
    c, _ = _hit_goon(c)
    board = render_board(c, rules=RULES)
    assert "Goon [NPCs] Dance Floor hurt" in board, board
    assert "34/50" not in board
    assert "Ana [PCs] Dance Floor 40/50" in board  # a PC's level is no secret
    gm_board = render_board(c, rules=RULES, gm=True)
    assert "Goon [NPCs] Dance Floor 34/50" in gm_board, gm_board


def test_a_gm_correction_of_a_hidden_npc_keeps_its_figures_back() -> None:
    c, _ = _duel()
    c, events = run(c, GMSet(fighter="Goon", level=20, area="Bar", marks={"head": "X"}))
    (event,) = events
    assert english(event.text) == ("GM correction to Goon: level and wounds (hidden); area "
                                   "Dance Floor → Bar.")
    assert english(event.gm_text) == ("GM correction to Goon: level 37 → 20; head marks none → X; "
                                      "area Dance Floor → Bar.")


def test_surrender_and_the_end_of_the_fight_say_how_a_hidden_npc_looks() -> None:
    c, _ = _duel()
    c, _ = _hit_goon(c)
    c, events = run(c, Surrender(fighter="Goon"))  # the last NPC: the fight ends
    assert english(events[0].text) == "Goon surrenders: out of the fight."
    assert english(events[0].gm_text) == "Goon surrenders: level 34 → 0, out of the fight."
    c, _ = _duel()
    c, _ = _hit_goon(c)
    c, events = run(c, EndCombat())
    (ended,) = events
    assert english(ended.text).splitlines()[1:] == ["Ana (PCs): level 40/50, fine, wounds: none.",
                                           "Goon (NPCs): hurt."]
    assert ended.gm_text is not None
    assert "Goon (NPCs): level 34/50, fine, wounds: torso \\\\\\." in english(ended.gm_text)


def test_first_aid_on_a_hidden_npc_lets_the_gm_pick_the_marks_out_of_sight() -> None:
    # Rat (an NPC with a kit) treats Goon, whose head and torso hold \ marks: the players
    # see the roll and that it is done, not where the marks were; the GM picks them.
    rat = Character(name="Rat", npc=True, level=50, max_level=50,
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0)
    goon = Character(name="Goon", npc=True, level=30, max_level=50,
                     wounds={"head": "\\", "torso": "\\\\"})
    c = setup((knife("Ana", 40), "Alley", 100), (rat, "Bar", None), (goon, "Bar", None))
    c = c.model_copy(update={"hide_npcs": True})
    c, _ = run(c, Begin(), [9, 0, 2, 1])  # Ana fails 90, Rat (the first of 50) rolls 21
    c = go(c, ChooseOrder(first_team="NPCs"))
    c, events = run(c, FirstAid(fighter="Rat", target="Goon"), [1, 2])
    c, said = run(c, AidMark(fighter="Rat", option="tens"))  # 1 box, 2 more locations
    events += said
    assert kinds(c) == [(PromptKind.AID_BOXES, "goon")]  # asked of Goon: of the GM
    (asked,) = c.waiting_for()
    assert secret_options(c, asked)
    c, said = run(c, AidMark(fighter="Goon", option="torso"))
    events += said
    told = [english(e.text) for e in events]
    assert told[0] == "Rat gives first aid to Goon with Kit (used up): 12 (1·2) — SUCCESS."
    assert "Goon's wounds: one mark chosen." in told
    assert "First aid on Goon is done." in told
    assert not any("head" in t or "torso" in t for t in told), told
    assert dict(c.fighter("goon").character.wounds) == {"head": "X", "torso": "X"}
    assert any(e.gm_text is not None and english(e.gm_text) == "First aid on Goon: Erased 1 on "
               "the torso. \\ became X: 1 on the head and 1 on the torso." for e in events)


def test_first_aid_on_a_pc_is_still_the_treater_s_to_place() -> None:
    ana = Character(name="Ana", level=40, max_level=50,
                    items=(Item(name="Kit", kind="first_aid"),), right_hand=0)
    bram = Character(name="Bram", level=30, max_level=50, wounds={"head": "\\", "torso": "\\"})
    c = setup((ana, "Bar", 100), (bram, "Bar", 200), (knife("Goon", npc=True), "Alley", None))
    c = c.model_copy(update={"hide_npcs": True})
    c, _ = run(c, Begin(), [3, 4, 6, 1])
    c = go(c, ChooseOrder(first_team="PCs"), actor=P1)
    c, _ = run(c, FirstAid(fighter="Ana", target="Bram"), [1, 2], actor=P1)
    c, _ = run(c, AidMark(fighter="Ana", option="tens"), actor=P1)
    assert kinds(c) == [(PromptKind.AID_BOXES, "ana")]
    assert not secret_options(c, c.waiting_for()[0])


def test_a_tie_for_who_rolls_initiative_does_not_say_the_hidden_level() -> None:
    c = setup((knife("Ana", 40), "Alley", 100), (knife("Goon", 37, npc=True), "Bar", None),
              (knife("Rat", 37, npc=True), "Bar", None))
    c = c.model_copy(update={"hide_npcs": True})
    c, events = run(c, Begin())
    tie = next(e for e in events if e.kind == "roller_tie")
    assert english(tie.text) == ("Goon and Rat share the highest level of NPCs: NPCs choose "
                                 "who rolls initiative.")
    assert english(tie.gm_text) == ("Goon and Rat share the highest level of NPCs (37): NPCs "
                                    "choose who rolls initiative.")


def test_the_recap_says_how_a_hidden_npc_looks_not_the_damage_it_took() -> None:
    c, _ = _duel()
    c, _ = _hit_goon(c)
    c = go(c, EndCombat())
    lines = recap_text(c, rules=RULES).splitlines()
    assert "Ana (PCs): dealt 3, took 0" in lines
    assert "Goon (NPCs): dealt 0, looks hurt" in lines
    shown = recap_text(c.model_copy(update={"hide_npcs": False}), rules=RULES).splitlines()
    assert "Goon (NPCs): dealt 0, took 3" in shown
