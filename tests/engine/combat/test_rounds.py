"""004 "Rounds" and "Initiative": who rolls, who wins, the order of the teams."""

from __future__ import annotations

import pydantic
import pytest

from engine.combat import (
    Actor,
    AddFighter,
    Begin,
    ChooseOrder,
    ChooseRoller,
    Combat,
    Done,
    GMSet,
    Phase,
    PromptKind,
    RemoveFighter,
    Reroll,
    command_adapter,
    render_board,
)
from engine.combat.prompts import SPECS, asked_users
from engine.phrases import english
from tests.engine.combat.helpers import (
    GM,
    P1,
    P2,
    RULES,
    go,
    kinds,
    knife,
    pistol,
    refused,
    run,
    setup,
    texts,
)

P3 = Actor(user_id=300, gm=False)


def test_rulebook_initiative_example() -> None:
    # PCs' highest at 40 rolls 34; NPCs' highest at 25 rolls 62 (fails): the PCs win and
    # choose to let the NPCs go first.
    c = setup(
        (pistol("Ana", 40, max_level=60), "Entrance", 100),
        (pistol("Cy", 30), "Entrance", 200),
        (pistol("Goon", 25, npc=True), "Bar", None),
    )
    c, events = run(c, Begin(), [3, 4, 6, 2])
    assert c.phase is Phase.INITIATIVE
    assert c.initiative_winner == "PCs"
    assert [p.kind for p in c.waiting_for()] == [PromptKind.CHOOSE_ORDER]
    prompt = c.waiting_for()[0]
    assert prompt.fighter == "ana" and prompt.user_id == 100
    assert "Ana rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in texts(events)
    refused(c, ChooseOrder(first_team="NPCs"), "only they", actor=Actor(user_id=9))
    c = go(c, ChooseOrder(first_team="npcs"), actor=P1)
    assert c.order == ("NPCs", "PCs")
    assert c.phase is Phase.TURN and c.acting_team == "NPCs"
    assert kinds(c) == [(PromptKind.ACT, "goon")]


def test_initiative_tie_goes_to_pcs_then_previous_holder() -> None:
    c = setup((pistol("Ana"), "Entrance", 100), (pistol("Goon", npc=True), "Bar", None))
    c = go(c, Begin(), [6, 1, 7, 2])  # both fail
    assert c.initiative_winner == "PCs"
    c = go(c, ChooseOrder(first_team="PCs"))
    c = go(c, Done(), actor=P1)  # PCs done; NPCs' turn
    c = go(c, Done(), [4, 0, 4, 0])  # round 2: equal successes, a tie: PCs held it
    # 40 vs 40 at level 50 is doubles? no: 4·0 — not a critical
    assert c.round == 2 and c.initiative_winner == "PCs"


def test_initiative_criticals_and_good_reroll() -> None:
    leader = pistol("Ana", 50, max_level=60, abilities=("leader.good_initiative",))
    c = setup((leader, "Entrance", 100), (pistol("Goon", npc=True), "Bar", None))
    c = go(c, Begin(), [7, 2, 1, 1])  # Ana 72 fails; Goon 11: critical success
    assert kinds(c) == [(PromptKind.REROLL, "ana")]
    c, _events = run(c, Reroll(fighter="Ana", which="tens"), [3], actor=P1)  # 32
    assert c.initiative_winner == "PCs"  # 32 beats 11: a critical does not beat a higher value
    assert c.fighter("goon").actions == 2  # but the critical success still gives an action
    c = go(c, ChooseOrder(first_team="NPCs"), actor=P1)
    assert c.acting_team == "NPCs"


def test_initiative_critical_failure_costs_an_action() -> None:
    c = setup((pistol("Ana"), "Entrance", 100), (pistol("Goon", npc=True), "Bar", None))
    c = go(c, Begin(), [7, 7, 2, 0])
    assert c.fighter("ana").actions == 0
    assert c.initiative_winner == "NPCs"


# ---- three or more teams: the winner sets the order of all of them, one team a choice ---------


def three_teams() -> Combat:
    """Ana (P1's PC, 50) for the PCs, Bob (an NPC, 40) for the NPCs, Gus (P2's PC, 30) for
    the Gangers."""
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Bob", level=40, npc=True), "Bar", None))
    return go(c, AddFighter(character=knife("Gus", level=30), area="Kitchen", team="Gangers",
                            owner_id=200))


def test_the_winner_chooses_the_order_of_all_three_teams_one_at_a_time() -> None:
    # Dice order in round 1: the PCs first, then the others as they joined.
    c, events = run(three_teams(), Begin(), [3, 2, 6, 1, 7, 1])
    assert "PCs win initiative and choose the order all teams act in." in texts(events)
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.options) == (
        PromptKind.CHOOSE_ORDER, "ana", ("PCs", "NPCs", "Gangers"))
    refused(c, ChooseOrder(first_team="Gangers"), "only they", actor=P2)

    c, events = run(c, ChooseOrder(first_team="gangers"), actor=P1)
    assert texts(events) == ["PCs choose Gangers to go first."]
    assert c.phase is Phase.INITIATIVE and c.order == ("Gangers",)
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.options) == (
        PromptKind.CHOOSE_NEXT, "ana", ("PCs", "NPCs"))
    assert english(SPECS[PromptKind.CHOOSE_NEXT].label("NPCs")) == "NPCs next"
    assert SPECS[PromptKind.CHOOSE_NEXT].command("NPCs", "ana") == ChooseOrder(order=("NPCs",))
    assert "Waiting for: Ana (choose the order)" in render_board(c, rules=RULES)
    refused(c, ChooseOrder(first_team="PCs"), "Gangers already go first", actor=P1)
    refused(c, ChooseOrder(order=("Gangers",)), "to go next among: PCs, NPCs", actor=P1)
    refused(c, Done(), "Initiative is being decided", actor=P1)

    # The roll would have put the PCs (who succeeded) before the NPCs: the winner decides.
    c, events = run(c, ChooseOrder(order=("NPCs",)), actor=P1)
    assert texts(events) == ["PCs choose the order: Gangers, then NPCs, then PCs.",
                             "Turn: Gangers."]
    assert c.phase is Phase.TURN and c.order == ("Gangers", "NPCs", "PCs")
    c, events = run(c, Done(), actor=P2)
    assert texts(events)[-1] == "Turn: NPCs."
    c, events = run(c, Done())
    assert texts(events)[-1] == "Turn: PCs."
    assert c.acting_team == "PCs"
    refused(c, ChooseOrder(order=("PCs",)), "order is set", actor=P1)


def test_a_full_order_in_one_command() -> None:
    c = go(three_teams(), Begin(), [3, 2, 6, 1, 7, 1])
    refused(c, ChooseOrder(order=("NPCs", "npcs", "PCs")), "to go next among: PCs, Gangers")
    refused(c, ChooseOrder(order=("NPCs", "Nobody")), "to go next among: PCs, Gangers")
    c, events = run(c, ChooseOrder(order=("NPCs", "PCs", "Gangers")))
    assert "PCs choose the order (by the GM): NPCs, then PCs, then Gangers." in texts(events)
    assert c.order == ("NPCs", "PCs", "Gangers") and c.acting_team == "NPCs"


def test_four_teams_take_three_choices_and_the_last_follows() -> None:
    c = go(three_teams(), AddFighter(character=knife("Vic", level=20, npc=True), area="Alley",
                                     team="Cops"))
    c = go(c, Begin(), [3, 2, 6, 1, 7, 1, 8, 1])
    c, events = run(c, ChooseOrder(order=("Cops", "PCs")), actor=P1)
    assert texts(events) == ["PCs choose the order so far: Cops, then PCs."]
    [asked] = c.waiting_for()
    assert (asked.kind, asked.options) == (PromptKind.CHOOSE_NEXT, ("NPCs", "Gangers"))
    c = go(c, ChooseOrder(order=("Gangers",)), actor=P1)
    assert c.order == ("Cops", "PCs", "Gangers", "NPCs") and c.acting_team == "Cops"


def test_two_teams_still_take_one_choice() -> None:
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Bob", level=40, npc=True), "Bar", None))
    c, events = run(c, Begin(), [3, 2, 6, 1])
    assert "PCs win initiative and choose which team goes first." in texts(events)
    c, events = run(c, ChooseOrder(first_team="NPCs"), actor=P1)
    assert texts(events) == ["PCs choose the order: NPCs, then PCs.", "Turn: NPCs."]
    assert c.phase is Phase.TURN


def test_choose_order_needs_a_team() -> None:
    with pytest.raises(pydantic.ValidationError):
        ChooseOrder()
    with pytest.raises(pydantic.ValidationError):
        ChooseOrder(first_team="PCs", order=("NPCs",))


def test_a_fight_stored_while_the_winner_chooses_carries_on() -> None:
    """A fight saved before this change, three teams, waiting for the winner's first choice:
    no ``rollers`` in its JSON, its ChooseOrder as the log has it."""
    c = go(three_teams(), Begin(), [3, 2, 6, 1, 7, 1])
    old = c.model_dump(mode="json")
    del old["rollers"]
    loaded = Combat.model_validate(old)
    assert loaded == c
    logged = command_adapter.validate_json('{"kind": "choose_order", "first_team": "NPCs"}')
    c = go(loaded, logged, actor=P1)
    assert c.order == ("NPCs",) and c.waiting_for()[0].kind is PromptKind.CHOOSE_NEXT


# ---- a tie for the highest level within a team ------------------------------------------------


def tied_pcs() -> Combat:
    """Ana (P1's, 40) and Kit (P2's, 40, good at initiative) share the PCs' highest level; Lou
    (P1's, 30) is lower; Bob (an NPC, 25) rolls for the NPCs."""
    return setup(
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Kit", level=40, abilities=("leader.good_initiative",)), "Bar", 200),
        (knife("Lou", level=30), "Bar", 100),
        (knife("Bob", level=25, npc=True), "Kitchen", None),
    )


def test_a_team_whose_highest_level_is_shared_chooses_who_rolls() -> None:
    c, events = run(tied_pcs(), Begin())  # no die is rolled before the choice
    assert texts(events) == [
        "The fight begins.",
        "Round 1 begins.",
        "Ana and Kit share the highest level of PCs (40): PCs choose who rolls initiative.",
    ]
    assert c.phase is Phase.INITIATIVE and c.initiative == ()
    [asked] = c.waiting_for()
    assert (asked.kind, asked.fighter, asked.team, asked.user_id, asked.options) == (
        PromptKind.CHOOSE_ROLLER, None, "PCs", None, ("Ana", "Kit"))
    assert asked_users(c, asked) == (100, 200)  # the team's players
    assert english(SPECS[PromptKind.CHOOSE_ROLLER].label("Kit")) == "Kit rolls"
    assert "Waiting for: PCs (choose who rolls)" in render_board(c, rules=RULES)

    refused(c, ChooseRoller(fighter="Kit"), "only their players", actor=P3)
    refused(c, ChooseRoller(fighter="Lou"), "does not share the highest level of PCs", actor=P1)
    refused(c, ChooseRoller(fighter="Bob"), "Nothing is waiting for NPCs")
    refused(c, ChooseOrder(first_team="PCs"), "not final yet")

    # Kit's player chooses Kit, who rolls with her level and her good initiative.
    c, events = run(c, ChooseRoller(fighter="kit"), [3, 4, 6, 2], actor=P2)
    assert texts(events) == [
        "PCs choose Kit to roll initiative.",
        "Kit rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS.",
        "Bob rolls initiative for NPCs: 62 (6·2) vs 25 — FAILURE.",
    ]
    assert [r.state.fighter for r in c.initiative] == ["kit", "bob"]
    assert [(p.kind, p.fighter) for p in c.waiting_for()] == [(PromptKind.REROLL, "kit")]
    refused(c, ChooseRoller(fighter="Ana"), "Nothing is waiting for PCs", actor=P1)


def test_ties_in_two_teams_are_chosen_in_dice_order_before_any_die() -> None:
    c = setup(
        (knife("Ana", level=40), "Dance Floor", 100),
        (knife("Kit", level=40), "Bar", 200),
        (knife("Bob", level=30, npc=True), "Kitchen", None),
        (knife("Cid", level=30, npc=True), "Kitchen", None),
    )
    c, events = run(c, Begin())
    assert texts(events)[-2:] == [
        "Ana and Kit share the highest level of PCs (40): PCs choose who rolls initiative.",
        "Bob and Cid share the highest level of NPCs (30): NPCs choose who rolls initiative.",
    ]
    assert [(p.kind, p.team) for p in c.waiting_for()] == [(PromptKind.CHOOSE_ROLLER, "PCs")]
    refused(c, ChooseRoller(fighter="Cid"), "Nothing is waiting for NPCs")
    c, events = run(c, ChooseRoller(fighter="Ana"), actor=P1)
    assert texts(events) == ["PCs choose Ana to roll initiative."]
    [asked] = c.waiting_for()
    assert (asked.team, asked.options, asked_users(c, asked)) == ("NPCs", ("Bob", "Cid"), ())
    refused(c, ChooseRoller(fighter="Cid"), "for them: only a GM can", actor=P1)
    # Then every die, in the usual order: the PCs' tens and ones, then the NPCs'.
    c, events = run(c, ChooseRoller(fighter="Cid"), [8, 0, 2, 0])
    assert texts(events)[:3] == [
        "NPCs choose Cid to roll initiative.",
        "Ana rolls initiative for PCs: 80 (8·0) vs 40 — FAILURE.",
        "Cid rolls initiative for NPCs: 20 (2·0) vs 30 — SUCCESS.",
    ]
    assert c.initiative_winner == "NPCs"
    # Round 2: the choices start again, the previous holder's team first.
    c = go(c, ChooseOrder(first_team="PCs"))
    c = go(c, Done(), actor=P1)
    c, events = run(c, Done())
    assert texts(events)[-2:] == [
        "Bob and Cid share the highest level of NPCs (30): NPCs choose who rolls initiative.",
        "Ana and Kit share the highest level of PCs (40): PCs choose who rolls initiative.",
    ]
    assert c.rollers == () and c.waiting_for()[0].team == "NPCs"


def test_no_tie_rolls_at_once_as_before() -> None:
    c = setup((knife("Ana", level=40), "Dance Floor", 100), (knife("Kit", level=39), "Bar", 200),
              (knife("Bob", level=25, npc=True), "Kitchen", None))
    c, events = run(c, Begin(), [3, 4, 6, 2])
    assert texts(events) == [
        "The fight begins.",
        "Round 1 begins.",
        "Ana rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS.",
        "Bob rolls initiative for NPCs: 62 (6·2) vs 25 — FAILURE.",
        "PCs win initiative and choose which team goes first.",
    ]
    assert c.rollers == () and c.waiting_for()[0].kind is PromptKind.CHOOSE_ORDER


def test_a_gm_correction_that_ends_the_tie_lets_the_dice_roll() -> None:
    c = go(tied_pcs(), Begin())
    c, events = run(c, GMSet(fighter="Ana", level=39), [3, 4, 6, 2])
    assert "Kit rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in texts(events)
    assert c.waiting_for()[0].kind is PromptKind.REROLL  # Kit is good at initiative
    # (Kit at 39 instead would be a leader below Ana: tests/engine/abilities/test_leader.py.)
    # So does a tied fighter leaving the fight.
    c = go(tied_pcs(), Begin())
    c, events = run(c, RemoveFighter(fighter="Ana"), [3, 4, 6, 2])
    assert "Kit rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in texts(events)


def test_the_gm_chooses_for_a_team_and_a_stored_choice_reloads() -> None:
    c = go(tied_pcs(), Begin())
    c = go(c, ChooseRoller(fighter="Ana"), [3, 4, 6, 2], actor=GM)
    assert c.rollers[0].team == "PCs" and c.rollers[0].fighter == "ana"
    assert Combat.model_validate_json(c.model_dump_json()) == c
    assert command_adapter.validate_json(
        '{"kind": "choose_roller", "fighter": "Ana"}') == ChooseRoller(fighter="Ana")
