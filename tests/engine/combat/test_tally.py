"""What the fight counts for its recap (``Fighter.tally``): damage dealt and taken where it is
applied, who put whom out of action, the items used up; and the recap made from it."""

from __future__ import annotations

from engine.character import Item
from engine.combat import (
    AddFighter,
    AoE,
    AoEChoice,
    Armor,
    Attack,
    ChooseDice,
    Combat,
    EndCombat,
    FirstAid,
    React,
)
from engine.combat.model import Tally
from engine.combat.recap import MAX_ROWS, recap_text
from tests.engine.abilities.test_aoe import blast_fight, grenadier
from tests.engine.combat.helpers import (
    BULLETS,
    P1,
    P2,
    RULES,
    armed,
    begin,
    duel,
    go,
    knife,
    rifle,
    setup,
)


def _tally(c: Combat, name: str) -> Tally:
    return c.fighter(name).tally


def _hit(c: Combat, attacker: str, target: str, faces: list[int], actor=P1) -> Combat:
    """``attacker`` attacks ``target``, who passes; the dice hit; ones are damage."""
    c = go(c, Attack(fighter=attacker, target=target), actor=actor)
    c = go(c, React(fighter=target, reaction="pass"), faces)
    return go(c, ChooseDice(fighter=attacker, damage="ones"), actor=actor)


def test_a_hit_counts_the_levels_it_took_for_both_sides() -> None:
    c = _hit(duel(knife("Ana"), knife("Bob", npc=True)), "Ana", "Bob", [2, 4])
    assert c.fighter("bob").character.level == 46
    assert _tally(c, "Ana") == Tally(dealt=4)
    assert _tally(c, "Bob") == Tally(taken=4)


def test_armor_that_takes_the_hit_takes_no_level_and_is_used_up() -> None:
    vest = Item(name="Vest", kind="armor", location="torso")
    bob = knife("Bob", npc=True).model_copy(update={"items": (*knife("Bob").items, vest)})
    c = duel(knife("Ana"), bob)
    c = go(c, Attack(fighter="Ana", target="Bob"), actor=P1)
    c = go(c, React(fighter="Bob", reaction="pass"), [2, 4])
    c = go(c, ChooseDice(fighter="Ana", damage="tens"), actor=P1)  # 2 damage, torso
    c = go(c, Armor(fighter="Bob", use=True))
    assert c.fighter("bob").character.level == 50
    assert _tally(c, "Ana") == Tally()
    assert _tally(c, "Bob") == Tally(used_up=("Vest",))


def test_the_hit_that_knocks_out_says_by_whom_and_when() -> None:
    c = _hit(duel(knife("Ana"), knife("Bob", 12, npc=True)), "Ana", "Bob", [2, 4])
    assert _tally(c, "Bob") == Tally(taken=4, out_by="Ana", out_round=1)
    assert c.phase == "ended"
    assert recap_text(c, rules=RULES) == (
        "PCs win after 1 round.\n"
        "Out of action: Bob (knocked out by Ana, round 1).\n"
        "Damage:\n"
        "Ana (PCs): dealt 4, took 0\n"
        "Bob (NPCs): dealt 0, took 4"
    )


def test_a_blast_counts_for_its_user_and_each_target() -> None:
    # The book's example: Goon defends, Rat's vest takes his 4, Moe takes 2 in each leg.
    c = go(blast_fight(), AoE(fighter="You", area="dance floor"), [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)
    c = go(c, AoEChoice(fighter="Goon", option="defend"))
    c = go(c, AoEChoice(fighter="Rat", option="pass"))
    c = go(c, AoEChoice(fighter="Moe", option="pass"), [5, 0])
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Rat", option="torso"))
    c = go(c, AoEChoice(fighter="Rat", option="use"))
    for leg in ("right_leg", "right_leg", "left_leg", "left_leg"):
        c = go(c, AoEChoice(fighter="Moe", option=leg))
    assert _tally(c, "You") == Tally(dealt=4, used_up=("Grenade",))
    assert _tally(c, "Rat") == Tally(used_up=("Vest",))
    assert _tally(c, "Moe") == Tally(taken=4)
    assert _tally(c, "Goon") == Tally()


def test_continuous_damage_is_dealt_by_the_effects_user() -> None:
    c = go(blast_fight(grenadier(ability="aoe.continuous")), AoE(fighter="You", area="Dance Floor"),
           [4, 2], actor=P1)
    c = go(c, AoEChoice(fighter="You", option="tens"), actor=P1)  # 4 damage for 2 rounds
    c = go(c, Attack(fighter="Cy", target="Goon"), actor=P2)
    for _ in range(4):
        c = go(c, AoEChoice(fighter="Cy", option="torso"), actor=P2)
    assert _tally(c, "Cy") == Tally(taken=4)
    assert _tally(c, "You") == Tally(dealt=4, used_up=("Grenade",))


def test_damage_from_ones_own_blast_is_taken_not_dealt() -> None:
    c = go(blast_fight(grenadier(level=12)), AoE(fighter="You", area="dance floor"), [9, 9],
           actor=P1)  # 99: a critical failure, 18 damage to the user
    for _ in range(18):
        c = go(c, AoEChoice(fighter="You", option="left_leg"), actor=P1)
    assert _tally(c, "You") == Tally(taken=18, out_by="You", out_round=1,
                                     used_up=("Grenade",))
    assert "You (killed by themselves, round 1)" in recap_text(c, rules=RULES)


def test_ammo_lost_on_a_ranged_critical_failure_is_used_up() -> None:
    c = setup((rifle("Ana", 50, False, BULLETS, BULLETS), "Bar", 100),
              (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Attack(fighter="Ana", target="Goon"), actor=P1)
    c = go(c, React(fighter="Goon", reaction="pass"), [8, 8])
    assert _tally(c, "Ana") == Tally(used_up=("Bullets",))


def test_a_first_aid_item_is_used_up() -> None:
    medic = armed("Ana").model_copy(update={"right_hand": 4})  # the kit in hand
    cy = knife("Cy").model_copy(update={"wounds": {"torso": "\\"}})
    c = setup((medic, "Bar", 100), (cy, "Bar", 200),
              (knife("Goon", npc=True), "Alley", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, FirstAid(fighter="Ana", target="Cy"), [9, 5], actor=P1)  # 95: a failure
    assert _tally(c, "Ana").used_up == ("Kit",)


def test_the_gm_ending_the_fight_is_said() -> None:
    c = _hit(duel(knife("Ana"), knife("Bob", npc=True)), "Ana", "Bob", [2, 4])
    c = go(c, EndCombat())
    assert recap_text(c, rules=RULES).splitlines()[0] == (
        "The GM ended the fight in round 1. Still standing: PCs, NPCs.")


def test_used_up_items_are_counted_per_fighter() -> None:
    c = setup((knife("Ana"), "Bar", 100), (knife("Bob", npc=True), "Bar", None))
    c = c.model_copy(update={"phase": "ended", "round": 2, "fighters": tuple(
        f.model_copy(update={"tally": Tally(used_up=("Bullets", "Grenade", "Bullets"))})
        for f in c.fighters)})
    assert recap_text(c, rules=RULES).splitlines()[1:] == [
        "Nobody took any damage.",
        "Used up: Ana: Bullets ×2, Grenade; Bob: Bullets ×2, Grenade.",
    ]


def test_a_big_fight_is_summed_up_within_the_limit() -> None:
    c = setup((knife("Ana"), "Bar", 100))
    for n in range(40):
        c = go(c, AddFighter(character=knife(f"Goon number {n:02} " + "x" * 17, npc=True),
                             area="Bar"))
    fighters = [c.fighters[0].model_copy(update={"tally": Tally(dealt=400)}), *(
        f.model_copy(update={"tally": Tally(taken=10 + i, out_by="Ana", out_round=3,
                                            used_up=("Grenade", "Bullets"))})
        for i, f in enumerate(c.fighters[1:]))]
    fighters = [f.model_copy(update={"character": f.character.model_copy(update={"level": 5})})
                if f.character.npc else f for f in fighters]
    c = c.model_copy(update={"phase": "ended", "round": 3, "fighters": tuple(fighters)})
    text = recap_text(c, rules=RULES)
    lines = text.splitlines()
    assert len(text) <= 1500
    assert lines[0] == "PCs win after 3 rounds."
    assert lines[1].startswith("Out of action: Goon number 00 ")
    assert lines[1].endswith(" more.")
    rows = lines[lines.index("Damage:") + 1:]
    assert rows[0] == "Ana (PCs): dealt 400, took 0"
    # the most hurt have a line each; the rest are summed up
    assert len([r for r in rows if r.startswith("Goon")]) == MAX_ROWS - 2
    assert rows[MAX_ROWS - 1] == f"{40 - MAX_ROWS + 2} others: dealt 0, took " \
        f"{sum(10 + i for i in range(40 - MAX_ROWS + 2))}"
    assert rows[-1].startswith("Used up: Goon number 00 ") and rows[-1].endswith(" more.")


def test_copies_out_of_action_alike_share_one_entry() -> None:
    c = setup((knife("Ana"), "Bar", 100))
    for n in range(1, 31):
        c = go(c, AddFighter(character=knife(f"Goon {n}", npc=True), area="Bar"))
    fighters = [c.fighters[0], *(
        f.model_copy(update={"tally": Tally(out_by="Ana", out_round=3 if n < 30 else 4),
                             "character": f.character.model_copy(update={"level": 0})})
        for n, f in enumerate(c.fighters[1:], 1))]
    c = c.model_copy(update={"phase": "ended", "round": 4, "fighters": tuple(fighters)})
    assert recap_text(c, rules=RULES).splitlines()[1] == (
        "Out of action: Goon 1-29 (knocked out by Ana, round 3), "
        "Goon 30 (knocked out by Ana, round 4).")
