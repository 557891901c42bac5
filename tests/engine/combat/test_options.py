"""What a fighter may start now (``engine.combat.options``): each group appears exactly when the
engine would accept its commands, every option applied is accepted, and on random fights the
options are exactly the commands of each kind the engine accepts."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.character import Character, Item
from engine.combat import (
    Actor,
    AddFighter,
    AllOutDefend,
    AoE,
    Attack,
    Begin,
    Combat,
    Command,
    Direct,
    Door,
    EndCombat,
    FirstAid,
    GMSet,
    ManageItems,
    Move,
    Option,
    OptionGroup,
    Phase,
    Rally,
    apply,
    legal_directs,
    legal_doors,
    legal_items,
    legal_moves,
    legal_second_moves,
    new_combat,
    option,
    options,
)
from engine.combat.context import Context
from engine.combat.fighters import acting_fighter
from engine.combat.options import (
    ID_MAX,
    LABEL_MAX,
    MOVE_OPTIONS_MAX,
    Slot,
    candidate,
    label_text,
    legal_options,
    slot_values,
)
from engine.combat.weapons import attack_problem, weapons
from engine.dice import RandomDice, ScriptedDice
from engine.errors import RuleError
from engine.phrases import english
from engine.textwidth import width
from tests.engine.combat.helpers import (
    BULLETS,
    CLUB,
    DARTS,
    GM,
    P1,
    P2,
    RULES,
    begin,
    go,
    knife,
    pistol,
    pistol_with,
    refused,
    setup,
)
from tests.engine.combat.test_property import AREAS, _choices, _fighter

KIT = Item(name="Kit", kind="first_aid")
#: The nightclub with a door, closed, between the bar and the kitchen.
CLUB_WITH_DOOR = CLUB.replace("\nBar --| Kitchen", "\nBar -[]- Kitchen")
assert CLUB_WITH_DOOR != CLUB


def labels(c: Combat, name: str, actor: Actor = GM,
           group: OptionGroup | None = None) -> list[str]:
    found = options(c, name, RULES, actor)
    return [label_text(o.label) for o in found if group is None or o.group is group]


def chosen(c: Combat, name: str, actor: Actor, option_id: str) -> Command:
    """The command of ``name``'s option ``option_id`` (which must be there)."""
    found = option(c, name, RULES, actor, option_id)
    assert found is not None, option_id
    return found.command


def club() -> Combat:
    """Ana (P1's: a knife in hand, a kit in the pack) and Goon (an NPC with a knife) on the
    dance floor; Cy (P2's, a pistol) in the entrance, Rat (an NPC, a pistol) at the bar. The
    PCs act first."""
    ana = knife("Ana").model_copy(update={"items": (Item(name="Knife", kind="melee_1h"), KIT)})
    c = setup((ana, "Dance Floor", 100), (pistol("Cy"), "Entrance", 200),
              (knife("Goon", npc=True), "Dance Floor", None),
              (pistol("Rat", npc=True), "Bar", None))
    return begin(c, [3, 2, 6, 1], "PCs")


# ---- each group, when it is legal and when not -----------------------------------------------


def test_the_acting_fighter_sees_every_group_in_order() -> None:
    found = options(club(), "Ana", RULES, P1)
    assert [(o.group.value, o.id, label_text(o.label)) for o in found] == [
        ("attack", "attack:goon:0", "Goon with Knife"),
        ("attack", "attack:goon:0:less", "Goon with Knife (less-lethal)"),
        ("move", "move:1", "DJ Booth"),
        ("move", "move:3", "Bar"),
        ("move", "move:4", "Pool Tables"),
        ("move", "move:5", "Entrance"),
        ("items", "items:hold:1:right", "Hold Kit (right hand)"),
        ("items", "items:hold:1:left", "Hold Kit (left hand)"),
        ("items", "items:use:0", "Use Knife"),
        ("items", "items:stow:0:right", "Stow Knife (right hand)"),
        ("items", "items:drop:0:right", "Drop Knife (right hand)"),
    ]
    assert found[1].command == Attack(fighter="Ana", target="Goon", weapon="Knife", lethal=False)
    assert found[6].command == ManageItems(fighter="Ana", op="hold", item="Kit", hand="right")
    assert found[10].command == ManageItems(fighter="Ana", op="drop", hand="right")


def test_every_option_applied_is_accepted_and_does_what_it_says() -> None:
    c = club()
    said = []
    for o in options(c, "Ana", RULES, P1):
        _, events = apply(c, o.command, actor=P1, dice=RandomDice(7), rules=RULES, now=0.0)
        said.append(english(events[0].text))
    assert said == [
        "Ana attacks Goon with Knife.",
        "Ana attacks Goon with Knife (less-lethal).",
        "Ana moves from Dance Floor to DJ Booth.",
        "Ana moves from Dance Floor to Bar.",
        "Ana moves from Dance Floor to Pool Tables.",
        "Ana moves from Dance Floor to Entrance.",
        "Ana takes Kit: Ana has Kit in the right hand. (one action)",
        "Ana takes Kit: Ana has Knife in the right hand and Kit in the left hand. (one action)",
        "Ana uses Knife; the GM says what it does. (one action)",
        "Ana stows: Ana has nothing in hand. (one action)",
        "Ana drops Knife in Dance Floor (no action).",
    ]


def test_ranged_attacks_reach_and_the_other_teams_come_first() -> None:
    c = club()
    assert labels(c, "Cy", P2) == [
        "Goon with Pistol", "Ana with Pistol",  # range 1, and a teammate after the enemies
        "Dance Floor", "Pool Tables",
        "Use Pistol", "Stow Pistol (right hand)", "Drop Pistol (right hand)",
        "Use PCs may start here",  # noted on the entrance: for /item use, not the panel
    ]


def test_not_your_turn_leaves_only_free_drops() -> None:
    c = club()
    assert labels(c, "Goon") == ["Drop Knife (right hand)"]  # dropping is free, at any time
    empty = go(c, ManageItems(fighter="Goon", op="drop"))
    assert labels(empty, "Goon") == []


def test_nothing_while_an_attack_waits_for_reactions() -> None:
    c = go(club(), Attack(fighter="Ana", target="Goon"), actor=P1)
    assert c.phase is Phase.REACTION
    assert labels(c, "Ana") == labels(c, "Goon") == labels(c, "Cy") == []


def test_no_action_left_leaves_only_free_drops() -> None:
    c = go(club(), GMSet(fighter="Ana", actions=0))
    assert labels(c, "Ana", P1) == ["Drop Knife (right hand)"]


def test_only_those_who_control_the_fighter_see_its_options() -> None:
    c = club()
    assert labels(c, "Ana", P2) == []
    assert labels(c, "Ana", GM) == labels(c, "Ana", P1)
    assert options(c, "Nobody", RULES, GM) == ()


def test_nothing_before_the_fight_begins_or_after_it_ends() -> None:
    c = setup((knife("Ana"), "Dance Floor", 100), (knife("Goon", npc=True), "Dance Floor", None))
    assert labels(c, "Ana") == []
    ended = go(begin(c, [3, 2, 6, 1], "PCs"), EndCombat())
    assert ended.phase is Phase.ENDED and labels(ended, "Ana") == []


def test_a_directed_fighter_acts_with_no_action_of_their_own() -> None:
    c = setup(
        (knife("Kit", abilities=("leader.direct",)), "Dance Floor", 200),
        (knife("Ana"), "Dance Floor", 100),
        (knife("Bob", npc=True), "Dance Floor", None),
    )
    c = go(begin(c, [3, 4, 6, 2], "PCs"), GMSet(fighter="Ana", actions=0))
    assert labels(c, "Ana", P1) == ["Drop Knife (right hand)"]
    assert labels(c, "Kit", P2, OptionGroup.ABILITY) == ["Direct Ana"]
    directed = go(c, chosen(c, "Kit", P2, "ability:direct:ana"), actor=P2)
    assert labels(directed, "Ana", P1, OptionGroup.ATTACK) == [
        "Bob with Knife", "Bob with Knife (less-lethal)",  # the other team first
        "Kit with Knife", "Kit with Knife (less-lethal)",
    ]
    assert labels(directed, "Kit", P2) == ["Drop Knife (right hand)"]  # the action is given


def test_bare_hands_need_unarmed_combat() -> None:
    bare = Character(name="Ana", level=50, max_level=50)
    fist = bare.model_copy(update={"abilities": ("unarmed.fight",)})
    for ch, expected in ((bare, []), (fist, ["Goon with bare hands",
                                            "Goon with bare hands (less-lethal)"])):
        c = setup((ch, "Dance Floor", 100), (knife("Goon", npc=True), "Dance Floor", None))
        c = begin(c, [3, 2, 6, 1], "PCs")
        assert labels(c, "Ana", P1, OptionGroup.ATTACK) == expected
    assert options(c, "Ana", RULES, P1)[0].command == Attack(
        fighter="Ana", target="Goon", weapon="unarmed")


def test_a_less_lethal_ranged_attack_needs_less_lethal_ammo() -> None:
    for ammo, expected in (
        ((BULLETS,), ["Goon with Pistol"]),
        ((DARTS,), ["Goon with Pistol (less-lethal)"]),
        ((BULLETS, DARTS), ["Goon with Pistol", "Goon with Pistol (less-lethal)"]),
        ((), []),
    ):
        c = setup((pistol_with("Ana", *ammo, npc=False), "Entrance", 100),
                  (knife("Goon", npc=True), "Dance Floor", None))
        c = begin(c, [3, 2, 6, 1], "PCs")
        assert labels(c, "Ana", P1, OptionGroup.ATTACK) == expected, ammo


def test_speed_offers_each_two_step_move() -> None:
    c = setup((knife("Ana", abilities=("speed.move_twice",)), "Alley", 100),
              (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    found = [o for o in options(c, "Ana", RULES, P1) if o.group is OptionGroup.MOVE]
    assert [(o.id, label_text(o.label)) for o in found] == [
        ("move:6", "Kitchen"), ("move:6:3", "Kitchen, then Bar"),
        ("move:6:7", "Kitchen, then Alley"),
    ]
    assert found[1].command == Move(fighter="Ana", to="Kitchen", then="Bar")


def test_two_step_moves_are_left_out_when_they_would_not_fit_one_menu() -> None:
    rooms = [f"Room {n}" for n in range(7)]  # every room joined to every other
    c = new_combat("\n".join(f"{a} -- {b}" for i, a in enumerate(rooms) for b in rooms[i + 1:]))
    c = go(c, AddFighter(character=knife("Ana", abilities=("speed.move_twice",)),
                         area="Room 0", owner_id=100))
    c = go(c, AddFighter(character=knife("Goon", npc=True), area="Room 1"))
    c = begin(c, [3, 2, 6, 1], "PCs")
    pairs = sum(len(legal_second_moves(c, "ana", RULES, room)) for room in rooms[1:])
    assert 6 + pairs > MOVE_OPTIONS_MAX
    assert labels(c, "Ana", P1, OptionGroup.MOVE) == rooms[1:]  # the slash command has them
    assert option(c, "Ana", RULES, P1, "move:1:2") is None
    hub = setup((knife("Ana", abilities=("speed.move_twice",)), "Dance Floor", 100),
                (knife("Goon", npc=True), "Kitchen", None))
    moves = labels(begin(hub, [3, 2, 6, 1], "PCs"), "Ana", P1, OptionGroup.MOVE)
    assert len(moves) == 4 + 8 and "Bar, then Kitchen" in moves  # the club's hub fits


def test_a_door_is_opened_when_closed_and_closed_when_open() -> None:
    for door, expected in (("[]", "Open"), ("[ ]", "Close")):
        c = new_combat(f"Hall -{door}- Vault\nHall -- Study\nStudy -[]- Vault")
        c = go(c, AddFighter(character=knife("Ana"), area="Hall", owner_id=100))
        c = go(c, AddFighter(character=knife("Goon", npc=True), area="Vault"))
        c = begin(c, [3, 2, 6, 1], "PCs")
        doors = [o for o in options(c, "Ana", RULES, P1) if o.group is OptionGroup.DOOR]
        assert [(o.id, label_text(o.label)) for o in doors] == [
            (f"door:1:{expected.lower()}", f"{expected} the door to Vault")]
        assert doors[0].command == Door(fighter="Ana", other="Vault", open=expected == "Open")
        assert option(c, "Ana", RULES, P1, "door:1:open" if door == "[ ]" else "door:1:close") \
            is None


def test_first_aid_for_everyone_in_the_area_with_a_kit_in_hand() -> None:
    c = go(club(), ManageItems(fighter="Ana", op="hold", item="Kit", hand="left"), actor=P1)
    c = go(c, GMSet(fighter="Ana", actions=1, marks={"head": "\\"}))
    c = go(c, GMSet(fighter="Goon", marks={"torso": "X\\"}))
    found = [o for o in options(c, "Ana", RULES, P1) if o.group is OptionGroup.FIRST_AID]
    assert [(o.id, label_text(o.label)) for o in found] == [
        ("first_aid:ana", "First aid to Ana"), ("first_aid:goon", "First aid to Goon")]
    assert found[1].command == FirstAid(fighter="Ana", target="Goon")
    assert labels(club(), "Ana", P1, OptionGroup.FIRST_AID) == []  # the kit is in the pack


def test_first_aid_only_to_someone_with_a_mark_it_can_treat() -> None:
    """Only \\ marks are treatable (004 "Damage"; rules notes 57): unhurt, or only X and ■
    marks, first aid would change nothing, so it is not offered (nor accepted)."""
    c = go(club(), ManageItems(fighter="Ana", op="hold", item="Kit", hand="left"), actor=P1)
    c = go(c, GMSet(fighter="Ana", actions=1))
    assert labels(c, "Ana", P1, OptionGroup.FIRST_AID) == []  # nobody is hurt
    c = go(c, GMSet(fighter="Goon", marks={"torso": "X", "head": "■"}))
    assert labels(c, "Ana", P1, OptionGroup.FIRST_AID) == []  # beyond first aid
    c = go(c, GMSet(fighter="Goon", marks={"torso": "X\\"}))
    assert labels(c, "Ana", P1, OptionGroup.FIRST_AID) == ["First aid to Goon"]


def test_a_player_is_not_told_a_hidden_npc_has_nothing_to_treat() -> None:
    """Rules notes 57: while the NPCs' figures are hidden, refusing first aid on an unhurt
    NPC would tell its marks, so a player's is offered; the GM, who sees them, is not."""
    c = go(club(), ManageItems(fighter="Ana", op="hold", item="Kit", hand="left"), actor=P1)
    c = go(c, GMSet(fighter="Ana", actions=1)).model_copy(update={"hide_npcs": True})
    assert labels(c, "Ana", P1, OptionGroup.FIRST_AID) == ["First aid to Goon"]
    assert labels(c, "Ana", GM, OptionGroup.FIRST_AID) == []


def test_items_picked_up_after_a_drop_and_both_hands_at_once() -> None:
    c = go(club(), ManageItems(fighter="Ana", op="drop"), actor=P1)
    assert labels(c, "Ana", P1, OptionGroup.ITEMS) == [
        "Hold Kit (right hand)", "Hold Kit (left hand)",
        "Pick up Knife (right hand)", "Pick up Knife (left hand)",
    ]
    c = go(club(), ManageItems(fighter="Ana", op="hold", item="Kit", hand="left"), actor=P1)
    c = go(c, GMSet(fighter="Ana", actions=1))
    assert labels(c, "Ana", P1, OptionGroup.ITEMS) == [
        "Use Knife",
        "Stow Knife (right hand)", "Stow Kit (left hand)", "Stow Knife and Kit",
        "Drop Knife (right hand)", "Drop Kit (left hand)", "Drop Knife and Kit",
    ]  # using a kit is first aid, not "use": the engine refuses it, so it is not offered
    assert chosen(c, "Ana", P1, "items:stow:0+1:both") == ManageItems(fighter="Ana", op="stow",
                                                                      hand="both")


def test_a_two_handed_item_takes_both_hands() -> None:
    rifle = Character(name="Ana", level=50, max_level=50,
                      items=(Item(name="Rifle", kind="ranged_2h"), BULLETS))
    c = setup((rifle, "Pool Tables", 100), (knife("Cy"), "Bar", 200),  # Cy keeps the turn
              (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert labels(c, "Ana", P1, OptionGroup.ITEMS) == ["Hold Rifle (both hands)"]
    c = go(c, chosen(c, "Ana", P1, "items:hold:0:both"), actor=P1)
    c = go(c, GMSet(fighter="Ana", actions=1))
    assert labels(c, "Ana", P1, OptionGroup.ITEMS) == ["Use Rifle", "Stow Rifle", "Drop Rifle"]


def test_aoe_on_each_area_in_reach_and_sight() -> None:
    grenadier = Character(name="You", level=50, max_level=50, abilities=("aoe.blast",),
                          items=(Item(name="Grenade", kind="aoe", ability="aoe.blast"),),
                          right_hand=0, left_hand=0)
    c = setup((grenadier, "Entrance", 100), (knife("Goon", npc=True), "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    found = [o for o in options(c, "You", RULES, P1) if o.group is OptionGroup.AOE]
    assert [(o.id, label_text(o.label)) for o in found] == [
        ("aoe:0:2", "Grenade on Dance Floor"), ("aoe:0:4", "Grenade on Pool Tables"),
        ("aoe:0:5", "Grenade on Entrance"),
    ]
    assert found[0].command == AoE(fighter="You", area="Dance Floor", item="Grenade")
    assert labels(c, "You", P1, OptionGroup.ATTACK) == []  # an AoE item attacks areas only


def test_rally_direct_and_all_out_defend() -> None:
    lea = knife("Lea", max_level=70, abilities=("leader.rally", "leader.direct"))
    shield = Character(name="Sam", level=50, max_level=50, npc=True,
                       abilities=("shield.all_out_defend",),
                       items=(Item(name="Shield", kind="shield"),), right_hand=0)
    c = setup((lea, "Dance Floor", 100), (knife("Ana"), "Bar", 100),
              (shield, "Dance Floor", None))
    c = begin(c, [3, 2, 6, 1], "PCs")
    assert labels(c, "Lea", P1, OptionGroup.ABILITY) == ["Rally PCs", "Direct Ana"]
    assert options(c, "Lea", RULES, P1)[-2].command == Rally(fighter="Lea")
    # All-Out Defend: before the round's first action, even on the other team's turn
    assert labels(c, "Sam", GM, OptionGroup.ABILITY) == ["All-Out Defend"]
    assert chosen(c, "Sam", GM, "ability:all_out_defend") == AllOutDefend(fighter="Sam")
    c = go(c, Move(fighter="Ana", to="Dance Floor"), actor=P1)
    assert labels(c, "Sam", GM, OptionGroup.ABILITY) == []
    c = go(c, Rally(fighter="Lea"), [9, 8], actor=P1)  # fails: once a fight all the same
    assert labels(c, "Lea", P1, OptionGroup.ABILITY) == []


def test_an_option_is_found_by_its_id_until_it_is_no_longer_possible() -> None:
    c = club()
    for o in options(c, "Ana", RULES, P1):
        assert option(c, "Ana", RULES, P1, o.id) == o
    moved = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert option(moved, "Ana", RULES, P1, "move:3") is None
    for bad in ("", "nonsense", "attack", "attack:", "move:99", "items:hold:9:right"):
        assert option(c, "Ana", RULES, P1, bad) is None
    assert option(c, "Ana", RULES, P2, "move:3") is None  # not P2's fighter


def test_long_names_fit_a_label_and_an_id() -> None:
    blade = "Blade " + "x" * 34  # 40 characters
    for name, other, less_label in (
        ("A" * 32, "B" * 32, "B" * 32 + " with Blade " + "x" * 21 + "… (less-lethal)"),
        ("山" * 32, "田" * 32, "田" * 9 + "… with " + blade + " (less-lethal)"),  # 64 columns
    ):
        ch = knife(name).model_copy(update={"items": (Item(name=blade, kind="melee_1h"),
                                                      Item(name="K" * 40, kind="first_aid"))})
        c = setup((ch, "Dance Floor", 100), (knife(other, npc=True), "Dance Floor", None))
        c = begin(c, [3, 2, 6, 1], "PCs")
        found = options(c, name, RULES, P1)
        assert all(len(o.id) <= ID_MAX for o in found)
        said = [label_text(o.label) for o in found]
        assert all(len(label) <= LABEL_MAX and width(label) <= LABEL_MAX for label in said)
        less = next(o for o in found if isinstance(o.command, Attack) and not o.command.lethal)
        # the longest name is cut, to 80 columns (or 79: a CJK character takes two)
        assert label_text(less.label) == less_label
        assert width(less_label) in (LABEL_MAX - 1, LABEL_MAX)
        assert less.command == Attack(fighter=name, target=other, weapon=blade, lethal=False)


# ---- a property on random fights -------------------------------------------------------------


class _Rolled(Exception):
    """A die was asked for."""


class _NoDice:
    def die(self) -> int:
        raise _Rolled


def _verdict(c: Combat, cmd: Command) -> bool:
    """Whether the engine accepts ``cmd`` from the GM, and proof that dice never decide: a
    refusal comes before any die, and a command that rolls is accepted whatever the dice."""
    try:
        apply(c, cmd, actor=GM, dice=_NoDice(), rules=RULES, now=0.0)
    except RuleError:
        return False
    except _Rolled:
        for faces in ([0] * 40, [9] * 40, [4, 4] * 20):
            apply(c, cmd, actor=GM, dice=ScriptedDice(faces), rules=RULES, now=0.0)
    return True


def _every_command(c: Combat, name: str) -> list[Command]:
    """Every command of each kind the options cover, for one fighter, in its plain form (a
    named weapon and hand), without looking at what is legal: every fighter, area, item."""
    f = c.fighter(name)
    ch = f.character
    m = c.game_map()
    fighters = [g.name for g in c.fighters]
    items = list(dict.fromkeys(it.name for it in ch.items))
    found: list[Command] = [Rally(fighter=name), AllOutDefend(fighter=name)]
    for t in fighters:
        found += [Direct(fighter=name, target=t), FirstAid(fighter=name, target=t)]
        found += [Attack(fighter=name, target=t, weapon=w, lethal=lethal)
                  for w in (*items, "unarmed") for lethal in (True, False)]
    for area in m.areas:
        found += [AoE(fighter=name, area=area, item=i) for i in items]
        found += [Move(fighter=name, to=area), Door(fighter=name, other=area, open=True),
                  Door(fighter=name, other=area, open=False)]
        found += [Move(fighter=name, to=area, then=then) for then in m.areas]
    in_hand = {ch.items[i].name for i in (ch.right_hand, ch.left_hand) if i is not None}
    for item in items:
        for op in ("hold", "pickup"):
            if op == "pickup" or item not in in_hand:  # moving it to the other hand: not listed
                found += [ManageItems(fighter=name, op=op, item=item, hand=h)  # type: ignore[arg-type]
                          for h in ("right", "left", "both")]
        found += [ManageItems(fighter=name, op="use", item=item),
                  ManageItems(fighter=name, op="drop", item=item)]
    found += [ManageItems(fighter=name, op="use", item=note) for note in m.notes(f.area)]
    found += [ManageItems(fighter=name, op=op, hand=h)  # type: ignore[arg-type]
              for op in ("stow", "drop") for h in ("right", "left", "both")]
    return found


def _choice(c: Combat, name: str, cmd: Command) -> tuple[object, ...]:
    """What a command chooses, so that two ways of saying one choice compare equal (a hand, or
    the item in it)."""
    ch = c.fighter(name).character
    if isinstance(cmd, ManageItems) and cmd.op in ("stow", "drop"):
        if cmd.item is not None:
            leaving = {next(i for i, it in enumerate(ch.items) if it.name == cmd.item)}
        else:
            hands = ("right", "left") if cmd.hand in (None, "both") else (cmd.hand,)
            leaving = {ch.held(h) for h in hands} - {None}  # type: ignore[arg-type]
        return (cmd.op, frozenset(leaving))
    return tuple(cmd.model_dump().values())


def _check_options(c: Combat, name: str) -> None:
    found = options(c, name, RULES, GM)
    assert found == options(c, name, RULES, GM)  # stable
    ids = [o.id for o in found]
    assert len(set(ids)) == len(ids)
    said = [label_text(o.label) for o in found]
    assert all(len(o.id) <= ID_MAX for o in found)
    assert all(0 < len(label) <= LABEL_MAX and width(label) <= LABEL_MAX for label in said)
    order = list(OptionGroup)
    assert [order.index(o.group) for o in found] == sorted(order.index(o.group) for o in found)
    for o in found:
        assert option(c, name, RULES, GM, o.id) == o
        assert candidate(c, name, RULES, o.id) == o  # a pick's command, unchecked: the same
    _check_slots(c, name)

    accepted = [cmd for cmd in _every_command(c, name) if _verdict(c, cmd)]
    moves = [cmd for cmd in accepted if isinstance(cmd, Move)]
    if len(moves) > MOVE_OPTIONS_MAX:  # two-step moves would not fit one menu
        accepted = [cmd for cmd in accepted if not isinstance(cmd, Move) or cmd.then is None]
    chosen = [_choice(c, name, o.command) for o in found]
    assert len(set(chosen)) == len(chosen), "two options make the same choice"
    assert set(chosen) == {_choice(c, name, cmd) for cmd in accepted}

    f = c.fighter(name)
    try:
        acting_fighter(c, name, Context(actor=GM, dice=_NoDice(), rules=RULES, now=0.0))
    except RuleError:
        return
    commands = [o.command for o in found]
    for t in c.fighters:  # every legal (target, weapon) pair
        for w in weapons(f, RULES):
            if attack_problem(c, f, t, w, RULES) is None and t.key != f.key:
                assert Attack(fighter=f.name, target=t.name, weapon=w.name) in commands
    to = {(cmd.to, cmd.then) for cmd in commands if isinstance(cmd, Move)}
    for area in legal_moves(c, name, RULES):
        assert (area, None) in to
        if len(moves) <= MOVE_OPTIONS_MAX:
            assert {(area, then) for then in legal_second_moves(c, name, RULES, area)} <= to
    assert {cmd.other for cmd in commands if isinstance(cmd, Door)} == set(
        legal_doors(c, name, RULES))
    for op in ("hold", "pickup"):
        named = {cmd.item for cmd in commands if isinstance(cmd, ManageItems) and cmd.op == op}
        assert named == set(legal_items(c, name, RULES, op))
    dropped = {_choice(c, name, cmd) for cmd in commands
               if isinstance(cmd, ManageItems) and cmd.op == "drop"}
    for item in legal_items(c, name, RULES, "drop"):
        assert _choice(c, name, ManageItems(fighter=name, op="drop", item=item)) in dropped
    directs = {cmd.target for cmd in commands if isinstance(cmd, Direct)}
    assert directs == set(legal_directs(c, name, RULES))


def _slot_names(commands: list[Command], ch: Character) -> dict[Slot, set[str]]:
    """What each slash command's option may name, read straight off accepted commands."""
    names: dict[Slot, set[str]] = {slot: set() for slot in Slot}
    for cmd in commands:
        if isinstance(cmd, Attack):
            names[Slot.TARGET].add(cmd.target)
            names[Slot.WEAPON].add(cmd.weapon or "")
        elif isinstance(cmd, Move):
            names[Slot.MOVE if cmd.then is None else Slot.SECOND_MOVE].add(cmd.then or cmd.to)
        elif isinstance(cmd, Door):
            names[Slot.DOOR].add(cmd.other)
        elif isinstance(cmd, Direct):
            names[Slot.DIRECT].add(cmd.target)
        elif isinstance(cmd, FirstAid):
            names[Slot.FIRST_AID].add(cmd.target)
        elif isinstance(cmd, ManageItems) and cmd.op == "drop":
            hands = [h for h in ("right", "left") if cmd.hand in (None, "both", h)]
            names[Slot.DROP] |= {ch.items[i].name for h in hands  # type: ignore[arg-type]
                                 if (i := ch.held(h)) is not None}  # type: ignore[arg-type]
        elif isinstance(cmd, ManageItems) and cmd.op in ("hold", "pickup", "use"):
            names[Slot(cmd.op)].add(cmd.item or "")
    return names


def _check_slots(c: Combat, name: str) -> None:
    """Each slot's names (what autocomplete offers) are those of the commands the engine
    accepts now; while the fighter may start no action, those of every candidate."""
    accepted = [o.command for g in OptionGroup for o in legal_options(c, name, RULES, GM, g)]
    expected = _slot_names(accepted, c.fighter(name).character)
    try:
        acting_fighter(c, name, Context(actor=GM, dice=_NoDice(), rules=RULES, now=0.0))
    except RuleError:
        return  # every candidate: the command says why not
    for slot in Slot:
        offered = slot_values(c, name, RULES, GM, slot)
        assert len(set(offered)) == len(offered)
        assert set(offered) == expected[slot], slot
    for target in expected[Slot.TARGET]:  # a weapon for the target given
        weapons = {cmd.weapon for cmd in accepted if isinstance(cmd, Attack)
                   and cmd.target == target}
        assert set(slot_values(c, name, RULES, GM, Slot.WEAPON, target)) == weapons
    for to in expected[Slot.MOVE]:  # a second step after the first one given
        then = {cmd.then for cmd in accepted if isinstance(cmd, Move) and cmd.to == to
                and cmd.then is not None}
        assert set(slot_values(c, name, RULES, GM, Slot.SECOND_MOVE, to.upper())) == then


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32))
def test_random_fights_offer_exactly_what_the_engine_accepts(data: st.DataObject,
                                                             seed: int) -> None:
    dice = RandomDice(seed)
    c = new_combat(data.draw(st.sampled_from((CLUB, CLUB_WITH_DOOR))),
                   hide_npcs=data.draw(st.booleans()))
    for i, (name, npc) in enumerate((("Ana", False), ("Cy", False), ("Goon", True), ("Rat", True))):
        ch = _fighter(data, name, npc)
        area = data.draw(st.sampled_from(AREAS))
        cmd = AddFighter(character=ch, area=area, owner_id=None if npc else 100 + i)
        c, _ = apply(c, cmd, actor=GM, dice=dice, rules=RULES, now=0.0)
    c, _ = apply(c, Begin(), actor=GM, dice=dice, rules=RULES, now=0.0)
    for _ in range(30):
        if c.phase is Phase.ENDED:
            break
        _check_options(c, data.draw(st.sampled_from([f.name for f in c.fighters])))
        cmd = data.draw(st.sampled_from(_choices(c, data)))
        try:
            c, _ = apply(c, cmd, actor=GM, dice=dice, rules=RULES, now=0.0)
        except RuleError:
            continue  # a random rearrangement or a late surrender: the property's own test


def test_an_option_is_a_plain_value() -> None:
    o = options(club(), "Ana", RULES, P1)[0]
    assert Option.model_validate_json(o.model_dump_json()) == o


# ---- one answer per state; a pick unchecked; the slash commands' options --------------------


def test_a_state_is_asked_once_and_a_new_state_anew() -> None:
    c = club()
    first = options(c, "Ana", RULES, P1)
    for group in OptionGroup:  # kept while the state lives
        assert legal_options(c, "Ana", RULES, P1, group) is legal_options(c, "ana", RULES, P1,
                                                                           group)
    assert options(c.model_copy(), "Ana", RULES, P1) == first  # the same fight: the same
    assert options(c, "Ana", RULES, P2) == ()  # kept per actor: P2 does not command Ana
    moved = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert options(moved, "Ana", RULES, P1) != first


def test_a_pick_is_built_without_a_check_and_refused_by_the_engine() -> None:
    c = club()
    attack = candidate(c, "Ana", RULES, "attack:goon:0")
    assert attack is not None and attack.command == Attack(fighter="Ana", target="Goon",
                                                           weapon="Knife")
    spent = go(c, GMSet(fighter="Ana", actions=0))
    stale = candidate(spent, "Ana", RULES, "move:3")  # still built: applying it is the check
    assert stale is not None and option(spent, "Ana", RULES, P1, "move:3") is None
    refused(spent, stale.command, "no action left", actor=P1)
    for bad in ("", "nonsense", "attack:", "move:99", "items:hold:9:right"):
        assert candidate(c, "Ana", RULES, bad) is None
    assert candidate(c, "Nobody", RULES, "move:3") is None


def test_the_slash_commands_options_name_what_may_start_now() -> None:
    c = club()
    assert slot_values(c, "Ana", RULES, P1, Slot.TARGET) == ("Goon",)
    assert slot_values(c, "Ana", RULES, P1, Slot.WEAPON, "goon") == ("Knife",)
    assert slot_values(c, "Ana", RULES, P1, Slot.MOVE) == (
        "DJ Booth", "Bar", "Pool Tables", "Entrance")
    assert slot_values(c, "Ana", RULES, P1, Slot.HOLD) == ("Kit",)
    assert slot_values(c, "Ana", RULES, P1, Slot.DROP) == ("Knife",)
    assert slot_values(c, "Ana", RULES, P1, Slot.USE) == ("Knife",)
    assert slot_values(c, "Ana", RULES, P2, Slot.TARGET) == ()  # not P2's to command
    # Another team's turn: what Goon's gear and place allow (the command says why not).
    assert options(c, "Goon", RULES, GM) == (
        options(c, "Goon", RULES, GM)[0],)  # only the free drop is accepted now
    assert slot_values(c, "Goon", RULES, GM, Slot.TARGET) == ("Ana",)
    assert "Bar" in slot_values(c, "Goon", RULES, GM, Slot.MOVE)
