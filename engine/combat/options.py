"""What a fighter may start now, and with what: the one query every way of starting an action
reads (the My options panel's menus, the slash commands' autocomplete), as a list of choices,
each one an engine command, a short label and a stable id.

"May" means exactly what the engine would accept now: candidates are built from what the
fighter has and where they stand, and each one is kept only if a dry run of its handler in
:func:`engine.combat.apply` accepts it, so the handlers stay the one judge and what is offered
is what they take. Every handler checks everything before it rolls a die, so the dry run's
dice never decide. A fight's state never changes (each step makes a new one), so the answer
is kept for as long as that state lives: the autocomplete's keystrokes and the panel drawn
after a step ask once.

:func:`slot_values` answers a slash command's option (``/attack target:``, ``with:``, ``/move
to:``, ``then:``, ``/door area:``, ``/direct who:``, ``/firstaid target:``, ``/item
hold|pickup|drop|use``) from the same options; :func:`candidate` finds the command a panel's
pick names without checking it (applying it is the check).

Left out on purpose: Surrender (a yield at any moment, not an action to pick from a list: it
stays a command of its own), ending the team's turn, refusing a direction, and the answers to
what a fight asks (reactions, rolls, damage), which have their own buttons; ``Rearrange`` (the
hands panel sets both hands). A free drop is listed whenever the engine takes one (on the
team's turn or another's, with or without an action left), and All-Out Defend whenever it may
be declared (before the round's first action, whichever team acts first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from engine.catalog import Rules
from engine.character import HANDS, Character
from engine.combat.abilities.hooks import rallies
from engine.combat.abilities.shield import ALL_OUT_DEFEND
from engine.combat.actions.direct import directable as legal_directs
from engine.combat.actions.items import legal_items
from engine.combat.actions.move import legal_moves, legal_second_moves
from engine.combat.commands import (
    AllOutDefend,
    AoE,
    Attack,
    Command,
    Direct,
    Door,
    FirstAid,
    ManageItems,
    Move,
    Rally,
)
from engine.combat.context import Context, controls
from engine.combat.fighters import acting_fighter, opponents_then_team
from engine.combat.machine import HANDLERS
from engine.combat.model import Actor, Combat, Fighter, Phase
from engine.combat.per_state import PerState
from engine.combat.step_values import Weapon
from engine.combat.weapons import UNARMED, attack_problem, weapons
from engine.errors import RuleError
from engine.maps import GameMap
from engine.names import name_key
from engine.phrases import Phrase, Said, english, phrase
from engine.textwidth import clip, split, width

__all__ = [
    "ID_MAX", "LABEL_MAX", "MOVE_OPTIONS_MAX", "Option", "OptionGroup", "Slot", "candidate",
    "label_text", "legal_options", "option", "options", "slot_values",
]

#: An option's label fits a select option or a button (Discord allows 80 characters), counted
#: in columns too (a CJK name takes two a character): :func:`label_text` fits it so.
LABEL_MAX = 80
#: An option's id leaves room in a 100-character custom id for what the bot puts around it.
ID_MAX = 90
#: Speed's two-step moves are listed only while every move fits one menu of 25.
MOVE_OPTIONS_MAX = 25


class OptionGroup(StrEnum):
    """The kinds of choice, in the order ``options`` lists them."""

    ATTACK = "attack"
    AOE = "aoe"
    MOVE = "move"
    DOOR = "door"
    FIRST_AID = "first_aid"
    ITEMS = "items"
    #: A thing the map notes on the fighter's area, to use: ``/item use what:`` offers it, the
    #: My options panel does not (a note may be a thing or a remark: "PCs may start here").
    NOTED = "noted"
    ABILITY = "ability"  # Rally, Direct, All-Out Defend


class Option(BaseModel):
    """One thing a fighter may start now. ``id`` is built from keys and indexes, never from
    what the label says, so it names the same choice after the fight moves on (and then
    either is still possible or is gone). ``label``: what it reads, said in the reader's
    language and fitted to a menu by :func:`label_text` (names are never cut before that:
    how long a label is depends on its language)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    group: OptionGroup
    id: str
    label: Phrase | str
    command: Command


def options(combat: Combat, fighter: str, rules: Rules, actor: Actor) -> tuple[Option, ...]:
    """Everything ``fighter`` may start now, as ``actor`` (who must control it), in a stable
    order grouped by ``OptionGroup``, as a menu shows it (two-step moves only while every
    move fits one menu); empty for a fighter not in the fight."""
    return tuple(o for group in OptionGroup
                 for o in _menu(group, legal_options(combat, fighter, rules, actor, group)))


def option(
    combat: Combat, fighter: str, rules: Rules, actor: Actor, option_id: str
) -> Option | None:
    """The option of ``fighter`` with this id, as :func:`options` lists it, or None when it is
    not offered now (only the id's group is looked at)."""
    group = _group_of(option_id)
    if group is None:
        return None
    found = _menu(group, legal_options(combat, fighter, rules, actor, group))
    return next((o for o in found if o.id == option_id), None)


def legal_options(combat: Combat, fighter: str, rules: Rules, actor: Actor,
          group: OptionGroup) -> tuple[Option, ...]:
    """Every command of ``group`` that ``fighter`` may start now as ``actor`` (each two-step
    move included), in :func:`options`' order. Asked once per state of the fight."""
    try:
        f = combat.fighter(fighter)
    except RuleError:
        return ()
    key = (id(rules), f.key, actor, group)
    kept = _KEPT.of(combat)
    if key not in kept:
        kept[key] = _accepted_of(combat, f, rules, actor, group)
    return kept[key]


def candidate(combat: Combat, fighter: str, rules: Rules, option_id: str) -> Option | None:
    """The option this id names, built from the fight as it is but not checked: applying its
    command is the check (a pick from the panel is applied once, and refused by the engine
    when the fight has moved on). None when the id names nothing now."""
    group = _group_of(option_id)
    if group is None or combat.phase in (Phase.SETUP, Phase.ENDED):
        return None
    try:
        f = combat.fighter(fighter)
    except RuleError:
        return None
    return next((o for o in _BUILDERS[group](combat, f, rules) if o.id == option_id), None)


def _group_of(option_id: str) -> OptionGroup | None:
    try:
        return OptionGroup(option_id.split(":", 1)[0])
    except ValueError:
        return None


def _menu(group: OptionGroup, found: tuple[Option, ...]) -> tuple[Option, ...]:
    """What one menu shows of a group: Speed's two-step moves only while every move fits."""
    if group is OptionGroup.MOVE and len(found) > MOVE_OPTIONS_MAX:
        return tuple(o for o in found if isinstance(o.command, Move) and o.command.then is None)
    return found


# ---- one answer per state of the fight -------------------------------------------------------

_Key = tuple[int, str, Actor, OptionGroup]
#: The groups asked of each fight state still in use.
_KEPT: PerState[_Key, tuple[Option, ...]] = PerState()


# ---- keeping what the engine accepts --------------------------------------------------------


class _DryRunDice:
    """Dice for a dry run. Every handler refuses before it rolls, so the faces never decide
    what is accepted; these are a plain failure (98) for any level below it."""

    def __init__(self) -> None:
        self._next = 9

    def die(self) -> int:
        face, self._next = self._next, 17 - self._next  # 9, 8, 9, 8, ...
        return face


def _accepted(combat: Combat, command: Command, rules: Rules, actor: Actor) -> bool:
    """Whether the engine takes ``command`` from ``actor`` now: a dry run of the command's
    handler, the part of ``apply`` that accepts or refuses (what follows it only plays the
    accepted command on), and nothing is kept."""
    ctx = Context(actor=actor, dice=_DryRunDice(), rules=rules, now=0.0,
                  hide_npcs=combat.hide_npcs)
    try:
        HANDLERS[type(command)](combat, command, ctx)
    except RuleError:
        return False
    return True


def _accepted_of(
    c: Combat, f: Fighter, rules: Rules, actor: Actor, group: OptionGroup
) -> tuple[Option, ...]:
    """The candidates of ``group`` the engine accepts, each choice once."""
    if c.phase in (Phase.SETUP, Phase.ENDED):
        return ()
    kept: list[Option] = []
    seen: set[Command | str] = set()  # the commands and ids kept: each kept once
    for o in _BUILDERS[group](c, f, rules):
        if o.command not in seen and o.id not in seen and _accepted(c, o.command, rules, actor):
            seen.update((o.command, o.id))
            kept.append(o)
    return tuple(kept)


# ---- what a slash command's option may name --------------------------------------------------


class Slot(StrEnum):
    """A slash command's option that names what an action starts with."""

    TARGET = "target"  # /attack target:
    WEAPON = "weapon"  # /attack with: (for the target given, if one is)
    MOVE = "move"  # /move to:
    SECOND_MOVE = "second_move"  # /move then: (after the first step given)
    DOOR = "door"  # /door area:
    DIRECT = "direct"  # /direct who:
    FIRST_AID = "first_aid"  # /firstaid target:
    HOLD = "hold"  # /item hold item:
    PICKUP = "pickup"  # /item pickup item:
    DROP = "drop"  # /item drop item:
    USE = "use"  # /item use what:


def slot_values(combat: Combat, fighter: str, rules: Rules, actor: Actor, slot: Slot,
                given: str | None = None) -> tuple[str, ...]:
    """The names ``slot`` may take for ``fighter`` now, each once, in the options' order: each
    one starts an option of :func:`legal_options` (so the engine accepts it). While the
    fighter may start no action at all (another team's turn, no action left, a window open),
    the names their gear and place allow, unchecked: the command then says why not. ``given``:
    the target a weapon is for, or the first step of a two-step move (a target that names no
    option's leaves every weapon)."""
    groups = [_SLOT_GROUPS[slot], *([_MORE_GROUPS[slot]] if slot in _MORE_GROUPS else [])]
    commands = [o.command for group in groups
                for o in _named_from(combat, fighter, rules, actor, group)]
    if slot is Slot.DROP:
        return _dropped_names(combat.fighter(fighter).character, commands)
    named = [n for cmd in commands if (n := _slot_name(cmd, slot, given)) is not None]
    if slot is Slot.WEAPON and given is not None and not named:
        named = [n for cmd in commands if (n := _slot_name(cmd, slot, None)) is not None]
    return tuple(dict.fromkeys(named))


def _named_from(c: Combat, fighter: str, rules: Rules, actor: Actor,
                group: OptionGroup) -> tuple[Option, ...]:
    """The options a slot's names come from: those the engine accepts, or while the fighter
    (``actor``'s to command) may start no action, every candidate."""
    if c.phase in (Phase.SETUP, Phase.ENDED):
        return ()
    try:
        f = c.fighter(fighter)
    except RuleError:
        return ()
    if not controls(actor, f):
        return ()
    try:
        acting_fighter(c, f.name, Context(actor=actor, dice=_DryRunDice(), rules=rules, now=0.0))
    except RuleError:
        return tuple(_BUILDERS[group](c, f, rules))
    return legal_options(c, fighter, rules, actor, group)


_SLOT_GROUPS = {
    Slot.TARGET: OptionGroup.ATTACK, Slot.WEAPON: OptionGroup.ATTACK,
    Slot.MOVE: OptionGroup.MOVE, Slot.SECOND_MOVE: OptionGroup.MOVE, Slot.DOOR: OptionGroup.DOOR,
    Slot.DIRECT: OptionGroup.ABILITY, Slot.FIRST_AID: OptionGroup.FIRST_AID,
    Slot.HOLD: OptionGroup.ITEMS,
    Slot.PICKUP: OptionGroup.ITEMS, Slot.DROP: OptionGroup.ITEMS, Slot.USE: OptionGroup.ITEMS,
}
#: A slot's names from a second group: ``/item use`` names the things noted on the map too.
_MORE_GROUPS = {Slot.USE: OptionGroup.NOTED}


def _slot_name(cmd: Command, slot: Slot, given: str | None) -> str | None:
    """The name ``cmd`` gives ``slot``, or None when it gives it none (or is not for
    ``given``)."""
    if isinstance(cmd, Attack):
        if slot is Slot.TARGET:
            return cmd.target
        return cmd.weapon if slot is Slot.WEAPON and _names(given, cmd.target) else None
    if isinstance(cmd, Move):
        if slot is Slot.MOVE:
            return cmd.to if cmd.then is None else None
        return cmd.then if slot is Slot.SECOND_MOVE and _names(given, cmd.to) else None
    if isinstance(cmd, Door):
        return cmd.other
    if isinstance(cmd, Direct):
        return cmd.target
    if isinstance(cmd, FirstAid):
        return cmd.target
    if isinstance(cmd, ManageItems) and cmd.op == slot.value:
        return cmd.item
    return None


def _names(given: str | None, name: str) -> bool:
    """Whether ``given`` (None: nothing given) names ``name``."""
    return given is None or name_key(given) == name_key(name)


def _dropped_names(ch: Character, commands: list[Command]) -> tuple[str, ...]:
    """The items the drops among ``commands`` let fall (a drop names a hand)."""
    found: list[str] = []
    for cmd in commands:
        if isinstance(cmd, ManageItems) and cmd.op == "drop":
            hands = [h for h in HANDS if cmd.hand in (None, "both", h)]
            found += [ch.items[i].name for h in hands if (i := ch.held(h)) is not None]
    return tuple(dict.fromkeys(found))


# ---- the candidates, one builder per group ---------------------------------------------------


def _size(text: str) -> int:
    """A label's size against ``LABEL_MAX``: Discord counts characters, a phone shows columns
    (a CJK character takes two, a combining mark none), so the larger of the two."""
    return max(len(text), width(text))


def label_text(label: Said, say: Callable[[Said], str] = english,
               limit: int = LABEL_MAX) -> str:
    """An option's ``label`` said by ``say`` (in the reader's language) within ``limit``: the
    longest name in it (a plain label is one name) cut short ("…", whole graphemes) until it
    fits; a label without a name to cut is cut at its end."""
    text = say(label)
    while (over := _size(text) - limit) > 0:
        names = [(-1, label)] if isinstance(label, str) else [
            (i, value) for i, (_, value) in enumerate(label.arguments) if isinstance(value, str)]
        if not names:
            return _shortened(text, limit)
        at, name = max(names, key=lambda found: _size(found[1]))
        cut = clip(name, max(width(name) - over, 1))
        if _size(cut) >= _size(name):  # cut by columns, yet as long in characters
            cut = split(name, max(width(name) - 2, 0))[0] + "…"
        if _size(cut) >= _size(name):  # nothing left to cut
            return _shortened(text, limit)
        label = cut if isinstance(label, str) else label.with_arguments(tuple(
            (key, cut if i == at else value) for i, (key, value) in enumerate(label.arguments)))
        text = say(label)
    return text


def _shortened(text: str, limit: int) -> str:
    """``text`` cut at its end to ``limit`` columns and characters."""
    cut = clip(text, limit)
    return cut if _size(cut) <= limit else split(text, limit // 2 - 1)[0] + "…"


def _said_weapon(w: Weapon) -> Said:
    """A weapon as a label names it: its name, or bare hands."""
    return phrase("bare hands") if w.kind == UNARMED else w.name


def _item_ref(ch: Character, name: str) -> str:
    """An item named ``name`` as an id's part: its index on the sheet (the first intact one,
    as the engine finds it by name)."""
    key = name_key(name)
    found = [i for i, it in enumerate(ch.items) if name_key(it.name) == key]
    return str(next((i for i in found if not ch.items[i].destroyed), found[0]))


def _attacks(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """Every (target, weapon) in reach: on the other teams first, then on teammates; on each
    side the lethal attacks, then the less-lethal ones (so that they do not push the lethal
    ones out of a menu), each in the fight's order and weapon order."""
    usable = weapons(f, rules)
    if not usable:
        return
    # (attack_problem leaves out themselves, the dead, the surrendered)
    sides = opponents_then_team(c, f)
    for side, lethal in ((side, lethal) for side in sides for lethal in (True, False)):
        for t in side:
            for w in usable:
                if attack_problem(c, f, t, w, rules, lethal) is not None:
                    continue
                ref = UNARMED if w.kind == UNARMED else _item_ref(f.character, w.name)
                yield Option(
                    group=OptionGroup.ATTACK,
                    id=f"attack:{t.key}:{ref}" + ("" if lethal else ":less"),
                    label=phrase("{target} with {weapon}", target=t.name,
                                 weapon=_said_weapon(w)) if lethal else
                    phrase("{target} with {weapon} (less-lethal)", target=t.name,
                           weapon=_said_weapon(w)),
                    command=Attack(fighter=f.name, target=t.name, weapon=w.name, lethal=lethal),
                )


def _aoe(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """The AoE item held in both hands, on every area in its reach and in sight."""
    ch = f.character
    index = ch.right_hand
    if index is None or index != ch.left_hand:
        return
    item = ch.items[index]
    kind = rules.items.kind(item.kind)
    if kind.attack != "aoe":
        return
    m = c.game_map()
    for i, area in enumerate(m.areas):
        distance = m.range(f.area, area)
        if distance is None or not kind.in_range(distance) or not m.line_of_sight(f.area, area):
            continue
        yield Option(
            group=OptionGroup.AOE,
            id=f"aoe:{index}:{i}",
            label=phrase("{item} on {area}", item=item.name, area=area),
            command=AoE(fighter=f.name, area=area, item=item.name),
        )


def _moves(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """One step to each area in reach; then, with Speed, each two-step move (first step,
    then second)."""
    m = c.game_map()
    singles = legal_moves(c, f.key, rules)
    for to in singles:
        yield Option(group=OptionGroup.MOVE, id=f"move:{_area_ref(m, to)}", label=to,
                     command=Move(fighter=f.name, to=to))
    for to in singles:
        for then in legal_second_moves(c, f.key, rules, to):
            yield Option(
                group=OptionGroup.MOVE,
                id=f"move:{_area_ref(m, to)}:{_area_ref(m, then)}",
                label=phrase("{area}, then {next}", area=to, next=then),
                command=Move(fighter=f.name, to=to, then=then),
            )


def _area_ref(m: GameMap, area: str) -> int:
    return m.areas.index(area)


def _doors(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """Each door of the fighter's area: open it if it is closed, close it if it is open."""
    m = c.game_map()
    for other, is_open in m.doors_of(f.area):
        yield Option(
            group=OptionGroup.DOOR,
            id=f"door:{_area_ref(m, other)}:{'close' if is_open else 'open'}",
            label=phrase("Close the door to {area}", area=other) if is_open else
            phrase("Open the door to {area}", area=other),
            command=Door(fighter=f.name, other=other, open=not is_open),
        )


def _first_aid(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """Everyone in the fighter's area (themselves included), when a first aid item is in
    hand; the engine keeps those with a \\ mark to treat, and asks a treater with the sure
    success whether to take it or roll."""
    ch = f.character
    held = (ch.held(h) for h in HANDS)
    if not any(i is not None and ch.items[i].kind == "first_aid" for i in held):
        return
    for t in c.fighters:
        if t.area == f.area:
            yield Option(group=OptionGroup.FIRST_AID, id=f"first_aid:{t.key}",
                         label=phrase("First aid to {name}", name=t.name),
                         command=FirstAid(fighter=f.name, target=t.name))


#: What an item's option reads, by what it does and with which hand ("": both, not said).
_ITEM_LABELS: dict[tuple[str, str], Callable[[str], Phrase]] = {
    ("hold", "right"): lambda item: phrase("Hold {item} (right hand)", item=item),
    ("hold", "left"): lambda item: phrase("Hold {item} (left hand)", item=item),
    ("hold", "both"): lambda item: phrase("Hold {item} (both hands)", item=item),
    ("pickup", "right"): lambda item: phrase("Pick up {item} (right hand)", item=item),
    ("pickup", "left"): lambda item: phrase("Pick up {item} (left hand)", item=item),
    ("pickup", "both"): lambda item: phrase("Pick up {item} (both hands)", item=item),
    ("stow", "right"): lambda item: phrase("Stow {item} (right hand)", item=item),
    ("stow", "left"): lambda item: phrase("Stow {item} (left hand)", item=item),
    ("stow", ""): lambda item: phrase("Stow {item}", item=item),
    ("drop", "right"): lambda item: phrase("Drop {item} (right hand)", item=item),
    ("drop", "left"): lambda item: phrase("Drop {item} (left hand)", item=item),
    ("drop", ""): lambda item: phrase("Drop {item}", item=item),
}


def _items(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """Hold or pick up an item (into each hand it could go in), use an item in hand, stow
    what a hand holds (or both hands), drop it (free)."""
    ch = f.character
    for op in ("hold", "pickup"):
        for name in legal_items(c, f.key, rules, op):
            ref = _item_ref(ch, name)
            two = rules.items.kind(ch.items[int(ref)].kind).hands == 2
            for hand in ("both",) if two else ("right", "left"):
                yield Option(
                    group=OptionGroup.ITEMS, id=f"items:{op}:{ref}:{hand}",
                    label=_ITEM_LABELS[op, hand](name),
                    command=ManageItems(fighter=f.name, op=op, item=name, hand=hand),
                )
    held = {i: tuple(h for h in HANDS if ch.held(h) == i)
            for i in dict.fromkeys(ch.held(h) for h in HANDS) if i is not None}
    for i in held:
        yield Option(group=OptionGroup.ITEMS, id=f"items:use:{i}",
                     label=phrase("Use {item}", item=ch.items[i].name),
                     command=ManageItems(fighter=f.name, op="use", item=ch.items[i].name))
    for op in ("stow", "drop"):
        for i, hands in held.items():
            hand = "both" if len(hands) == 2 else hands[0]
            yield Option(
                group=OptionGroup.ITEMS, id=f"items:{op}:{i}:{hand}",
                label=_ITEM_LABELS[op, "" if hand == "both" else hand](ch.items[i].name),
                command=ManageItems(fighter=f.name, op=op, hand=hand),
            )
        if len(held) == 2:  # one item in each hand: both at once (one action, or free)
            right, left = (ch.items[i].name for i in held)
            yield Option(
                group=OptionGroup.ITEMS, id=f"items:{op}:{'+'.join(map(str, held))}:both",
                label=phrase("Stow {right} and {left}", right=right, left=left)
                if op == "stow" else phrase("Drop {right} and {left}", right=right, left=left),
                command=ManageItems(fighter=f.name, op=op, hand="both"),
            )


def _noted(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """Use a thing the map notes on the fighter's area."""
    m = c.game_map()
    for j, note in enumerate(m.notes(f.area)):
        yield Option(group=OptionGroup.NOTED, id=f"noted:{_area_ref(m, f.area)}:{j}",
                     label=phrase("Use {item}", item=note),
                     command=ManageItems(fighter=f.name, op="use", item=note))


def _abilities(c: Combat, f: Fighter, rules: Rules) -> Iterator[Option]:
    """A leader's Rally and Direct (each teammate), and Shield's All-Out Defend."""
    if rallies(f.character):
        yield Option(group=OptionGroup.ABILITY, id="ability:rally",
                     label=phrase("Rally {team}", team=f.team), command=Rally(fighter=f.name))
    for name in legal_directs(c, f.key, rules):
        yield Option(group=OptionGroup.ABILITY, id=f"ability:direct:{c.fighter(name).key}",
                     label=phrase("Direct {name}", name=name),
                     command=Direct(fighter=f.name, target=name))
    if ALL_OUT_DEFEND in f.character.abilities:
        yield Option(group=OptionGroup.ABILITY, id="ability:all_out_defend",
                     label=phrase("All-Out Defend"), command=AllOutDefend(fighter=f.name))


_BUILDERS: dict[OptionGroup, Callable[[Combat, Fighter, Rules], Iterator[Option]]] = {
    OptionGroup.ATTACK: _attacks,
    OptionGroup.AOE: _aoe,
    OptionGroup.MOVE: _moves,
    OptionGroup.DOOR: _doors,
    OptionGroup.FIRST_AID: _first_aid,
    OptionGroup.ITEMS: _items,
    OptionGroup.NOTED: _noted,
    OptionGroup.ABILITY: _abilities,
}
