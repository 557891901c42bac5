"""AoE (004 "Abilities": Area of Effect): Blast, Continuous, Cover, Demolish.

The book's Blast example: "You choose an area at a range of 1, mark your AoE item as destroyed,
and roll a 42, a success. You choose 4 for damage and 2 for additional targets. There are three
enemies and one ally in the area, so you choose the three enemies. One of the enemies
successfully Defends with a 50 and takes no damage. The other enemies don't want to spend an
action on Defend, so they each take 4 damage. One decides to take all 4 in the torso and
destroys the slot of armor there to eliminate the damage. The other takes 2 points in each leg."

On the nightclub: You (a PC with Blast and a grenade) stand in the Entrance; the Dance Floor,
at range 1, holds Goon, Rat (torso armor) and Moe, and the ally Cy.
"""

from __future__ import annotations

from engine.character import Character, Item
from engine.combat import (
    AllOutDefend,
    AoE,
    AoEChoice,
    Attack,
    CloseWindow,
    Combat,
    Done,
    PromptKind,
    Surrender,
)
from engine.combat.abilities import NOT_YET_IN_PLAY
from engine.combat.board import render_board
from engine.combat.prompts import prompt_for, question
from engine.phrases import english
from tests.engine.abilities.test_shield import ALL_OUT, bearer
from tests.engine.combat.helpers import (
    P1,
    RULES,
    begin,
    go,
    kinds,
    knife,
    refused,
    run,
    setup,
    texts,
)


def grenadier(name: str = "You", ability: str = "aoe.blast", level: int = 50,
              **kw: object) -> Character:
    return Character(
        name=name, level=level, max_level=max(level, 50), abilities=(ability,),
        items=(Item(name="Grenade", kind="aoe", ability=ability),
               Item(name="Spare", kind="aoe", ability=ability)),
        right_hand=0, left_hand=0, **kw,  # type: ignore[arg-type]
    )


def blast_fight(you: Character | None = None) -> Combat:
    rat = knife("Rat", npc=True)
    rat = rat.model_copy(update={"items": (*rat.items, Item(name="Vest", kind="armor",
                                                            location="torso"))})
    c = setup(
        (you or grenadier(), "Entrance", 100),
        (knife("Cy"), "Dance Floor", 200),
        (knife("Goon", level=60, npc=True), "Dance Floor", None),
        (rat, "Dance Floor", None),
        (knife("Moe", npc=True), "Dance Floor", None),
    )
    return begin(c, [3, 2, 6, 1], "PCs")


def test_book_blast_example() -> None:
    c, events = run(blast_fight(), AoE(fighter="You", area="dance floor"), [4, 2], actor=P1)
    assert texts(events) == [
        "You uses Grenade (Blast) on Dance Floor; Grenade is destroyed.",
        "You's Blast on Dance Floor: 42 (4·2) vs 50 — SUCCESS.",
    ]
    you = c.fighter("you").character
    assert you.items[0].destroyed and you.right_hand is None
    assert kinds(c) == [(PromptKind.AOE_DICE, "you")]
    c, events = run(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    assert "You chooses 4 damage and 2 additional targets." in texts(events)
    assert "The blast takes Goon, Rat and Moe." in texts(events)  # the enemies, not the ally
    assert kinds(c) == [(PromptKind.AOE_DEFEND, k) for k in ("goon", "rat", "moe")]
    c = go(c, AoEChoice(fighter="Goon", option="defend"))
    c = go(c, AoEChoice(fighter="Rat", option="pass"))
    c, events = run(c, AoEChoice(fighter="Moe", option="pass"), [5, 0])
    assert "Goon's Defend (50) beats 42: no damage." in texts(events)
    assert c.fighter("goon").actions == 0  # the Defend spent its action
    assert kinds(c) == [(PromptKind.AOE_PLACE, "rat"), (PromptKind.AOE_PLACE, "moe")]
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Rat", option="torso"))
    assert kinds(c) == [(PromptKind.AOE_ARMOR, "rat"), (PromptKind.AOE_PLACE, "moe")]
    c = go(c, AoEChoice(fighter="Rat", option="use"))
    for leg in ("right_leg", "right_leg", "left_leg", "left_leg"):
        c = go(c, AoEChoice(fighter="Moe", option=leg))
    rat, moe = c.fighter("rat").character, c.fighter("moe").character
    assert rat.level == 50 and rat.items[1].destroyed and rat.marks("torso") == ""
    assert moe.level == 46 and moe.marks("right_leg") == "\\\\" and moe.marks("left_leg") == "\\\\"
    goon, cy = c.fighter("goon").character, c.fighter("cy").character
    assert goon.level == 60 and cy.level == 50
    assert c.step is None and kinds(c)[0][0] is PromptKind.ACT


def test_allies_only_when_no_enemy_is_left() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [2, 4], actor=P1)
    c, events = run(c, AoEChoice(fighter="You", option="ones"), actor=P1)
    assert "You chooses 4 damage and 2 additional targets." in texts(events)
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [2, 4], actor=P1)
    c, events = run(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    # 4 more targets, 5 in all: the three enemies and then Cy (You is not in the area)
    assert "The blast takes Goon, Rat and Moe." in texts(events)
    assert "The blast takes Cy." in texts(events)


def test_the_user_chooses_among_more_enemies_than_targets() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [2, 1], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 2 damage, 1 more target
    assert kinds(c) == [(PromptKind.AOE_TARGET, "you")]
    assert c.waiting_for()[0].options == ("Goon", "Rat", "Moe")
    refused(c, AoEChoice(fighter="You", option="Cy"), "Choose one of: Goon, Rat, Moe", actor=P1)
    c = go(c, AoEChoice(fighter="You", option="Moe"), actor=P1)
    c = go(c, AoEChoice(fighter="You", option="Rat"), actor=P1)
    assert kinds(c) == [(PromptKind.AOE_DEFEND, "moe"), (PromptKind.AOE_DEFEND, "rat")]


def test_a_blast_defend_closes_with_the_reaction_time_and_silence_is_no_defend() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c, events = run(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # Goon, Rat, Moe
    assert ("Goon, Rat and Moe may Defend against the blast (spending an action) or take the "
            "damage (within 45 seconds).") in texts(events)
    assert [p.deadline for p in c.waiting_for()] == [45.0, 45.0, 45.0]
    c = go(c, AoEChoice(fighter="Goon", option="defend"))
    refused(c, CloseWindow(by_timeout=True), "still open for 35 more seconds", now=10)
    refused(c, CloseWindow(), "Only a GM", actor=P1)
    c, events = run(c, CloseWindow(by_timeout=True), [5, 0], now=45)
    assert texts(events)[:3] == [
        "The chance to Defend against the blast closes: time is up.",
        "Rat does not defend.",
        "Moe does not defend.",
    ]
    assert "Goon's Defend (50) beats 42: no damage." in texts(events)
    assert kinds(c) == [(PromptKind.AOE_PLACE, "rat"), (PromptKind.AOE_PLACE, "moe")]
    assert c.fighter("rat").actions == 1  # no Defend, no action spent
    assert all(p.deadline is None for p in c.waiting_for())


def test_a_gm_closes_a_blast_defend_early() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 0], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # one target
    c = go(c, AoEChoice(fighter="You", option="Goon"), actor=P1)
    c, events = run(c, CloseWindow(), now=5)
    assert texts(events)[:2] == [
        "The chance to Defend against the blast closes: the GM resolves it now.",
        "Goon does not defend.",
    ]
    assert kinds(c) == [(PromptKind.AOE_PLACE, "goon")]


def test_no_window_to_close_while_the_user_chooses_the_blast_dice() -> None:
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    refused(c, CloseWindow(by_timeout=True), "being resolved", now=100)
    assert c.waiting_for()[0].deadline is None


def test_a_failed_roll_does_nothing_but_destroys_the_item() -> None:
    c, events = run(blast_fight(), AoE(fighter="You", area="Dance Floor"), [7, 3], actor=P1)
    assert "You's AoE fails: it has no effect." in texts(events)
    assert c.step is None and c.fighter("you").character.items[0].destroyed


def test_a_critical_failure_deals_the_sum_of_the_dice_to_the_user() -> None:
    c, events = run(blast_fight(), AoE(fighter="You", area="Dance Floor"), [0, 0], actor=P1)
    assert ("You rolled a critical failure: they lose the next action and take 20 damage "
            "from their own AoE.") in texts(events)
    assert kinds(c) == [(PromptKind.AOE_PLACE, "you")]
    for _ in range(20):
        c = go(c, AoEChoice(fighter="You", option="torso"), actor=P1)
    assert c.fighter("you").character.level == 30


def test_refusals() -> None:
    c = blast_fight()
    refused(c, AoE(fighter="You", area="Bar"), "out of range for Grenade: range 2", actor=P1)
    refused(c, Attack(fighter="You", target="Cy"), "AoE weapon: it attacks an area", actor=P1)
    refused(c, AoE(fighter="You", area="Entrance", item="Knife"), "no item called 'Knife'",
            actor=P1)


def test_cover_lasts_its_rounds_and_shows_on_the_board() -> None:
    c = go(blast_fight(grenadier(ability="aoe.cover")), AoE(fighter="You", area="Dance Floor"),
           [3, 1], actor=P1)
    c, events = run(c, AoEChoice(fighter="You", option="ones"), actor=P1)  # 1 round
    assert texts(events)[-1] == ("Cover all around Dance Floor until the end of round 2 "
                                 "(You).")
    m = c.game_map()
    assert not m.line_of_sight("Entrance", "Bar")  # two marks now lie on the way
    board = render_board(c, rules=RULES)
    assert "\nEffects: Cover all around Dance Floor\n  until the end of round 2 (You)\n" in board


def test_demolish_removes_every_mark_of_the_area() -> None:
    c = go(blast_fight(grenadier(ability="aoe.demolish")), AoE(fighter="You", area="Dance Floor"),
           [3, 1], actor=P1)
    assert c.effects[0].kind == "demolish" and c.effects[0].until is None
    assert c.game_map().line_of_sight("Pool Tables", "Bar")


def test_every_aoe_ability_is_in_play() -> None:
    assert not {a for a in NOT_YET_IN_PLAY if a.startswith("aoe.")}
    assert Done  # the module's imports stay used


def test_an_all_out_defender_is_told_a_blast_defend_costs_no_action() -> None:
    c = setup(
        (grenadier(), "Entrance", 100),
        (bearer("Bea", ALL_OUT, npc=True), "Dance Floor", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, AllOutDefend(fighter="Bea"))
    c = go(c, AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    said = texts(run(c, AoEChoice(fighter="You", option="tens"), actor=P1)[1])
    assert ("Bea may Defend against the blast (without spending an action) or take the damage "
            "(within 45 seconds).") in said


def test_the_blast_window_says_each_kind_of_answer_once_and_its_time_once() -> None:
    """Targets asked alike share a line; with two kinds of answer, the time follows them."""
    c = setup(
        (grenadier(), "Entrance", 100),
        (bearer("Bea", ALL_OUT, npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Dance Floor", None),
        (knife("Moe", npc=True), "Dance Floor", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, AllOutDefend(fighter="Bea"))
    c = go(c, AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    said = texts(run(c, AoEChoice(fighter="You", option="tens"), actor=P1)[1])
    assert said[-3:] == [
        "Bea may Defend against the blast (without spending an action) or take the damage.",
        "Rat and Moe may Defend against the blast (spending an action) or take the damage.",
        "They may answer within 45 seconds.",
    ], said


def test_each_point_placed_is_said_with_what_is_left_and_a_hidden_npcs_keeps_where() -> None:
    c = blast_fight().model_copy(update={"hide_npcs": True})
    c = go(c, AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    c = go(c, AoEChoice(fighter="Goon", option="pass"))
    c = go(c, AoEChoice(fighter="Rat", option="pass"))
    c = go(c, AoEChoice(fighter="Moe", option="pass"))
    place = prompt_for(c, PromptKind.AOE_PLACE, "rat")
    assert english(question(c, place)) == "places the AoE damage, one point per click: 4 of 4 left"
    c, events = run(c, AoEChoice(fighter="Rat", option="right_leg"))
    [said] = events
    assert english(said.text) == "Rat: 1 point placed (3 left to place)."  # the players' words
    assert said.gm_text is not None
    assert english(said.gm_text) == "Rat: 1 point to the right leg (3 left to place)."
    place = prompt_for(c, PromptKind.AOE_PLACE, "rat")
    assert english(question(c, place)).endswith(": 3 of 4 left")  # not where it went
    shown = c.model_copy(update={"hide_npcs": False})
    assert english(question(shown, place)).endswith(
        ": 3 of 4 left (placed: right leg 1)")


def test_a_blast_is_resolved_before_its_targets_surrender() -> None:
    """Goon declares a Defend against the blast, then surrenders while Rat is still asked:
    his Defend was then rolled against level 0 and the dice raised ("a level is between 1 and
    99"). The blast's dice are rolled as it is declared, and 004 "Surrender" holds only "as
    long as dice haven't been rolled yet": its user and its targets surrender once it is
    resolved (note 55); someone in the area it did not take may."""
    c = go(blast_fight(), AoE(fighter="You", area="Dance Floor"), [2, 1], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 2 damage, two targets
    c = go(c, AoEChoice(fighter="You", option="Goon"), actor=P1)
    c = go(c, AoEChoice(fighter="You", option="Rat"), actor=P1)
    c = go(c, AoEChoice(fighter="Goon", option="defend"))
    refused(c, Surrender(fighter="Goon"), "The dice are already rolled for the AoE involving "
            "Goon; they can surrender once it is resolved")
    refused(c, Surrender(fighter="You"), "rolled for the AoE involving You", P1)
    c = go(c, Surrender(fighter="Moe"))  # in the area, not a target
    c, events = run(c, AoEChoice(fighter="Rat", option="pass"), [9, 9])
    assert "Goon's Defend (99) does not beat 21." in texts(events)
    assert kinds(c) == [(PromptKind.AOE_PLACE, "goon"), (PromptKind.AOE_PLACE, "rat")]
