"""engine.combat: the state machine through its public API, with scripted dice."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from data import builtin_maps, load_rules
from engine.character import Character, Item, Status, status
from engine.combat import (
    Actor,
    AddFighter,
    Armor,
    Attack,
    Begin,
    ChooseDice,
    ChooseOrder,
    ChooseRoller,
    CloseWindow,
    Combat,
    Command,
    CriticalChoice,
    Done,
    EndCombat,
    Event,
    GMSet,
    ManageItems,
    Modifier,
    Move,
    Phase,
    PromptKind,
    React,
    Reroll,
    Surrender,
    apply,
    command_adapter,
    legal_items,
    legal_targets,
    legal_weapons,
    new_combat,
    render_board,
)
from engine.combat.prompts import SPECS
from engine.dice import ScriptedDice
from engine.errors import RuleError

RULES = load_rules()
CLUB = builtin_maps()["nightclub"]
GM = Actor(user_id=1, gm=True)
P1 = Actor(user_id=100, gm=False)
P2 = Actor(user_id=200, gm=False)


def run(
    c: Combat, cmd: Command, faces: Sequence[int] = (), actor: Actor = GM, now: float = 0.0
) -> tuple[Combat, tuple[Event, ...]]:
    dice = ScriptedDice(faces)
    new, events = apply(c, cmd, actor=actor, dice=dice, rules=RULES, now=now)
    assert dice.remaining == 0, "unused scripted dice"
    assert Combat.model_validate_json(new.model_dump_json()) == new
    return new, events


def go(c: Combat, cmd: Command, faces: Sequence[int] = (), actor: Actor = GM) -> Combat:
    return run(c, cmd, faces, actor)[0]


def refused(c: Combat, cmd: Command, match: str, actor: Actor = GM, now: float = 0.0) -> None:
    before = c.model_dump_json()
    with pytest.raises(RuleError, match=match):
        apply(c, cmd, actor=actor, dice=ScriptedDice([]), rules=RULES, now=now)
    assert c.model_dump_json() == before


def pistol(name: str, level: int = 50, npc: bool = False, **kw: object) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=kw.pop("max_level", max(level, 50)),  # type: ignore[arg-type]
        items=(Item(name="Pistol", kind="ranged_1h"), Item(name="Bullets", kind="ammo")),
        right_hand=0,
        **kw,  # type: ignore[arg-type]
    )


def knife(name: str, level: int = 50, npc: bool = False, **kw: object) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=kw.pop("max_level", max(level, 50)),  # type: ignore[arg-type]
        items=(Item(name="Knife", kind="melee_1h"),),
        right_hand=0,
        **kw,  # type: ignore[arg-type]
    )


def setup(*entries: tuple[Character, str, int | None]) -> Combat:
    c = new_combat(CLUB)
    for ch, area, owner in entries:
        c = go(c, AddFighter(character=ch, area=area, owner_id=owner))
    return c


def begin(c: Combat, faces: Sequence[int], first: str) -> Combat:
    """Begin with the given initiative dice and let the winner (as GM) pick ``first``. A team
    whose highest level is shared lets the first of them (in the order added) roll; a team's
    highest never lets a leader roll instead."""
    dice = ScriptedDice(faces)
    c, _ = apply(c, Begin(), actor=GM, dice=dice, rules=RULES, now=0.0)
    while asked := [p for p in c.waiting_for()
                    if p.kind in (PromptKind.CHOOSE_ROLLER, PromptKind.LEADER_ROLLS)]:
        choice = ChooseRoller(fighter=asked[0].options[0])
        c, _ = apply(c, choice, actor=GM, dice=dice, rules=RULES, now=0.0)
    assert dice.remaining == 0, "unused scripted dice"
    return go(c, ChooseOrder(first_team=first))


def kinds(c: Combat) -> list[tuple[PromptKind, str | None]]:
    return [(p.kind, p.fighter) for p in c.waiting_for()]


# ---- initiative -------------------------------------------------------------------------------


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
    assert "Ana rolls initiative for PCs: 34 (3·4) vs 40 — SUCCESS." in [e.text for e in events]
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


# ---- cover and choosing the dice ---------------------------------------------------------------


def test_cover_bar_against_dance_floor_target_chooses() -> None:
    c = setup((pistol("Ana"), "Bar", 100), (pistol("Bob", npc=True), "Dance Floor", None))
    c = begin(c, [6, 1, 3, 2], "NPCs")  # NPCs win (32 vs fail)
    c = go(c, Attack(fighter="Bob", target="Ana"))
    assert kinds(c) == [(PromptKind.REACT, "ana")]
    assert c.waiting_for()[0].options == ("defend", "pass")
    c = go(c, React(fighter="Ana", reaction="pass"), [3, 4], actor=P1)
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    refused(c, ChooseDice(fighter="Bob", damage="tens"), "Nothing is waiting for Bob")
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    ana = c.fighter("Ana").character
    assert ana.level == 47 and ana.marks("torso") == "\\" * 3


def test_cover_dance_floor_against_bar_attacker_chooses() -> None:
    c = setup((pistol("Ana"), "Bar", 100), (pistol("Bob", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c, events = run(c, React(fighter="Bob", reaction="pass"), [3, 4])
    assert "Ana attacks Bob with Pistol: 34 (3·4) vs 50 — SUCCESS." in [e.text for e in events]
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 4 damage at 3: right leg
    bob = c.fighter("bob").character
    assert bob.level == 46 and bob.marks("right_leg") == "\\" * 4


# ---- defend -----------------------------------------------------------------------------------


def _duel(att: Character, tgt: Character, att_team_first: str = "PCs") -> Combat:
    c = setup(
        (att, "Entrance", None if att.npc else 100), (tgt, "Entrance", None if tgt.npc else 200)
    )
    if att.npc and tgt.npc:
        c = new_combat(CLUB)
        c = go(c, AddFighter(character=att, area="Entrance", team="Red"))
        c = go(c, AddFighter(character=tgt, area="Entrance", team="Blue"))
        return begin(c, [3, 2, 6, 1], "Red")
    return begin(c, [3, 2, 6, 1], att_team_first)


def test_defend_wins() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    assert c.waiting_for()[0].options == (
        "defend", "counterattack", "counterattack_less_lethal", "pass")
    c, events = run(c, React(fighter="Goon", reaction="defend"), [3, 4, 4, 1, 6, 1, 3, 2])
    assert c.attack is None and c.round == 2  # nobody has an action left: round 2
    assert c.fighter("goon").character.level == 50
    assert c.fighter("goon").reacted_to == 1 and c.fighter("goon").actions == 1  # new round
    assert any(e.kind == "defended" for e in events)


def test_defend_tie_pc_beats_npc() -> None:
    c = _duel(knife("Goon", npc=True), knife("Ana"), "NPCs")
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c, events = run(c, React(fighter="Ana", reaction="defend"), [3, 4, 3, 4, 6, 1, 3, 2],
                    actor=P2)
    assert c.attack is None and c.fighter("ana").character.level == 50
    assert ("Ana's Defend (34) ties 34 and a PC wins a tie against an NPC: the attack misses."
            in [e.text for e in events])


def test_defend_tie_npc_vs_npc_does_not_stop_the_attack() -> None:
    c = _duel(knife("Red", npc=True), knife("Blue", npc=True))
    c = go(c, Attack(fighter="Red", target="Blue"))
    c, events = run(c, React(fighter="Blue", reaction="defend"), [3, 4, 3, 4])
    assert ("Blue's Defend (34) only ties 34, and a tie stops nothing: the attack is not "
            "stopped." in [e.text for e in events])
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "red")]


@pytest.mark.parametrize(
    ("attacker_npc", "faces", "sentence"),
    [
        # RULINGS 6: the highest success wins; on a tie a PC beats an NPC; otherwise nobody.
        (False, [3, 4, 2, 1], "34 beats Goon's Defend (21): the attack is not stopped."),
        (False, [3, 4, 3, 4],
         "34 ties Goon's Defend (34) and a PC wins a tie against an NPC: the attack is not "
         "stopped."),
        (False, [3, 4, 4, 1, 6, 1, 3, 2], "Goon's Defend (41) beats 34: the attack misses."),
        (False, [3, 4, 8, 1], "Goon's Defend fails."),
        (True, [3, 4, 3, 4, 6, 1, 3, 2],
         "Goon's Defend (34) ties 34 and a PC wins a tie against an NPC: the attack misses."),
        (True, [3, 4, 2, 1], "34 beats Goon's Defend (21): the attack is not stopped."),
    ],
)
def test_every_defend_sentence_says_what_happened(attacker_npc: bool, faces: list[int],
                                                  sentence: str) -> None:
    # Ana attacks, Goon defends (a stopped attack ends the round: the rest is initiative); one
    # of them is a PC, the other an NPC.
    ana, goon = knife("Ana", npc=attacker_npc), knife("Goon", npc=not attacker_npc)
    c = _duel(ana, goon, "NPCs" if attacker_npc else "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"))
    c, events = run(c, React(fighter="Goon", reaction="defend"), faces)
    texts = [e.text for e in events]
    assert sentence in texts, texts


def test_counterattack_is_simultaneous() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="counterattack"), [2, 5, 1, 6])
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 5 at 2
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "goon")]
    c = go(c, ChooseDice(fighter="Goon", damage="ones"), [6, 1, 3, 2])  # 6 at 1; round 2
    assert c.fighter("goon").character.level == 45
    assert c.fighter("ana").character.level == 44
    assert c.fighter("ana").character.marks("left_leg") == "\\" * 6


def test_two_handed_melee_cannot_be_counterattacked_and_marks_x() -> None:
    axe = Character(
        name="Ana",
        level=50,
        max_level=50,
        items=(Item(name="Axe", kind="melee_2h"),),
        right_hand=0,
        left_hand=0,
        abilities=("melee_2h.no_counterattack",),
    )
    c = _duel(axe, knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    assert c.waiting_for()[0].options == ("defend", "pass")
    c = go(c, React(fighter="Goon", reaction="pass"), [2, 5])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    assert c.fighter("goon").character.marks("torso") == "XX"


# ---- criticals and good -------------------------------------------------------------------------


def test_critical_success_extra_action() -> None:
    c = _duel(pistol("Ana"), pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 3])
    assert kinds(c) == [(PromptKind.CRITICAL, "ana")]
    refused(c, CriticalChoice(fighter="Ana", choice="adjust"), "Say which value", actor=P1)
    c = go(c, CriticalChoice(fighter="Ana", choice="extra_action"), actor=P1)  # doubles: 3 at 3
    assert c.fighter("goon").character.level == 47
    assert c.fighter("ana").actions == 1 and c.acting_team == "PCs"


def test_critical_adjust() -> None:
    c = _duel(pistol("Ana"), pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [5, 0])  # exactly the level
    refused(c, CriticalChoice(fighter="Ana", choice="adjust", value=51), "1-50", actor=P1)
    c = go(c, CriticalChoice(fighter="Ana", choice="adjust", value=49), actor=P1)
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 9 at 4
    assert c.fighter("goon").character.level == 41


def test_critical_failure_loses_next_action_next_round() -> None:
    c = _duel(pistol("Ana"), pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, _events = run(c, React(fighter="Goon", reaction="pass"), [7, 7])
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.lose_next == 1
    assert c.acting_team == "NPCs"
    c = go(c, Done(), [3, 2, 6, 1])  # round 2
    assert c.round == 2 and c.fighter("ana").actions == 0 and c.fighter("ana").lose_next == 0
    assert c.fighter("goon").actions == 1


def test_good_reroll() -> None:
    good = pistol("Ana", max_level=60, abilities=("ranged_1h.good_attack",))
    c = _duel(good, pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [7, 2])
    assert kinds(c) == [(PromptKind.REROLL, "ana")]
    refused(c, Reroll(fighter="Ana", which="tens"), "Only their player", actor=P2)
    c, events = run(c, Reroll(fighter="Ana", which="tens"), [1], actor=P1)
    assert "Ana re-rolls tens: 12 (1·2) vs 50 — SUCCESS." in [e.text for e in events]
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "ana")]


def test_precise_modifier() -> None:
    sharp = pistol("Ana", max_level=60, abilities=("ranged_1h.precise_attack",))
    c = _duel(sharp, pistol("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [3, 8])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 3 at 8
    assert c.waiting_for()[0].kind is PromptKind.MODIFIER
    assert c.waiting_for()[0].options == ("precise+1", "precise-1", "none")
    c = go(c, Modifier(fighter="Ana", use="precise+1"), actor=P1)
    assert c.fighter("goon").character.marks("head") == "\\\\\\"


# ---- damage -----------------------------------------------------------------------------------


def test_book_damage_example_through_an_attack() -> None:
    hurt = knife("Bob", npc=True).model_copy(update={"wounds": {"right_leg": "\\\\\\"}})
    hurt = Character.model_validate(hurt.model_dump())
    c = _duel(knife("Ana"), hurt)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [2, 4])  # 24
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 4 damage, location 2
    bob = c.fighter("bob").character
    assert bob.level == 46
    assert bob.marks("right_leg") == "\\" * 6 and bob.marks("torso") == "\\"


def test_damage_die_zero_does_nothing() -> None:
    c = _duel(knife("Ana"), knife("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [0, 5])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)
    assert c.fighter("bob").character.level == 50 and not c.fighter("bob").character.wounds


def test_armor_choice() -> None:
    vest = Character(
        name="Bob",
        npc=True,
        level=50,
        max_level=50,
        items=(Item(name="Vest", kind="armor", location="torso"),),
    )
    c = _duel(knife("Ana"), vest)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # 6 at 4: torso
    assert kinds(c) == [(PromptKind.ARMOR, "bob")]
    c = go(c, Armor(fighter="Bob", use=True))
    bob = c.fighter("bob").character
    assert bob.level == 50 and bob.items[0].destroyed


def test_shield_holder_chooses_dice() -> None:
    guard = Character(
        name="Bob",
        npc=True,
        level=50,
        max_level=50,
        items=(Item(name="Riot shield", kind="shield"),),
        left_hand=0,
    )
    c = _duel(knife("Ana"), guard)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "bob")]


def test_less_lethal_lowers_level_only() -> None:
    c = _duel(knife("Ana"), knife("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob", lethal=False), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)
    bob = c.fighter("bob").character
    assert bob.level == 44 and not bob.wounds


def test_a_less_lethal_counterattack_with_a_knife_marks_no_wounds() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    options = c.waiting_for()[0].options
    assert options == ("defend", "counterattack", "counterattack_less_lethal", "pass")
    button = SPECS[PromptKind.REACT].command("counterattack_less_lethal", "goon")
    assert button == React(fighter="goon", reaction="counterattack", lethal=False)
    assert SPECS[PromptKind.REACT].label("counterattack_less_lethal") == (
        "Counterattack (less-lethal)")
    c, events = run(c, button, [2, 5, 1, 6])
    assert "Goon counterattacks with Knife (less-lethal)." in [e.text for e in events]
    a = c.attack
    assert a is not None and a.reactors[0].lethal is False  # the choice, kept on the reactor
    assert [h.lethal for h in a.hits] == [True, False]  # Ana's hit, then Goon's
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # Ana's lethal 5 at 2
    c, events = run(c, ChooseDice(fighter="Goon", damage="ones"), [6, 1, 3, 2])  # 6 at 1
    ana, goon = c.fighter("ana").character, c.fighter("goon").character
    assert ana.level == 44 and not ana.wounds  # less-lethal: the level only
    assert goon.level == 45 and goon.marks("right_leg") == "\\" * 5
    assert ("Ana takes 6 less-lethal damage on the left leg: level 50 → 44, no wounds marked."
            in [e.text for e in events])


def test_a_defend_cannot_be_less_lethal() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    refused(c, React(fighter="Goon", reaction="defend", lethal=False), "Defend deals no damage")


def _pistol_with(name: str, *ammo: Item, npc: bool = True) -> Character:
    return Character(name=name, npc=npc, level=50, max_level=50,
                     items=(Item(name="Pistol", kind="ranged_1h"), *ammo), right_hand=0)


def _intercept_window(interceptor: Character) -> Combat:
    """Ana moves from the dance floor to the bar; ``interceptor`` on the dance floor may
    intercept (range 0, a pistol reaches it). Cy keeps the PCs' turn going afterwards."""
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Cy"), "Alley", 200),
              (interceptor, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    return go(c, Move(fighter="Ana", to="Bar"), actor=P1)


def test_a_less_lethal_intercept_needs_less_lethal_ammo() -> None:
    c = _intercept_window(_pistol_with("Goon", BULLETS))
    assert c.waiting_for()[0].options == ("intercept", "pass")  # no less-lethal button
    refused(c, React(fighter="Goon", reaction="intercept", lethal=False),
            "Goon has no less-lethal ammo: a less-lethal intercept with Pistol needs a "
            "less-lethal ammo slot")
    refused(c, React(fighter="Goon", reaction="intercept", weapon="Pistol", lethal=False),
            "Goon has no less-lethal ammo")


def test_a_less_lethal_intercept_with_darts_only() -> None:
    c = _intercept_window(_pistol_with("Goon", DARTS))
    assert c.waiting_for()[0].options == ("intercept_less_lethal", "pass")
    refused(c, React(fighter="Goon", reaction="intercept"),
            "Goon has only less-lethal ammo left for Pistol: the intercept can only be "
            "less-lethal")
    c, events = run(c, React(fighter="Goon", reaction="intercept", lethal=False), [2, 4])
    assert "Goon intercepts with Pistol (less-lethal)." in [e.text for e in events]
    assert c.attack is not None and c.attack.intercept and not c.attack.lethal
    c = go(c, ChooseDice(fighter="Goon", damage="ones"))  # 4 at location 2: the right leg
    ana = c.fighter("ana")
    assert ana.character.level == 46 and not ana.character.wounds and ana.area == "Bar"


@pytest.mark.parametrize(("lethal", "destroyed"), [(True, "Bullets"), (False, "Darts")])
def test_a_ranged_intercept_fumble_destroys_ammo_of_its_sort(lethal: bool,
                                                              destroyed: str) -> None:
    c = _intercept_window(_pistol_with("Goon", BULLETS, DARTS))
    assert c.waiting_for()[0].options == ("intercept", "intercept_less_lethal", "pass")
    c, events = run(c, React(fighter="Goon", reaction="intercept", lethal=lethal), [7, 7])
    assert f"Goon's {destroyed} is destroyed (a ranged critical failure)." in [
        e.text for e in events]
    items = {it.name: it.destroyed for it in c.fighter("goon").character.items}
    assert items == {"Pistol": False, "Bullets": lethal, "Darts": not lethal}


def test_a_ranged_less_lethal_counterattack_fumble_destroys_the_darts() -> None:
    c = _duel(knife("Ana"), _pistol_with("Goon", BULLETS, DARTS))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="counterattack", weapon="pistol",
                             lethal=False), [9, 1, 8, 8, 6, 1, 3, 2])  # both miss: round 2
    texts = [e.text for e in events]
    assert "Goon counterattacks with Pistol (less-lethal)." in texts
    assert "Goon's Darts is destroyed (a ranged critical failure)." in texts


# ---- surrender, end, GM ------------------------------------------------------------------------


def test_surrender_during_window() -> None:
    c = setup(
        (pistol("Ana"), "Entrance", 100),
        (pistol("Bob", npc=True), "Entrance", None),
        (pistol("Cid", npc=True), "Bar", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    assert c.fighter("ana").actions == 0
    c, _events = run(c, Surrender(fighter="Bob"))
    assert c.attack is None and c.phase is Phase.TURN
    assert c.fighter("ana").actions == 1 and c.acting_team == "PCs"
    bob = c.fighter("bob")
    assert bob.character.level == 0 and status(bob.character, rules=RULES) is Status.SURRENDERED
    assert "Bob" not in legal_targets(c, "ana", RULES)
    refused(c, Attack(fighter="Ana", target="Bob"), "surrendered", actor=P1)


def test_surrender_of_the_last_ends_the_fight() -> None:
    c = _duel(pistol("Ana"), pistol("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c, events = run(c, Surrender(fighter="Bob"))
    assert c.phase is Phase.ENDED
    ended = [e for e in events if e.kind == "ended"]
    assert ended and "Bob (NPCs): level 0/50, surrendered" in ended[0].text


def test_no_surrender_after_dice() -> None:
    c = _duel(knife("Ana"), knife("Bob", npc=True))
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [4, 6])
    refused(c, Surrender(fighter="Bob"), "already rolled")


def test_gm_set_and_end() -> None:
    c = _duel(knife("Ana"), knife("Bob", npc=True))
    refused(c, GMSet(fighter="Ana", level=30), "Only a GM", actor=P1)
    c, events = run(c, GMSet(fighter="Ana", level=30, area="Bar", marks={"head": "X"}))
    ana = c.fighter("ana")
    assert ana.character.level == 30 and ana.area == "Bar" and ana.character.marks("head") == "X"
    assert events[0].kind == "gm_set" and events[0].text.startswith("GM correction to Ana")
    refused(c, EndCombat(), "Only a GM", actor=P1)
    c = go(c, EndCombat())
    assert c.phase is Phase.ENDED and c.waiting_for() == ()
    refused(c, Done(), "over")


# ---- refusals ---------------------------------------------------------------------------------


def test_illegal_commands_change_nothing() -> None:
    c = setup(
        (pistol("Ana"), "Entrance", 100),
        (knife("Kit"), "Entrance", 200),
        (pistol("Bob", npc=True), "Kitchen", None),
        (knife("Dee", npc=True), "Pool Tables", None),
        (knife("Zed", npc=True, level=5, max_level=50), "Entrance", None),
    )
    refused(c, Attack(fighter="Ana", target="Bob"), "has not begun", actor=P1)
    refused(c, Begin(), "Only a GM", actor=P1)
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Bob"), "out of range", actor=P1)  # range 2
    refused(c, Attack(fighter="Kit", target="Dee"), "out of range", actor=P2)
    refused(c, Attack(fighter="Ana", target="Dee"), "Only their player", actor=P2)
    refused(c, Attack(fighter="Bob", target="Ana"), "not Bob's turn")
    refused(c, Attack(fighter="Zed", target="Ana"), "not Zed's turn")
    refused(c, Attack(fighter="Ana", target="Kit", weapon="Sword"), "no item", actor=P1)
    refused(c, Done(team="NPCs"), "not NPCs")
    c = go(c, Attack(fighter="Ana", target="Dee"), actor=P1)  # range 1, through a cover mark
    refused(c, Attack(fighter="Kit", target="Zed"), "Wait", actor=P2)
    refused(c, React(fighter="Ana", reaction="defend"), "cannot react")
    refused(c, React(fighter="Dee", reaction="counterattack"), "cannot counterattack")
    refused(c, CloseWindow(by_timeout=True), "still open", now=10)
    refused(c, CloseWindow(), "Only a GM", actor=P1)
    c, _ = run(c, CloseWindow(by_timeout=True), [6, 0], now=45)  # 60: miss
    assert c.attack is None
    refused(c, Attack(fighter="Ana", target="Dee"), "no action left", actor=P1)


def test_no_line_of_sight() -> None:
    # Pool Tables to Kitchen: no line of sight (book); a 2H rifle reaches any range >= 1.
    rifle = Character(
        name="Ana",
        level=50,
        max_level=50,
        items=(Item(name="Rifle", kind="ranged_2h"), Item(name="Rounds", kind="ammo")),
        right_hand=0,
        left_hand=0,
    )
    c = setup((rifle, "Pool Tables", 100), (knife("Bob", npc=True), "Kitchen", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Bob"), "no line of sight", actor=P1)
    assert legal_targets(c, "ana", RULES) == ()
    assert legal_weapons(c, "ana", RULES) == ("Rifle",)


def test_unconscious_cannot_act() -> None:
    c = setup(
        (knife("Ana"), "Entrance", 100),
        (knife("Kit", level=50), "Entrance", 100),
        (knife("Bob", npc=True), "Entrance", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, GMSet(fighter="Kit", level=5))
    assert c.fighter("kit").actions == 0
    refused(c, Attack(fighter="Kit", target="Bob"), "unconscious", actor=P1)


# ---- persistence and the board ----------------------------------------------------------------


def test_json_round_trip_mid_window() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c, _ = run(c, Attack(fighter="Ana", target="Goon"), actor=P1, now=1000.0)
    text = c.model_dump_json()
    again = Combat.model_validate_json(text)
    assert again == c and again.waiting_for()[0].deadline == 1045.0
    cmd = command_adapter.validate_json(
        command_adapter.dump_json(React(fighter="Goon", reaction="defend"))
    )
    c2, _ = run(again, cmd, [3, 4, 4, 1, 6, 1, 3, 2])
    assert c2.attack is None


def test_render_board_fits() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    board = render_board(c, rules=RULES)
    assert len(board) <= 1990
    assert board.startswith("Round 1 · reaction · PCs acting")
    assert "Waiting for: Goon (react)" in board
    assert "Ana [PCs] Entrance 50/50 a0\n" in board


# ---- a whole fight ----------------------------------------------------------------------------


def test_whole_fight_ends_with_one_team_unconscious() -> None:
    c = setup(
        (knife("Ana", 60), "Dance Floor", 100),
        (pistol("Cy", 40), "Entrance", 200),
        (knife("Goon", 20, npc=True), "Dance Floor", None),
    )
    c = go(c, Begin(), [3, 4, 6, 2])  # Ana 34 wins; Goon 62 fails
    c = go(c, ChooseOrder(first_team="NPCs"), actor=P1)
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c = go(c, React(fighter="Ana", reaction="counterattack"), [1, 2, 5, 7], actor=P1)
    c = go(c, ChooseDice(fighter="Goon", damage="tens"))  # Ana: 1 at 2
    c = go(c, ChooseDice(fighter="Ana", damage="ones"), actor=P1)  # Goon: 7 at 5
    assert c.fighter("ana").character.level == 59
    assert c.fighter("goon").character.level == 13
    assert c.acting_team == "PCs"  # the NPCs have no action left: their turn ended
    assert kinds(c) == [(PromptKind.ACT, "cy")]
    c, events = run(c, Attack(fighter="Cy", target="Goon"), [3, 5], actor=P2)  # no window
    assert kinds(c) == [(PromptKind.CHOOSE_DICE, "cy")]
    c, events = run(c, ChooseDice(fighter="Cy", damage="ones"), actor=P2)  # 5 at 3
    assert c.phase is Phase.ENDED
    goon = c.fighter("goon").character
    assert goon.level == 8 and status(goon, rules=RULES) is Status.UNCONSCIOUS
    ended = next(e for e in events if e.kind == "ended")
    assert "Only PCs are left standing." in ended.text
    assert "Goon (NPCs): level 8/50, unconscious" in ended.text


# ---- weapons, ammo and items (004 "Ranged weapons", "Use or manage items") --------------------


def rifle(name: str, level: int = 50, npc: bool = False, *ammo: Item) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=max(level, 50),
        items=(Item(name="Rifle", kind="ranged_2h"), Item(name="Knife", kind="melee_1h"), *ammo),
        right_hand=0,
        left_hand=0,
    )


BULLETS = Item(name="Bullets", kind="ammo")
DARTS = Item(name="Darts", kind="ammo", less_lethal=True)


def test_a_2h_ranged_weapon_cannot_shoot_at_range_0() -> None:
    c = _duel(rifle("Ana", 50, False, BULLETS), knife("Goon", npc=True))
    refused(c, Attack(fighter="Ana", target="Goon"), "out of range for Rifle: range 0", P1)
    assert legal_targets(c, "ana", RULES) == ()


def test_ranged_attacks_need_ammo_of_the_right_sort() -> None:
    goon = knife("Goon", npc=True)
    c = setup((rifle("Ana", 50, False, DARTS), "Bar", 100), (goon, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Goon"), "no ammo left for a 2H ranged attack", P1)
    assert legal_targets(c, "ana", RULES) == ()
    c = go(c, Attack(fighter="Ana", target="Goon", lethal=False), actor=P1)  # the darts
    assert c.phase is Phase.REACTION

    c = setup((rifle("Ana", 50, False, BULLETS), "Bar", 100), (goon, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    refused(c, Attack(fighter="Ana", target="Goon", lethal=False), "no less-lethal ammo", P1)


def test_a_ranged_critical_failure_destroys_one_slot_of_ammo() -> None:
    ana = rifle("Ana", 50, False, BULLETS, BULLETS)
    c = setup((ana, "Bar", 100), (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="pass"), [8, 8])
    texts = [e.text for e in events]
    assert "Ana rolled a critical failure and loses the next action." in texts
    assert "Ana's Bullets is destroyed (a ranged critical failure)." in texts
    items = c.fighter("ana").character.items
    assert [it.destroyed for it in items if it.kind == "ammo"] == [True, False]


def test_a_melee_critical_failure_costs_no_ammo() -> None:
    c = _duel(knife("Ana"), knife("Goon", npc=True))
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c, events = run(c, React(fighter="Goon", reaction="pass"), [9, 9])
    assert not any(e.kind == "ammo" for e in events)


def _armed(name: str, npc: bool = False) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=50,
        max_level=50,
        items=(
            Item(name="Rifle", kind="ranged_2h"),
            Item(name="Pistol", kind="ranged_1h"),
            Item(name="Shield", kind="shield"),
            BULLETS,
            Item(name="Kit", kind="first_aid"),
        ),
        right_hand=1,
    )


def test_holding_an_item_takes_one_action_and_stows_what_is_in_the_way() -> None:
    c = _duel(_armed("Ana"), knife("Goon", npc=True))
    assert set(legal_items(c, "ana", RULES, "hold")) == {"Rifle", "Shield", "Kit"}
    c, events = run(c, ManageItems(fighter="Ana", op="hold", item="rifle"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.character.right_hand == ana.character.left_hand == 0
    assert events[0].text == "Ana takes Rifle: Ana has Rifle in both hands. (one action)"


def test_hold_refusals_change_nothing() -> None:
    c = _duel(_armed("Ana"), knife("Goon", npc=True))
    refused(c, ManageItems(fighter="Ana", op="hold", item="Pistol"), "already holds Pistol", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Shield", hand="left"),
            "cannot use Shield and Pistol at the same time", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Rifle", hand="left"),
            "needs both hands", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Bullets"), "not held in a hand", P1)
    refused(c, ManageItems(fighter="Ana", op="hold", item="Sword"), "no item called", P1)
    hurt = go(c, GMSet(fighter="Ana", marks={"left_arm": "\\\\\\"}))
    refused(hurt, ManageItems(fighter="Ana", op="hold", item="Rifle"),
            "needs both hands, and Ana cannot use one of them", P1)


def test_dropping_is_free_and_picking_up_takes_an_action() -> None:
    c = _duel(_armed("Ana"), knife("Goon", npc=True))
    c, events = run(c, ManageItems(fighter="Ana", op="drop", hand="right"), actor=P1)
    assert events[0].text == "Ana drops Pistol in Entrance (no action)."
    ana = c.fighter("ana")
    assert ana.actions == 1 and ana.character.right_hand is None
    assert "Pistol" not in legal_items(c, "ana", RULES, "hold")
    refused(c, ManageItems(fighter="Ana", op="hold", item="Pistol"), "pick it up first", P1)
    assert legal_items(c, "ana", RULES, "pickup") == ("Pistol",)
    c = go(c, ManageItems(fighter="Ana", op="pickup", item="Pistol"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.character.right_hand == 1 and ana.dropped == ()


def test_an_item_dropped_elsewhere_cannot_be_picked_up() -> None:
    c = _duel(_armed("Ana"), knife("Goon", npc=True))
    c = go(c, ManageItems(fighter="Ana", op="drop", item="Pistol"), actor=P1)
    c = go(c, GMSet(fighter="Ana", area="Dance Floor"))
    assert legal_items(c, "ana", RULES, "pickup") == ()
    refused(c, ManageItems(fighter="Ana", op="pickup", item="Pistol"), "lies in Entrance", P1)


def test_a_full_arm_drops_its_item_on_the_floor() -> None:
    c = _duel(knife("Goon", npc=True), _armed("Ana"), att_team_first="NPCs")
    c = go(c, GMSet(fighter="Ana", marks={"right_arm": "\\\\"}))
    c = go(c, Attack(fighter="Goon", target="Ana"))
    c = go(c, React(fighter="Ana", reaction="pass"), [1, 8], actor=P2)
    c = go(c, ChooseDice(fighter="Goon", damage="tens"))  # 1 damage to location 8: right arm
    ana = c.fighter("ana")
    assert ana.character.right_hand is None
    assert [(d.index, d.area) for d in ana.dropped] == [(1, "Entrance")]


def test_stow_and_use() -> None:
    c = _duel(_armed("Ana"), knife("Goon", npc=True))
    refused(c, ManageItems(fighter="Ana", op="use", item="Rifle"), "not in Ana's hands", P1)
    c, events = run(c, ManageItems(fighter="Ana", op="use", item="Pistol"), actor=P1)
    assert events[0].text == "Ana uses Pistol; the GM says what it does. (one action)"
    assert c.fighter("ana").actions == 0


def test_using_a_thing_noted_on_the_area() -> None:
    c = new_combat("Vault -- Hall\nVault: the alarm lever")
    c = go(c, AddFighter(character=knife("Ana"), area="Vault", owner_id=100))
    c = go(c, AddFighter(character=knife("Goon", npc=True), area="Hall"))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert legal_items(c, "ana", RULES, "use") == ("Knife", "the alarm lever")
    c, events = run(c, ManageItems(fighter="Ana", op="use", item="The Alarm Lever"), actor=P1)
    assert events[0].text.startswith("Ana uses the alarm lever in Vault")


def test_stow_empties_hands_for_one_action() -> None:
    c = _duel(_armed("Ana"), knife("Goon", npc=True))
    c = go(c, ManageItems(fighter="Ana", op="stow"), actor=P1)
    ana = c.fighter("ana")
    assert ana.actions == 0 and ana.character.right_hand is None
    empty = _duel(knife("Bob").model_copy(update={"right_hand": None}), knife("Goon", npc=True))
    refused(empty, ManageItems(fighter="Bob", op="stow"), "nothing in hand to stow", P1)


# ---- surrender while a move waits for Intercepts ------------------------------------------------


def _move_window() -> Combat:
    c = setup(
        (knife("Ana"), "Dance Floor", 100),
        (knife("Cy"), "Alley", 200),
        (knife("Goon", npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Dance Floor", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert kinds(c) == [(PromptKind.REACT, "goon"), (PromptKind.REACT, "rat")]
    return c


def test_a_mover_who_surrenders_before_the_dice_does_not_move() -> None:
    c = go(_move_window(), React(fighter="Goon", reaction="intercept"))
    assert c.fighter("goon").actions == 0
    c, events = run(c, Surrender(fighter="Ana"), actor=P1)
    assert "Ana's move does not take effect." in [e.text for e in events]
    assert c.move is None and c.fighter("ana").area == "Dance Floor"
    assert c.fighter("goon").actions == 1  # the Intercept was not spent
    assert status(c.fighter("ana").character, rules=RULES) is Status.SURRENDERED


def test_an_interceptor_who_surrenders_leaves_the_window() -> None:
    c = go(_move_window(), React(fighter="Rat", reaction="pass"))
    c = go(c, Surrender(fighter="Goon"))
    assert c.move is None and c.fighter("ana").area == "Bar"
