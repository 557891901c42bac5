"""What a fighter can attack with, and whether a target is in reach (004 "Attack", "Items",
"Line of Sight", "Surrender"; RULINGS 8-10, 12): a target still in the fight, held items,
unarmed with the Unarmed Combat ability, range, line of sight (a hidden target's Stealth mark
counts) and ammo."""

from __future__ import annotations

from engine.catalog import Action, Hand, ItemKind, Rules
from engine.character import HANDS, Character, Status, status, usable_hands, usable_held
from engine.combat.abilities.hooks import extra_weapons, marks_to_block
from engine.combat.fighters import opponents_then_team, out_of_fight
from engine.combat.hidden_npcs import STATUS_WORDS
from engine.combat.model import Combat, Fighter
from engine.combat.stealth import hidden
from engine.combat.step_values import UNARMED, Weapon
from engine.errors import RuleError
from engine.listing import any_of
from engine.names import name_key
from engine.phrases import Phrase, Said, phrase

__all__ = [
    "UNARMED",
    "ammo_problem",
    "ammo_slot",
    "attack_problem",
    "choose_weapon",
    "first_each_way",
    "held_shield",
    "in_range",
    "legal_targets",
    "legal_weapons",
    "pick_weapon",
    "range_text",
    "target_problem",
    "weapon_label",
    "weapon_label_phrase",
    "weapons",
    "with_ammo",
]



#: What an item may be used for, as "lets Ana use it only to attack" says it.
_TO_ACT: dict[Action, Phrase] = {
    Action.ATTACK: phrase("to attack"),
    Action.COUNTERATTACK: phrase("to counterattack"),
    Action.INTERCEPT: phrase("to intercept"),
    Action.DEFEND: phrase("to defend"),
    Action.FIRST_AID: phrase("to give first aid"),
    Action.INITIATIVE: phrase("to roll initiative"),
    Action.MOVE: phrase("to move"),
}


def held_shield(c: Character, rules: Rules) -> bool:
    """A shield in a usable hand: its holder chooses the damage die against them."""
    return any(
        rules.items.kind(c.items[i].kind).defender_chooses_dice
        for i in usable_held(c, rules=rules)
    )


def ammo_slot(c: Character, rules: Rules, *, less_lethal: bool) -> int | None:
    """The index of an intact ammo slot of that sort (less-lethal or not), if any."""
    for index, it in enumerate(c.items):
        if (
            not it.destroyed
            and it.less_lethal == less_lethal
            and rules.items.kind(it.kind).is_ammo
        ):
            return index
    return None


def ammo_problem(f: Fighter, kind: ItemKind, lethal: bool, rules: Rules) -> Phrase | None:
    """Why a ranged attack cannot be made for want of ammo: a lethal one needs a slot of ammo,
    a less-lethal one a less-lethal slot ("a separate ammo slot dedicated to that effect")."""
    if not kind.needs_ammo:
        return None
    c = f.character
    if ammo_slot(c, rules, less_lethal=not lethal) is not None:
        return None
    if lethal:
        return phrase("{name} has no ammo left for a {kind} attack (one slot is needed).",
                      name=c.name, kind=kind.said_short)
    return phrase("{name} has no less-lethal ammo for a less-lethal ranged attack.", name=c.name)


def weapons(f: Fighter, rules: Rules, action: Action = Action.ATTACK) -> tuple[Weapon, ...]:
    """Everything the fighter could make ``action`` (Attack, Counterattack, Intercept) with
    now, range aside: weapons in hand, then what abilities give (an item that attacks only
    with an ability, as a shield does, is the ability's to give), unarmed last."""
    c = f.character
    usable = usable_hands(c, rules=rules)
    found: list[Weapon] = []
    seen: set[int] = set()
    for hand in HANDS:
        index = c.held(hand)
        if index is None or index in seen:
            continue
        seen.add(index)
        item = c.items[index]
        kind = rules.items.kind(item.kind)
        if kind.attack_requires is None and _item_problem(c, index, rules, usable) is None:
            found.append(Weapon(name=item.name, kind=kind.id, mark=kind.wound_mark))
    extra = sorted(extra_weapons(c, rules, usable, action), key=lambda w: w.kind == UNARMED)
    return (*found, *extra)


def _item_problem(c: Character, index: int, rules: Rules,
                  usable: tuple[Hand, ...]) -> Phrase | None:
    item = c.items[index]
    kind = rules.items.kind(item.kind)
    if kind.attack is None:
        return phrase("{item} is not a weapon.", item=item.name)
    if kind.attack == "aoe":
        return phrase("{item} is an AoE weapon: it attacks an area, not a character "
                      "(use /aoe area:).", item=item.name)
    if kind.attack_requires and kind.attack_requires not in c.abilities:
        ability = rules.abilities.ability(kind.attack_requires)
        return phrase("{name} needs the ability {ability} to attack with {item}.", name=c.name,
                      ability=ability.said_title, item=item.name)
    hands = [h for h in HANDS if c.held(h) == index]
    if len(hands) < kind.hands:
        return phrase("{item} needs both hands.", item=item.name)
    if any(h not in usable for h in hands):
        return phrase("{name} cannot use the hand holding {item}.", name=c.name, item=item.name)
    for h in HANDS:
        other = c.held(h)
        if other is not None and other != index and c.items[other].kind in kind.not_held_with:
            return phrase("{name} cannot use {item} while holding {other}.", name=c.name,
                          item=item.name, other=c.items[other].name)
    return None


def pick_weapon(
    f: Fighter, name: str | None, rules: Rules, action: Action = Action.ATTACK
) -> Weapon | None:
    """The named weapon for ``action`` (RuleError if it cannot be used), or None when no name
    was given."""
    if name is None:
        return None
    c = f.character
    key = name_key(name)
    for w in weapons(f, rules, action):
        if w.name.casefold() == key:
            return w
    if key == UNARMED:
        raise RuleError(phrase("{name} cannot fight unarmed (that needs the Unarmed Combat "
                               "ability).", name=c.name))
    for index, item in enumerate(c.items):
        if item.name.casefold() == key and not item.destroyed:
            if index not in (c.right_hand, c.left_hand):
                raise RuleError(phrase("{item} is not in {name}'s hands.", item=item.name,
                                       name=c.name))
            problem = _item_problem(c, index, rules, usable_hands(c, rules=rules))
            raise RuleError(problem or _not_for(c, index, rules, action))
    raise RuleError(phrase("{name} has no item called {item}.", name=c.name,
                           item=repr(name.strip())))


def _not_for(c: Character, index: int, rules: Rules, action: Action) -> Phrase:
    """Why an item in hand that can attack cannot make ``action``: its ability names other
    actions (a shield attacks in an Attack only)."""
    item = c.items[index]
    needed = rules.items.kind(item.kind).attack_requires
    if needed is None:
        return phrase("{name} cannot attack with {item}.", name=c.name, item=item.name)
    ability = rules.abilities.ability(needed)
    allowed = any_of([_TO_ACT[a] for a in ability.actions])
    return phrase("{ability} lets {name} use {item} only {allowed}, not {action}.",
                  ability=ability.said_title, name=c.name, item=item.name, allowed=allowed,
                  action=_TO_ACT[action])


def with_ammo(f: Fighter, found: list[Weapon], rules: Rules, lethal: bool) -> list[Weapon]:
    """Those of ``found`` that ``f`` has ammo for, of the sort the damage needs."""
    return [
        w for w in found
        if w.kind == UNARMED or ammo_problem(f, rules.items.kind(w.kind), lethal, rules) is None
    ]


def first_each_way(f: Fighter, found: list[Weapon],
                   rules: Rules) -> tuple[Weapon | None, Weapon | None]:
    """The first of ``found`` ``f`` could use lethally, and the first less-lethally (a
    reaction offers both from one look at the weapons)."""
    lethal, gentle = with_ammo(f, found, rules, True), with_ammo(f, found, rules, False)
    return (lethal[0] if lethal else None), (gentle[0] if gentle else None)


def in_range(w: Weapon, distance: int, rules: Rules) -> bool:
    if w.kind == UNARMED:
        return distance == 0
    return rules.items.kind(w.kind).in_range(distance)


def _reach_problem(c: Combat, f: Fighter, t: Fighter, w: Weapon,
                   rules: Rules) -> Phrase | None:
    m = c.game_map()
    distance = m.range(f.area, t.area)
    if distance is None:
        return phrase("{target} is out of range: no path leads from {start} to {end}.",
                      target=t.name, start=f.area, end=t.area)
    if not in_range(w, distance, rules):
        return phrase("{target} is out of range for {weapon}: range {distance} ({reach}).",
                      target=t.name, weapon=weapon_label_phrase(w), distance=distance,
                      reach=range_text(w, rules))
    concealed = hidden(c, t, rules)
    if not m.line_of_sight(f.area, t.area, marks_to_block=marks_to_block(f.character, w),
                           hidden=concealed):
        if concealed and m.line_of_sight(f.area, t.area,
                                         marks_to_block=marks_to_block(f.character, w)):
            return phrase("{name} has no line of sight from {start} to {end}: {target} is "
                          "hidden (Stealth).", name=f.name, start=f.area, end=t.area,
                          target=t.name)
        return phrase("{name} has no line of sight from {start} to {end}.", name=f.name,
                      start=f.area, end=t.area)
    return None


def range_text(w: Weapon, rules: Rules) -> Phrase:
    """How far ``w`` reaches: "reaches range 1-3"."""
    if w.kind == UNARMED:
        return phrase("reaches range {low}", low=0)
    kind = rules.items.kind(w.kind)
    low, high = kind.min_range or 0, kind.max_range  # a weapon has its min_range (catalog)
    if high is None:
        return phrase("reaches range {low} or more", low=low)
    if low == high:
        return phrase("reaches range {low}", low=low)
    return phrase("reaches range {low}-{high}", low=low, high=high)


def weapon_label(w: Weapon) -> str:
    """What ``w`` is called in English: its item's name, or "bare hands"."""
    return "bare hands" if w.kind == UNARMED else w.name


def weapon_label_phrase(w: Weapon) -> Said:
    """:func:`weapon_label` in the reader's language (an item's name stays as it is)."""
    return phrase("bare hands") if w.kind == UNARMED else w.name


def target_problem(f: Fighter, t: Fighter, rules: Rules) -> Phrase | None:
    """Why ``f`` cannot attack ``t`` with any weapon: ``t`` is ``f``, or out of the fight (dead
    or surrendered; an unconscious fighter is still a target)."""
    if t.key == f.key:
        return phrase("{name} cannot attack themselves.", name=f.name)
    if out_of_fight(t, rules):
        now = status(t.character, rules=rules)
        if now is Status.DEAD:
            return phrase("{name} is dead; they are out of the fight.", name=t.name)
        if now is Status.SURRENDERED:
            return phrase("{name} is surrendered; they are out of the fight.", name=t.name)
        return phrase("{name} is {status}; they are out of the fight.", name=t.name,
                      status=STATUS_WORDS[now])
    return None


def attack_problem(
    c: Combat, f: Fighter, t: Fighter, w: Weapon, rules: Rules, lethal: bool = True
) -> Phrase | None:
    """Why ``f`` cannot attack ``t`` with ``w`` now: the target itself, range, sight or ammo;
    None when it can."""
    problem = target_problem(f, t, rules) or _reach_problem(c, f, t, w, rules)
    if problem is None and w.kind != UNARMED:
        problem = ammo_problem(f, rules.items.kind(w.kind), lethal, rules)
    return problem


def choose_weapon(
    c: Combat, f: Fighter, t: Fighter, name: str | None, rules: Rules, lethal: bool = True
) -> Weapon:
    """The named weapon, or the first one that can make this attack (RuleError: none can, the
    target's own problem told first)."""
    problem = target_problem(f, t, rules)
    if problem:
        raise RuleError(problem)
    picked = pick_weapon(f, name, rules)
    if picked is not None:
        problem = attack_problem(c, f, t, picked, rules, lethal)
        if problem:
            raise RuleError(problem)
        return picked
    options = weapons(f, rules)
    if not options:
        held = (f.character.held(h) for h in HANDS)
        aoe = [i for i in held if i is not None
               and rules.items.kind(f.character.items[i].kind).attack == "aoe"]
        if aoe:  # "AoE weapons ... against an area": the AoE attack, not this one
            problem = _item_problem(f.character, aoe[0], rules, ())
            assert problem is not None
            raise RuleError(problem)
        raise RuleError(phrase("{name} has no weapon in hand to attack with.", name=f.name))
    problems = [attack_problem(c, f, t, w, rules, lethal) for w in options]
    for w, problem in zip(options, problems, strict=True):
        if problem is None:
            return w
    assert problems[0] is not None
    raise RuleError(problems[0])


def legal_weapons(combat: Combat, fighter_key: str, rules: Rules,
                  action: Action = Action.ATTACK) -> tuple[str, ...]:
    """Item names in hand usable for ``action`` (plus ``unarmed`` with the Unarmed Combat
    ability): a shield attacks only in an Attack, say."""
    return tuple(w.name for w in weapons(combat.fighter(fighter_key), rules, action))


def legal_targets(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """Names of the fighters this fighter could Attack now (range, sight, a weapon in hand);
    other teams first."""
    f = combat.fighter(fighter_key)
    usable = weapons(f, rules)
    return tuple(
        t.name
        for side in opponents_then_team(combat, f)
        for t in side
        if any(attack_problem(combat, f, t, w, rules) is None for w in usable)
    )
