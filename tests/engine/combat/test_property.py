"""004 "Combat": random legal commands keep a fight sound and storable."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.character import Character, Item
from engine.character.abilities import abilities_open
from engine.combat import (
    AddFighter,
    AidMark,
    AllOutDefend,
    AoE,
    AoEChoice,
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
    DestroyItem,
    Direct,
    Done,
    Fighter,
    FirstAid,
    ManageItems,
    Modifier,
    Move,
    Phase,
    PromptKind,
    Rally,
    RefuseDirection,
    Reroll,
    StopArea,
    Surrender,
    apply,
    legal_directs,
    legal_items,
    legal_moves,
    legal_second_moves,
    legal_targets,
    new_combat,
)
from engine.combat.actions.first_aid import treatable
from engine.combat.actions.rally import rally_problem
from engine.combat.at_hand import abilities_at_hand
from engine.combat.commands import Rearrange
from engine.combat.prompts import SPECS
from engine.combat.weapons import attack_problem, weapons
from engine.dice import RandomDice
from tests.engine.combat.helpers import CLUB, GM, RULES

AREAS = ("Entrance", "Dance Floor", "Bar", "Pool Tables", "Catwalk")
WEAPONS = (
    (Item(name="Knife", kind="melee_1h"),),
    (Item(name="Pistol", kind="ranged_1h"), Item(name="Bullets", kind="ammo")),
    (Item(name="Axe", kind="melee_2h"),),
    (Item(name="Rifle", kind="ranged_2h"), Item(name="Bullets", kind="ammo")),
    (),  # bare hands
)


def _fighter(data: st.DataObject, name: str, npc: bool) -> Character:
    """A character with a weapon (or bare hands), a first aid kit, and a random legal set of
    combat abilities: each drawn from those open to it (room by max level, prerequisites);
    a shield with a Shield ability (or sometimes without), an AoE item per AoE ability."""
    weapon = data.draw(st.integers(0, len(WEAPONS) - 1))
    max_level = data.draw(st.sampled_from((50, 60, 70, 80, 90)))
    level = data.draw(st.integers(15, max_level))
    ch = Character(name=name, npc=npc, level=level, max_level=max_level)
    for _ in range(data.draw(st.integers(0, 5))):
        open_ = abilities_open(ch, rules=RULES)
        if not open_:
            break
        ability = data.draw(st.sampled_from([a.id for a in open_]))
        ch = ch.model_copy(update={"abilities": (*ch.abilities, ability)})
    items = WEAPONS[weapon] + (Item(name="Kit", kind="first_aid"),)
    if any(a.startswith("shield.") for a in ch.abilities) or data.draw(st.integers(0, 5)) == 0:
        items += (Item(name="Shield", kind="shield"),)
    items += tuple(Item(name=f"Grenade {n}", kind="aoe", ability=a)
                   for n, a in enumerate(a for a in ch.abilities if a.startswith("aoe.")))
    right, left = (None if weapon == 4 else 0), (0 if weapon in (2, 3) else None)
    if items[-1].kind == "aoe" and data.draw(st.booleans()):  # ready to throw (both hands)
        right = left = len(items) - 1
    return ch.model_copy(update={"items": items, "right_hand": right, "left_hand": left})


def _check(c: Combat) -> None:
    for f in c.fighters:
        assert f.actions >= 0 and f.lose_next >= 0
        assert 0 <= f.reactions <= f.spent
        held = {f.character.right_hand, f.character.left_hand}
        assert not any(d.index in held for d in f.dropped), "a dropped item is still in hand"
    assert Combat.model_validate_json(c.model_dump_json()) == c
    for p in c.waiting_for():  # the board's line on the abilities at hand can always be said
        abilities_at_hand(c, p, RULES)


AOE_PROMPTS = (PromptKind.AOE_DICE, PromptKind.AOE_TARGET, PromptKind.AOE_DEFEND,
               PromptKind.AOE_PLACE, PromptKind.AOE_ARMOR)


def _aoe(c: Combat, me: Fighter) -> list[str]:
    """The areas ``me`` may throw the AoE item held in both hands at (range 0-1, in sight)."""
    ch = me.character
    held = ch.right_hand
    if held is None or held != ch.left_hand or ch.items[held].kind != "aoe":
        return []
    if ch.items[held].destroyed or ch.items[held].ability not in ch.abilities:
        return []
    m = c.game_map()
    return [a for a in m.areas
            if m.range(me.area, a) in (0, 1) and m.line_of_sight(me.area, a)]


def _choices(c: Combat, data: st.DataObject) -> list[Command]:
    options: list[Command] = []
    answered: set[int] = set()
    before, previous = 0, None
    for p in c.waiting_for():
        if len(options) != before:  # the previous prompt's answers
            answered.add(id(previous))
        before, previous = len(options), p
        name = p.fighter or ""
        if p.kind in (PromptKind.ACT, PromptKind.DIRECTED):
            me = c.fighter(name)
            for who in legal_directs(c, name, RULES):
                options.append(Direct(fighter=name, target=who))
            if p.kind is PromptKind.DIRECTED:
                options.append(RefuseDirection(fighter=name))
            options.append(Done(team=p.team))
            if p.kind is PromptKind.ACT and me.actions == 0:
                continue  # an action that can only direct
            if rally_problem(c, name) is None:
                options.append(Rally(fighter=name))
            targets = legal_targets(c, name, RULES)
            if targets:
                target = data.draw(st.sampled_from(targets))
                usable = [w.name for w in weapons(me, RULES)
                          if attack_problem(c, me, c.fighter(target), w, RULES) is None]
                options.append(Attack(fighter=name, target=target,
                                      weapon=data.draw(st.sampled_from([None, *usable]))))
            aoe = _aoe(c, me)
            if aoe:
                options.append(AoE(fighter=name, area=data.draw(st.sampled_from(aoe))))
            moves = legal_moves(c, name, RULES)
            if moves:
                to = data.draw(st.sampled_from(moves))
                options.append(Move(fighter=name, to=to))
                then = legal_second_moves(c, name, RULES, to)
                if then:
                    options.append(Move(fighter=name, to=to, then=data.draw(st.sampled_from(then))))
            holdable = legal_items(c, name, RULES, "hold")
            grenades = [it.name for it in me.character.items
                        if it.kind == "aoe" and it.name in holdable]
            if grenades:  # an AoE item, taken in both hands to throw next
                options.append(ManageItems(fighter=name, op="hold", item=grenades[0]))
            for op in ("hold", "pickup", "drop"):
                items = legal_items(c, name, RULES, op)
                if items:
                    item = data.draw(st.sampled_from(items))
                    options.append(ManageItems(fighter=name, op=op, item=item))  # type: ignore[arg-type]
            if me.character.right_hand is not None or me.character.left_hand is not None:
                options.append(ManageItems(fighter=name, op="stow"))
            hands = [(None, "", *legal_items(c, name, RULES, h)) for h in ("right", "left")]
            options.append(Rearrange(fighter=name, right=data.draw(st.sampled_from(hands[0])),
                                     left=data.draw(st.sampled_from(hands[1]))))
            if "Kit" in legal_items(c, name, RULES, "drop"):
                near = [f.name for f in c.fighters  # with a \\ to treat (rules notes 57)
                        if f.area == me.area and treatable(f.character)]
                if near:
                    options.append(FirstAid(fighter=name,
                                            target=data.draw(st.sampled_from(near))))
        elif p.kind is PromptKind.CHOOSE_ORDER:
            options.append(ChooseOrder(first_team=data.draw(st.sampled_from(p.options))))
        elif p.kind is PromptKind.CHOOSE_NEXT:
            options.append(ChooseOrder(order=(data.draw(st.sampled_from(p.options)),)))
        elif p.kind in (PromptKind.CHOOSE_ROLLER, PromptKind.LEADER_ROLLS):
            options.append(ChooseRoller(fighter=data.draw(st.sampled_from(p.options))))
        elif p.kind is PromptKind.END_RALLY:
            options.append(Rally(fighter=name, skip=data.draw(st.booleans())))
        elif p.kind is PromptKind.REACT:
            reaction = data.draw(st.sampled_from(p.options))  # a button: lethal or not
            options.append(SPECS[p.kind].command(reaction, name))
            options.append(CloseWindow(by_timeout=True))
        elif p.kind is PromptKind.REROLL:
            options.append(Reroll(fighter=name, which=data.draw(st.sampled_from(p.options))))  # type: ignore[arg-type]
        elif p.kind is PromptKind.CRITICAL:
            for choice in p.options:
                if choice != "adjust":
                    options.append(CriticalChoice(fighter=name, choice=choice))  # type: ignore[arg-type]
            options.append(CriticalChoice(fighter=name, choice="adjust", value=1))
        elif p.kind is PromptKind.DESTROY:
            options.append(DestroyItem(fighter=name, item=data.draw(st.sampled_from(p.options))))
        elif p.kind is PromptKind.CHOOSE_DICE:
            options.append(ChooseDice(fighter=name, damage=data.draw(st.sampled_from(p.options))))  # type: ignore[arg-type]
        elif p.kind is PromptKind.MODIFIER:
            options.append(Modifier(fighter=name, use=data.draw(st.sampled_from(p.options))))  # type: ignore[arg-type]
        elif p.kind is PromptKind.ARMOR:
            options.append(Armor(fighter=name, use=data.draw(st.booleans())))
        elif p.kind is PromptKind.ALL_OUT_DEFEND:
            options.append(AllOutDefend(fighter=name))
        elif p.kind in AOE_PROMPTS:
            options.append(AoEChoice(fighter=name, option=data.draw(st.sampled_from(p.options))))
        elif p.kind is PromptKind.STOP_AREA:
            options.append(StopArea(fighter=name, area=data.draw(st.sampled_from(p.options))))
        elif p.options and p.kind in (
            PromptKind.AID_SURE,
            PromptKind.AID_DICE,
            PromptKind.AID_BOXES,
            PromptKind.AID_PERMANENT,
        ):
            options.append(AidMark(fighter=name, option=data.draw(st.sampled_from(p.options))))
    if previous is not None and len(options) != before:
        answered.add(id(previous))
    unanswerable = [p for p in c.waiting_for() if id(p) not in answered]
    assert not unanswerable, f"no answer offered to {unanswerable}"
    return options


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32))
def test_random_fights_stay_sound(data: st.DataObject, seed: int) -> None:
    dice = RandomDice(seed)
    c = new_combat(CLUB)
    for i, (name, npc) in enumerate((("Ana", False), ("Cy", False), ("Goon", True), ("Rat", True))):
        ch = _fighter(data, name, npc)
        area = data.draw(st.sampled_from(AREAS))
        team = data.draw(st.sampled_from([None, "Gangers"])) if name == "Rat" else None
        c, _ = apply(
            c,
            AddFighter(character=ch, area=area, team=team, owner_id=None if npc else 100 + i),
            actor=GM,
            dice=dice,
            rules=RULES,
            now=0.0,
        )
    c, _ = apply(c, Begin(), actor=GM, dice=dice, rules=RULES, now=0.0)
    now = 0.0
    for _ in range(60):
        _check(c)
        if c.phase is Phase.ENDED:
            break
        choices = _choices(c, data)
        if data.draw(st.integers(0, 20)) == 0:
            alive = [f.name for f in c.fighters if f.character.level >= 10]
            if alive:
                choices = [Surrender(fighter=data.draw(st.sampled_from(alive)))]
        assert choices, f"the fight is stuck: {c.phase.value}, nothing to answer or do"
        cmd = data.draw(st.sampled_from(choices))
        now += 50.0
        try:
            c, _ = apply(c, cmd, actor=GM, dice=dice, rules=RULES, now=now)
        except Exception as error:  # pragma: no cover - a failure shows the command
            if isinstance(cmd, Surrender | CloseWindow):
                from engine.errors import RuleError

                assert isinstance(error, RuleError)
                continue
            if isinstance(cmd, Rearrange) and any(  # hands drawn at random may not go together
                    why in str(error) for why in (
                        "Nothing to rearrange", "needs both hands", "at the same time",
                        "cannot be in both hands")):
                continue
            raise AssertionError(f"{cmd!r} was offered but refused: {error}") from error
    _check(c)
