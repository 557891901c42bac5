"""Shield (004 "Abilities": Shield), each bullet from its sentence:

- "Good Defend." (a modifier row: a Defend made with a shield in hand may be re-rolled)
- "Can use your action to Defend another character."
- "Can Attack using a shield."
- "Can declare All-Out Defend after initiative but before any actions in a round. During that
  round you may Defend all attacks against you, but those rolls are not good and cannot be
  critical. During that round you cannot take any other actions nor defend other characters."
"""

from __future__ import annotations

import pytest

from engine.catalog import Action
from engine.character import Character, Item
from engine.combat import (
    AllOutDefend,
    AoE,
    AoEChoice,
    Attack,
    Begin,
    ChooseDice,
    Combat,
    Done,
    GMSet,
    Move,
    PromptKind,
    React,
    Reroll,
    Surrender,
    legal_weapons,
    render_board,
)
from engine.combat.abilities.hooks import (
    board_words,
    extra_weapons,
    free_defend,
    may_defend,
    roll_limits,
)
from engine.combat.abilities.rule import RollLimit
from engine.combat.at_hand import abilities_at_hand
from engine.combat.prompts import SPECS
from engine.combat.step_values import Weapon
from engine.phrases import english
from tests.engine.combat.helpers import (
    P1,
    P2,
    RULES,
    begin,
    go,
    kinds,
    knife,
    refused,
    run,
    setup,
)

GOOD = "shield.good_defend"
OTHERS = "shield.defend_others"
BASH = "shield.attack"
ALL_OUT = "shield.all_out_defend"


def bearer(name: str, *abilities: str, knife_too: bool = False, held: bool = True,
           npc: bool = False) -> Character:
    """A fighter of level 50 (max 80: room for every Shield ability) with a riot shield in the
    left hand (and a knife in the right)."""
    items = (Item(name="Riot shield", kind="shield"),)
    if knife_too:
        items += (Item(name="Knife", kind="melee_1h"),)
    return Character(
        name=name, npc=npc, level=50, max_level=80, abilities=abilities, items=items,
        left_hand=0 if held else None, right_hand=1 if knife_too else None,
    )


def texts(events: tuple[object, ...]) -> list[str]:
    return [english(e.text) for e in events]  # type: ignore[attr-defined]


def options(c: Combat, key: str) -> tuple[str, ...]:
    return next(p.options for p in c.waiting_for() if p.fighter == key)


# ---- Defend another character -----------------------------------------------------------------


def _goon_attacks_ana(bea: Character, bea_area: str = "Entrance", bea_owner: int | None = 200,
                      ) -> Combat:
    """Ana (Alice's) and Bea (Bob's) against Goon, who attacks Ana with a knife: round 1,
    the NPCs acting (the PCs won initiative and let them go first)."""
    c = setup(
        (knife("Ana"), "Entrance", 100),
        (bea, bea_area, bea_owner),
        (knife("Goon", npc=True), "Entrance", None),
    )
    c = begin(c, [3, 2, 6, 1], "NPCs")
    return go(c, Attack(fighter="Goon", target="Ana"))


def test_a_shield_bearer_uses_their_action_to_defend_another_character() -> None:
    # "Can use your action to Defend another character": Bea, shield in hand, in Ana's area.
    c = _goon_attacks_ana(bearer("Bea", GOOD, OTHERS))
    assert kinds(c) == [(PromptKind.REACT, "ana"), (PromptKind.REACT, "bea")]
    assert options(c, "bea") == ("defend", "pass")
    c, events = run(c, React(fighter="Bea", reaction="defend", target="Ana"), actor=P2)
    assert "Bea defends Ana." in texts(events)
    assert c.fighter("bea").actions == 0  # her action
    # One Defend per attack: Ana may still counterattack, or pass.
    assert options(c, "ana") == ("counterattack", "counterattack_less_lethal", "pass")
    c, events = run(c, React(fighter="Ana", reaction="pass"), [3, 4, 4, 1], actor=P1)
    assert "Bea defends Ana: 41 (4·1) vs 50 — SUCCESS." in texts(events)
    # Good Defend applies: Bea holds her shield.
    assert kinds(c) == [(PromptKind.REROLL, "bea")]
    c, events = run(c, Reroll(fighter="Bea", which="keep"), actor=P2)
    assert "Bea's Defend (41) beats 34: the attack misses." in texts(events)
    assert c.fighter("ana").character.level == 50 and c.fighter("ana").actions == 1
    assert kinds(c) == [(PromptKind.ACT, "ana")]  # the PCs' turn: Ana kept her action


@pytest.mark.parametrize(
    ("bea", "area", "why"),
    [
        (bearer("Bea", OTHERS), "Dance Floor", "being in Ana's area"),
        (bearer("Bea", OTHERS, held=False), "Entrance", "a shield in a usable hand"),
        (bearer("Bea", GOOD), "Entrance", "the Shield ability"),
    ],
)
def test_defending_another_needs_the_ability_a_shield_in_hand_and_the_same_area(
    bea: Character, area: str, why: str
) -> None:
    c = _goon_attacks_ana(bea, area)
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    refused(c, React(fighter="Bea", reaction="defend"), why, actor=P2)


def test_the_attacking_team_does_not_defend() -> None:
    c = _goon_attacks_ana(bearer("Bea", OTHERS, npc=True), bea_owner=None)
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    refused(c, React(fighter="Bea", reaction="defend"), "their own team")


def test_one_defend_per_attack_whoever_declares_first() -> None:
    # Ana defends herself first: Bea, who could only defend, is done without spending.
    c = _goon_attacks_ana(bearer("Bea", OTHERS))
    c, events = run(c, React(fighter="Ana", reaction="defend"), [3, 4, 1, 2], actor=P1)
    assert "One Defend per attack: Bea does not defend Ana." in texts(events)
    assert c.fighter("bea").actions == 1 and c.attack is not None and c.attack.rolled
    # Bea defends first: Ana's own Defend is refused, with the reason.
    c = _goon_attacks_ana(bearer("Bea", OTHERS))
    c = go(c, React(fighter="Bea", reaction="defend"), actor=P2)
    refused(c, React(fighter="Ana", reaction="defend"), "Bea already defends Ana against this "
            "attack: one Defend per attack.", actor=P1)


def test_the_target_counterattacks_while_another_defends_them() -> None:
    # Two characters, one reaction each: Ana's Counterattack and Bea's Defend, rolled together
    # (the target's dice first), applied together.
    c = _goon_attacks_ana(bearer("Bea", OTHERS))
    c = go(c, React(fighter="Bea", reaction="defend"), actor=P2)
    c, events = run(c, React(fighter="Ana", reaction="counterattack"), [3, 4, 2, 5, 4, 1],
                    actor=P1)
    said = texts(events)
    assert "Ana counterattacks Goon with Knife: 25 (2·5) vs 50 — SUCCESS." in said
    assert "Bea's Defend (41) beats 34: the attack misses." in said
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]  # only Ana's counterattack hits
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 5 at 2
    assert c.fighter("goon").character.level == 45
    assert c.fighter("ana").character.level == 50


def test_defend_for_names_the_attacks_target() -> None:
    c = setup(
        (knife("Ana"), "Entrance", 100),
        (knife("Cy"), "Entrance", 100),
        (bearer("Bea", OTHERS), "Entrance", 200),
        (knife("Goon", npc=True), "Entrance", None),
    )
    c = begin(c, [3, 2, 6, 1], "NPCs")
    c = go(c, Attack(fighter="Goon", target="Ana"))
    refused(c, React(fighter="Bea", reaction="defend", target="Cy"),
            "Goon is attacking Ana, not Cy: Bea can only defend Ana now.", actor=P2)


def test_a_defender_who_surrenders_before_the_dice_leaves_the_target_their_defend() -> None:
    c = _goon_attacks_ana(bearer("Bea", OTHERS))
    c = go(c, React(fighter="Bea", reaction="defend"), actor=P2)
    c = go(c, Surrender(fighter="Bea"), actor=P2)
    assert c.attack is not None and not c.attack.rolled  # the attack goes on without her
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    assert options(c, "ana")[0] == "defend"


# ---- Attack with a shield ---------------------------------------------------------------------


def test_a_shield_is_a_melee_weapon_for_an_attack_with_the_ability() -> None:
    # "Can Attack using a shield": range 0, \ wounds (data/items.toml, the shield's row).
    c = setup((bearer("Ana", BASH), "Entrance", 100), (knife("Goon", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_weapons(c, "ana", RULES) == ("Riot shield",)
    c, events = run(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    assert "Ana attacks Goon with Riot shield." in texts(events)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 5])
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 5 at 3: right leg
    assert c.fighter("goon").character.marks("right_leg") == "\\" * 5


def test_without_the_ability_a_shield_does_not_attack() -> None:
    c = setup((bearer("Ana", GOOD), "Entrance", 100), (knife("Goon", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_weapons(c, "ana", RULES) == ()
    refused(c, Attack(fighter="Ana", target="Goon", weapon="Riot shield"),
            "needs the ability Shield: Attack with shield", actor=P1)


def test_a_shield_attack_reaches_range_0_only_and_may_be_less_lethal() -> None:
    c = setup((bearer("Ana", BASH), "Entrance", 100),
              (knife("Goon", npc=True), "Dance Floor", None),
              (knife("Rat", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Goon"), "range 1", actor=P1)
    c, events = run(c, Attack(fighter="Ana", target="Rat", lethal=False), actor=P1)
    assert "Ana attacks Rat with Riot shield (less-lethal)." in texts(events)


def test_a_shield_is_for_the_attack_action_not_counterattack_or_intercept() -> None:
    # The book says Attack; Counterattack and Intercept are named apart wherever an ability
    # covers them (1H Melee, Unarmed Combat).
    c = setup((bearer("Ana", BASH), "Entrance", 100), (knife("Goon", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    c = go(c, Attack(fighter="Goon", target="Ana"))
    assert options(c, "ana") == ("defend", "pass")  # no Counterattack with the shield
    c = setup((bearer("Ana", BASH, knife_too=True), "Entrance", 100),
              (knife("Goon", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    c = go(c, Attack(fighter="Goon", target="Ana"))
    refused(c, React(fighter="Ana", reaction="counterattack", weapon="Riot shield"),
            "Shield: Attack with shield lets Ana use Riot shield only to attack, not to "
            "counterattack.", actor=P1)
    c = setup((bearer("Ana", BASH), "Dance Floor", 100),
              (knife("Goon", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    c = go(c, Move(fighter="Goon", to="Dance Floor"))  # no Intercept window: nobody may
    assert c.move is None and c.fighter("goon").area == "Dance Floor"


# ---- All-Out Defend ---------------------------------------------------------------------------


def _all_out_table() -> Combat:
    """Bea (Bob's: shield and knife, every Shield ability) and Ana (Alice's) against Goon and
    Gil, all in the entrance; round 1, the NPCs to act first, nobody has acted yet."""
    c = setup(
        (bearer("Bea", GOOD, OTHERS, BASH, ALL_OUT, knife_too=True), "Entrance", 200),
        (knife("Ana"), "Entrance", 100),
        (knife("Goon", npc=True), "Entrance", None),
        (knife("Gil", npc=True), "Entrance", None),
    )
    return begin(c, [3, 2, 6, 1], "NPCs")


def test_all_out_defend_is_offered_after_initiative_until_the_first_action() -> None:
    c = setup(
        (bearer("Bea", ALL_OUT), "Entrance", 200), (knife("Goon", npc=True), "Entrance", None)
    )
    c = go(c, Begin(), [3, 2, 6, 1])
    refused(c, AllOutDefend(fighter="Bea"), "after initiative", actor=P2)
    c = begin(
        setup((bearer("Bea", ALL_OUT), "Entrance", 200),
              (knife("Goon", npc=True), "Entrance", None)),
        [3, 2, 6, 1], "NPCs")
    assert kinds(c) == [(PromptKind.ACT, "goon"), (PromptKind.ALL_OUT_DEFEND, "bea")]
    assert SPECS[PromptKind.ALL_OUT_DEFEND].command("declare", "bea") == AllOutDefend(
        fighter="bea")
    assert "Waiting for: Goon (act)\n" in render_board(c, rules=RULES) + "\n"
    c = go(c, Attack(fighter="Goon", target="Bea"))
    c = go(c, React(fighter="Bea", reaction="pass"), [8, 8], actor=P2)  # a miss; round 1 on
    assert (PromptKind.ALL_OUT_DEFEND, "bea") not in kinds(c)
    refused(c, AllOutDefend(fighter="Bea"), "before any action of the round", actor=P2)


@pytest.mark.parametrize(
    ("bea", "why"),
    [
        (bearer("Bea", GOOD), "does not have the Shield ability All-Out Defend"),
        (bearer("Bea", ALL_OUT, held=False), "needs a shield in a usable hand"),
    ],
)
def test_all_out_defend_needs_the_ability_and_a_shield_in_hand(bea: Character, why: str) -> None:
    c = setup((bea, "Entrance", 200), (knife("Goon", npc=True), "Entrance", None))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    assert (PromptKind.ALL_OUT_DEFEND, "bea") not in kinds(c)
    refused(c, AllOutDefend(fighter="Bea"), why, actor=P2)
    refused(c, AllOutDefend(fighter="Bea"), "Only their player", actor=P1)


def test_all_out_defend_defends_every_attack_without_actions_never_good_nor_critical() -> None:
    c = _all_out_table()
    c, events = run(c, AllOutDefend(fighter="Bea"), actor=P2)
    assert texts(events) == [
        "Bea declares All-Out Defend: this round they defend every attack on them without "
        "spending an action (those rolls are not good and cannot be critical), and take no "
        "other action."]
    bea = c.fighter("bea")
    assert bea.actions == 0 and bea.declared == (ALL_OUT,)
    assert "Bea [PCs] Entrance 50/80 a0 all-out" in render_board(c, rules=RULES)
    # First attack: only Defend is offered (no Counterattack), and it spends nothing.
    c = go(c, Attack(fighter="Goon", target="Bea"))
    assert kinds(c) == [(PromptKind.REACT, "bea")] and options(c, "bea") == ("defend", "pass")
    c, events = run(c, React(fighter="Bea", reaction="defend"), [3, 4, 4, 4], actor=P2)
    said = texts(events)
    assert "Bea defends (no action spent)." in said
    # 44 is doubles: not critical; Bea is good at Defend with her shield, but not now.
    assert "Bea defends (not good, cannot be critical): 44 (4·4) vs 50 — SUCCESS." in said
    assert "Bea's Defend (44) beats 34: the attack misses." in said
    # Second attack: defended again; 99 fails, but it is no critical failure.
    c = go(c, Attack(fighter="Gil", target="Bea"))
    c, events = run(c, React(fighter="Bea", reaction="defend"), [3, 4, 9, 9], actor=P2)
    assert "Bea defends (not good, cannot be critical): 99 (9·9) vs 50 — FAILURE." in texts(
        events)
    assert c.fighter("bea").lose_next == 0 and c.fighter("bea").actions == 0
    # Two free Defends: neither counts among the reactions that spent an action.
    assert c.fighter("bea").reactions == 0 and c.fighter("bea").spent == 0
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "bea")]  # she holds a shield: she chooses
    c = go(c, ChooseDice(fighter="Bea", damage="tens"), actor=P2)  # 3 at 4
    assert c.fighter("bea").character.level == 47
    # The PCs' turn: Ana acts, Bea takes no other action.
    assert c.acting_team == "PCs" and kinds(c) == [(PromptKind.ACT, "ana")]
    refused(c, Attack(fighter="Bea", target="Goon"), "Bea is all-out defending this round",
            actor=P2)
    # It ends with the round.
    c = go(c, Done(team="PCs"), actor=P1)  # (Ana and Bea share the PCs' highest level:
    assert c.round == 2 and c.fighter("bea").declared == ()  # the PCs choose who rolls)
    assert "all-out" not in render_board(c, rules=RULES)


def test_all_out_defend_defends_nobody_else_and_intercepts_nothing() -> None:
    c = go(_all_out_table(), AllOutDefend(fighter="Bea"), actor=P2)
    c = go(c, Attack(fighter="Goon", target="Ana"))
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    refused(c, React(fighter="Bea", reaction="defend"), "Bea is all-out defending", actor=P2)
    c = go(c, React(fighter="Ana", reaction="pass"), [8, 8], actor=P1)  # a miss
    c = go(c, Move(fighter="Gil", to="Dance Floor"))  # Bea, her knife in hand, intercepts not
    assert kinds(c) == [(PromptKind.REACT, "ana")]


def test_all_out_defend_takes_the_rounds_action() -> None:
    # "you cannot take any *other* actions": declaring it is the round's action, so a
    # fighter who has none left this round cannot declare it.
    c = go(_all_out_table(), GMSet(fighter="Bea", actions=0))
    assert (PromptKind.ALL_OUT_DEFEND, "bea") not in kinds(c)
    refused(c, AllOutDefend(fighter="Bea"), "Bea has no action left this round", actor=P2)


# ---- against a Blast (RULINGS 22) --------------------------------------------------------------


def _blast_on_bea(*abilities: str, all_out: bool) -> Combat:
    """You (Alice's, a Blast grenade) at the entrance; Bea (an NPC with a riot shield and
    ``abilities``, All-Out Defend declared when ``all_out``) at the dance floor. You throws
    42: 4 damage and one target, Bea, who is asked to Defend."""
    you = Character(name="You", level=50, max_level=50, abilities=("aoe.blast",),
                    items=(Item(name="Grenade", kind="aoe", ability="aoe.blast"),),
                    right_hand=0, left_hand=0)
    c = setup((you, "Entrance", 100), (bearer("Bea", *abilities, npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    if all_out:
        c = go(c, AllOutDefend(fighter="Bea"))
    c = go(c, AoE(fighter="You", area="Dance Floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    assert kinds(c) == [(PromptKind.AOE_DEFEND, "bea")]
    return c


def test_an_all_out_defend_against_a_blast_is_neither_good_nor_critical() -> None:
    # "that roll, like every All-Out Defend roll, is neither good nor critical" (RULINGS 22).
    c = _blast_on_bea(GOOD, ALL_OUT, all_out=True)
    asked = c.waiting_for()[0]
    assert abilities_at_hand(c, asked, RULES) is None
    c, events = run(c, AoEChoice(fighter="Bea", option="defend"), [4, 4, 3, 2, 6, 1])
    said = texts(events)
    assert ("Bea defends against the blast (not good, cannot be critical): 44 (4·4) vs 50 — "
            "SUCCESS.") in said, said
    assert "Bea's Defend (44) beats 42: no damage." in said
    assert (PromptKind.CRITICAL, "bea") not in kinds(c) and c.round == 2  # nothing waits
    assert c.fighter("bea").character.level == 50


def test_a_shields_good_defend_does_not_apply_against_a_blast() -> None:
    # "Neither cover nor shields apply to AoEs": the Defend is not made with the shield, so
    # Good Defend (a shield's) gives no re-roll and the prompt says nothing applies.
    c = _blast_on_bea(GOOD, all_out=False)
    asked = c.waiting_for()[0]
    assert abilities_at_hand(c, asked, RULES) is None
    c, events = run(c, AoEChoice(fighter="Bea", option="defend"), [1, 2])
    assert "Bea defends against the blast: 12 (1·2) vs 50 — SUCCESS." in texts(events)
    assert (PromptKind.REROLL, "bea") not in kinds(c)


def test_against_an_ordinary_attack_the_shields_good_defend_still_applies() -> None:
    c = setup((knife("Goon", npc=True), "Entrance", None), (bearer("Bea", GOOD), "Entrance", 200))
    c = begin(c, [3, 2, 6, 1], "NPCs")
    c = go(c, Attack(fighter="Goon", target="Bea"))
    asked = next(p for p in c.waiting_for() if p.fighter == "bea")
    assert english(abilities_at_hand(c, asked, RULES) or "") == "good (shield defend)"
    c = go(c, React(fighter="Bea", reaction="defend"), [3, 4, 1, 2], actor=P2)
    assert (PromptKind.REROLL, "bea") in kinds(c)


# ---- the hooks, one by one ----------------------------------------------------------------------


def test_the_shield_rules_at_their_hook_points() -> None:
    ana = bearer("Ana", BASH)
    shield = (Weapon(name="Riot shield", kind="shield"),)
    assert extra_weapons(ana, RULES, ("right", "left"), Action.ATTACK) == shield
    assert extra_weapons(ana, RULES, ("right", "left"), Action.COUNTERATTACK) == ()
    assert extra_weapons(ana, RULES, ("right",), Action.ATTACK) == ()  # a hurt left arm
    c = _all_out_table()
    bea, ana_f = c.fighter("bea"), c.fighter("ana")
    assert may_defend(c, bea, ana_f, RULES) and not may_defend(c, ana_f, bea, RULES)
    assert roll_limits(bea, Action.DEFEND) == frozenset()
    out = bea.model_copy(update={"declared": (ALL_OUT,)})
    assert not may_defend(c, out, ana_f, RULES)
    assert roll_limits(out, Action.DEFEND) == {RollLimit.NOT_GOOD, RollLimit.NOT_CRITICAL}
    assert free_defend(out, out) and not free_defend(out, ana_f) and not free_defend(bea, bea)
    assert tuple(map(english, board_words(out))) == ("all-out",) and board_words(bea) == ()
