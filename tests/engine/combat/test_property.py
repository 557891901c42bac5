"""004 "Combat": random legal commands keep a fight sound and storable."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.character import Character, Item
from engine.combat import (
    AddFighter,
    AidMark,
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
from engine.combat.actions.rally import rally_problem
from engine.combat.commands import Rearrange
from engine.combat.prompts import SPECS
from engine.dice import RandomDice
from tests.engine.combat.helpers import CLUB, GM, RULES

AREAS = ("Entrance", "Dance Floor", "Bar", "Pool Tables", "Catwalk")
LEADER = ("leader.good_initiative", "leader.rally", "leader.direct", "leader.initiative_direct")


EXTRA = ((), ("speed.move_twice",), ("stealth.hide",))  # one more ability, or none


def _fighter(name: str, npc: bool, weapon: int, level: int, extra: int = 0,
             leader: bool = False) -> Character:
    items = (
        (Item(name="Knife", kind="melee_1h"),),
        (Item(name="Pistol", kind="ranged_1h"), Item(name="Bullets", kind="ammo")),
        (Item(name="Axe", kind="melee_2h"),),
        (),  # bare hands
    )[weapon] + (Item(name="Kit", kind="first_aid"),)
    right = None if weapon == 3 else 0
    left = 0 if weapon == 2 else None
    abilities = (
        ("melee_1h.good_attack", "melee_1h.precise_attack", "melee_1h.critical_lose_action"),
        ("ranged_1h.good_attack", "ranged_1h.precise_attack"),
        ("melee_2h.powerful_attack", "melee_2h.no_counterattack", "melee_2h.critical_destroy"),
        ("unarmed.fight", "unarmed.stop_movement"),
    )[weapon] + ("first_aid.sure",) + EXTRA[extra]
    if leader:  # one weapon ability and every Leader one (max level 90: room for five)
        abilities = (*abilities[:1], *LEADER)
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=90,
        items=items,
        right_hand=right,
        left_hand=left,
        abilities=abilities,
    )


def _check(c: Combat) -> None:
    for f in c.fighters:
        assert f.actions >= 0 and f.lose_next >= 0
        assert 0 <= f.reactions <= f.spent
        held = {f.character.right_hand, f.character.left_hand}
        assert not any(d.index in held for d in f.dropped), "a dropped item is still in hand"
    assert Combat.model_validate_json(c.model_dump_json()) == c


def _choices(c: Combat, data: st.DataObject) -> list[Command]:
    options: list[Command] = []
    for p in c.waiting_for():
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
                options.append(Attack(fighter=name, target=data.draw(st.sampled_from(targets))))
            moves = legal_moves(c, name, RULES)
            if moves:
                to = data.draw(st.sampled_from(moves))
                options.append(Move(fighter=name, to=to))
                then = legal_second_moves(c, name, RULES, to)
                if then:
                    options.append(Move(fighter=name, to=to, then=data.draw(st.sampled_from(then))))
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
                near = [f.name for f in c.fighters if f.area == me.area]
                options.append(FirstAid(fighter=name, target=data.draw(st.sampled_from(near))))
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
        elif p.kind is PromptKind.STOP_AREA:
            options.append(StopArea(fighter=name, area=data.draw(st.sampled_from(p.options))))
        elif p.options and p.kind in (
            PromptKind.AID_SURE,
            PromptKind.AID_DICE,
            PromptKind.AID_BOXES,
            PromptKind.AID_PERMANENT,
        ):
            options.append(AidMark(fighter=name, option=data.draw(st.sampled_from(p.options))))
    return options


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32))
def test_random_fights_stay_sound(data: st.DataObject, seed: int) -> None:
    dice = RandomDice(seed)
    c = new_combat(CLUB)
    for i, (name, npc) in enumerate((("Ana", False), ("Cy", False), ("Goon", True), ("Rat", True))):
        ch = _fighter(name, npc, data.draw(st.integers(0, 3)), data.draw(st.integers(15, 60)),
                      data.draw(st.integers(0, len(EXTRA) - 1)),
                      leader=data.draw(st.integers(0, 3)) == 0)
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
        if not choices:
            break
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
