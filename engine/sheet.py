"""A character sheet as plain text, for a Discord code block read on a phone.

Every line fits in 40 columns and the whole sheet in 1,990 characters. The body is drawn like
the paper sheet seen from the front: head on top, the character's right arm on the viewer's
left, torso in the middle, legs below. Each box shows □ (empty), \\, X or ■.

>>> from data import load_rules
>>> from engine.character import Character, take_damage
>>> rules = load_rules()
>>> ana, _ = take_damage(Character.new("Ana"), 4, 2, rules=rules)
>>> print(render_wounds(ana, rules=rules))
Ana · PC
Level 46/50 · fine
              9 Head
              □ □ □
  8 R arm   4-6 Torso   7 L arm
     □        □ □ □        □
     □        □ □ □        □
     □        □ □ □        □
    2-3 R leg     0-1 L leg
      \\ \\ \\         □ □ □
      \\ □ □         □ □ □
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.catalog import Action, Hand, HitLocation, Penalty, RollModifier, Rules
from engine.character import (
    HANDS,
    Character,
    Item,
    Mark,
    Status,
    ability_limit,
    full_locations,
    slots,
    status,
    usable_hands,
)
from engine.phrases import Phrase, Said, english, phrase
from engine.textwidth import split, width

#: How the sheet's words are said: English unless the caller renders them in its reader's
#: language (the bot's ``render``); the layout then fits what was said.
Say = Callable[[Said], str]

__all__ = ["ACTION_WORDS", "MAX_CHARS", "STATUS_WORDS", "WIDTH", "Say", "render_sheet",
           "render_story", "render_wounds"]

WIDTH = 40  # columns a phone shows in a code block without wrapping
MAX_CHARS = 1990  # Discord's 2,000 less the code fence

EMPTY_BOX = "□"
_GLYPHS = {Mark.SLASH.value: "\\", Mark.CROSS.value: "X", Mark.PERMANENT.value: "■"}

# The figure is three columns: right arm | torso (head above) | left arm.
_SIDE = 11
_MIDDLE = 11
_LEG = 14
_LEG_INDENT = 2
_ROW = 3  # boxes per row for head, torso and legs; arms hang down one box per row


def _cells(c: Character, loc: HitLocation) -> list[str]:
    marks = [_GLYPHS[mark] for mark in c.marks(loc.id)]
    return (marks + [EMPTY_BOX] * loc.boxes)[: loc.boxes]


def _rows(cells: list[str], per_row: int) -> list[str]:
    return [" ".join(cells[i : i + per_row]) for i in range(0, len(cells), per_row)]


def _label(loc: HitLocation, rules: Rules, say: Say) -> str:
    return f"{rules.body.dice_label(loc.id)} {say(loc.said_short)}"


def _figure(c: Character, rules: Rules, say: Say) -> list[str]:
    body = rules.body
    head, torso = body.location("head"), body.location("torso")
    right_arm, left_arm = body.location("right_arm"), body.location("left_arm")
    right_leg, left_leg = body.location("right_leg"), body.location("left_leg")

    lines = [" " * _SIDE + _label(head, rules, say).center(_MIDDLE).rstrip()]
    lines += [" " * _SIDE + row.center(_MIDDLE).rstrip() for row in _rows(_cells(c, head), _ROW)]
    lines.append(
        _label(right_arm, rules, say).center(_SIDE)
        + _label(torso, rules, say).center(_MIDDLE)
        + _label(left_arm, rules, say).center(_SIDE).rstrip()
    )
    right_cells, left_cells = _cells(c, right_arm), _cells(c, left_arm)
    torso_rows = _rows(_cells(c, torso), _ROW)
    for i in range(max(len(right_cells), len(left_cells), len(torso_rows))):
        lines.append(
            (right_cells[i] if i < len(right_cells) else "").center(_SIDE)
            + (torso_rows[i] if i < len(torso_rows) else "").center(_MIDDLE)
            + (left_cells[i] if i < len(left_cells) else "").center(_SIDE).rstrip()
        )
    indent = " " * _LEG_INDENT
    labels = _label(right_leg, rules, say).center(_LEG) + _label(left_leg, rules, say).center(_LEG)
    lines.append((indent + labels).rstrip())
    right_rows, left_rows = _rows(_cells(c, right_leg), _ROW), _rows(_cells(c, left_leg), _ROW)
    for i in range(max(len(right_rows), len(left_rows))):
        lines.append(
            indent
            + (right_rows[i] if i < len(right_rows) else "").center(_LEG)
            + (left_rows[i] if i < len(left_rows) else "").center(_LEG).rstrip()
        )
    return lines


#: How a character stands, as the sheet's heading says it.
STATUS_WORDS = {Status.FINE: phrase("fine"), Status.UNCONSCIOUS: phrase("unconscious"),
                 Status.SURRENDERED: phrase("surrendered"), Status.DEAD: phrase("dead")}


def _heading(c: Character, rules: Rules, say: Say) -> list[str]:
    kind = phrase("NPC") if c.npc else phrase("PC")
    return [
        f"{c.name} · {say(kind)}",
        say(phrase("Level {level}/{max_level} · {status}", level=c.level, max_level=c.max_level,
                   status=STATUS_WORDS[status(c, rules=rules)])),
    ]


def _penalties(c: Character, rules: Rules, say: Say) -> list[str]:
    full = set(full_locations(c, rules=rules))
    lines: list[str] = []
    for loc in rules.body.locations:
        if loc.id in full and loc.penalty is Penalty.ARM:
            lines.append(say(phrase("{arm} full: right hand unusable", arm=loc.said_name)
                             if loc.hand == "right" else
                             phrase("{arm} full: left hand unusable", arm=loc.said_name)))
    legs = [loc for loc in rules.body.locations if loc.penalty is Penalty.LEG]
    full_legs = [loc for loc in legs if loc.id in full]
    if full_legs and len(full_legs) == len(legs):
        lines.append(say(phrase("Both legs full: cannot move")))
    elif full_legs:
        # Translators: a line of the sheet (at most 40 columns with the leg's name); the next
        # line, indented, ends the sentence.
        lines.append(say(phrase("{leg} full: moves only with", leg=full_legs[0].said_name)))
        lines.append("  " + say(phrase("two empty hands")))
    return lines


def _item_text(item: Item, rules: Rules, say: Say) -> str:
    kind = rules.items.kind(item.kind) if item.kind in rules.items.ids else None
    details = [say(kind.said_short) if kind else item.kind]
    if item.location is not None:
        known = item.location in rules.body.ids
        details.append(say(rules.body.location(item.location).said_lower) if known
                       else item.location.replace("_", " "))
    if item.less_lethal:
        details.append(say(phrase("less-lethal")))
    if item.ability is not None and item.ability in rules.abilities.ids:
        details.append(say(rules.abilities.ability(item.ability).said_name))
    text = f"{item.name} ({', '.join(details)})"
    return text + " " + say(phrase("DESTROYED")) if item.destroyed else text


def _held_tag(c: Character, index: int, say: Say) -> str:
    hands = [hand for hand in HANDS if c.held(hand) == index]
    if len(hands) == 2:
        return " " + say(phrase("[both hands]"))
    return " " + say(_HAND_TAGS[hands[0]]) if hands else ""


_HAND_TAGS = {"right": phrase("[R hand]"), "left": phrase("[L hand]")}


def _hand_lines(c: Character, rules: Rules, say: Say) -> list[str]:
    if c.right_hand is not None and c.right_hand == c.left_hand:
        return [say(phrase("Both hands: {item}", item=c.items[c.right_hand].name))]
    usable = usable_hands(c, rules=rules)
    lines = []
    for hand in HANDS:
        index = c.held(hand)
        held: Said = c.items[index].name if index is not None else phrase("empty")
        if hand not in usable:
            held = phrase("can't be used")
        lines.append(say(phrase("{hand}: {held}", hand=_hand_name(hand), held=held)))
    return lines


def _hand_name(hand: Hand) -> Phrase:
    return phrase("R hand") if hand == "right" else phrase("L hand")


_LONG_WORD = 12  # a word longer than this is split rather than pushed to the next line


def _wrap_line(line: str, indent: str) -> list[str]:
    """Greedy word wrap to WIDTH columns that keeps the line's leading spaces and splits long
    words.

    >>> _wrap_line(" 1. " + "Q" * 40 + " (armor)", "    ")
    [' 1. QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ', '    QQQQ (armor)']
    >>> _wrap_line(" 2. " + "盾" * 20 + " (armor)", "    ")
    [' 2. 盾盾盾盾盾盾盾盾盾盾盾盾盾盾盾盾盾盾', '    盾盾 (armor)']
    """
    lines: list[str] = []
    current = line[: len(line) - len(line.lstrip(" "))]
    for word in line.split():
        sep = "" if current.strip() == "" else " "
        while width(current) + len(sep) + width(word) > WIDTH:
            room = WIDTH - width(current) - len(sep)
            if width(word) > _LONG_WORD and room > 0:
                head, word = split(word, room)
                current += sep + head
            lines.append(current)
            current, sep = indent, ""
        current += sep + word
    lines.append(current)
    return lines


def _wrap(lines: Iterable[str], indent: str = "    ") -> list[str]:
    wrapped: list[str] = []
    for line in lines:
        wrapped += [line] if width(line) <= WIDTH else _wrap_line(line, indent)
    return wrapped


def _fit(lines: list[str]) -> str:
    text = "\n".join(_wrap(lines))
    if len(text) > MAX_CHARS:  # cannot happen within the model's limits; a safety net
        text = text[: MAX_CHARS - 1] + "…"
    return text


#: The rolls and actions, as the sheet's ability lines name them (other parts may nest them).
ACTION_WORDS = {
    Action.ATTACK: phrase("Attack"),
    Action.COUNTERATTACK: phrase("Counterattack"),
    Action.INTERCEPT: phrase("Intercept"),
    Action.DEFEND: phrase("Defend"),
    Action.FIRST_AID: phrase("First aid"),
    Action.INITIATIVE: phrase("Initiative"),
    Action.MOVE: phrase("Move"),
}
_MODIFIERS = (RollModifier.GOOD, RollModifier.PRECISE, RollModifier.POWERFUL)
_MODIFIER_WORDS = {RollModifier.GOOD: phrase("good"), RollModifier.PRECISE: phrase("precise"),
                   RollModifier.POWERFUL: phrase("powerful")}


def _roll_line(action: Action, item: str | None, said: str, rules: Rules, say: Say) -> str:
    """" Attack with 2H melee: good, precise"."""
    if item is None:
        return " " + say(phrase("{action}: {modifiers}", action=ACTION_WORDS[action],
                                modifiers=said))
    if item in rules.items.ids:
        return " " + say(phrase("{action} with {kind}: {modifiers}", action=ACTION_WORDS[action],
                                kind=rules.items.kind(item).said_short, modifiers=said))
    return " " + say(phrase("{action} {item}: {modifiers}", action=ACTION_WORDS[action],
                            item=_OTHER_ITEMS.get(item, item), modifiers=said))


#: What an ability may be about besides an item kind.
_OTHER_ITEMS = {"unarmed": phrase("unarmed")}


def _ability_lines(c: Character, rules: Rules, say: Say = english) -> list[str]:
    """The abilities grouped for play: the non-combat ones; then, per action and item, which
    of good, precise and powerful apply (from the data rows); then the rules, one short line
    each.

    >>> from data import load_rules
    >>> c = Character.new("Ana", level=70).model_copy(update={
    ...     "good_at": ("lockpicking",),
    ...     "abilities": ("melee_2h.good_attack", "melee_2h.precise_attack", "leader.rally")})
    >>> print("\\n".join(_ability_lines(c, load_rules())))
     Good at lockpicking
    Good, precise, powerful
     Attack with 2H melee: good, precise
    Special rules
     Leader: Rally
       Once a fight: team's level up to roll
    """
    lines = [" " + say(phrase("Good at {activity}", activity=activity))
             for activity in c.good_at]
    known = [rules.abilities.ability(a) for a in c.abilities if a in rules.abilities.ids]
    rolls: dict[tuple[Action, str | None], set[RollModifier]] = {}
    for ability in known:
        if ability.modifier is not None:
            for action in ability.actions:
                rolls.setdefault((action, ability.item), set()).add(ability.modifier)
    if rolls:
        lines.append(say(phrase("Good, precise, powerful")))
        order = list(Action)
        for (action, item), mods in sorted(rolls.items(),
                                           key=lambda kv: (order.index(kv[0][0]), kv[0][1] or "")):
            said = ", ".join(say(_MODIFIER_WORDS[m]) for m in _MODIFIERS if m in mods)
            lines.append(_roll_line(action, item, said, rules, say))
    rules_rows = [a for a in known if a.brief]
    unknown = [a for a in c.abilities if a not in rules.abilities.ids]
    if rules_rows or unknown:
        lines.append(say(phrase("Special rules")))
        for ability in rules_rows:
            lines += [f" {say(ability.said_title)}", f"   {say(ability.said_brief)}"]
        lines += [f" {a}" for a in unknown]
    return lines


def render_wounds(character: Character, *, rules: Rules, say: Say = english) -> str:
    """Name, level and the body figure: the compact view for combat status. ``say``: how its
    words are said (the bot's render in the reader's language)."""
    c = character
    return _fit([*_heading(c, rules, say), *_figure(c, rules, say), *_penalties(c, rules, say)])


def render_sheet(character: Character, *, rules: Rules, say: Say = english) -> str:
    """The whole sheet: heading, body, hands, items (destroyed noted), abilities, free slots.

    >>> from data import load_rules
    >>> from engine.character import Character
    >>> sheet = render_sheet(Character.new("Ana"), rules=load_rules())
    >>> print(sheet.split("Hands")[1])
    <BLANKLINE>
    R hand: empty
    L hand: empty
    <BLANKLINE>
    Items 0 of 5 slots · 5 free
    <BLANKLINE>
    Abilities 0 of 2 · 2 free
    """
    c = character
    lines = [*_heading(c, rules, say), "", *_figure(c, rules, say), *_penalties(c, rules, say)]
    lines += ["", say(phrase("Hands")), *_hand_lines(c, rules, say)]

    total = slots(c)
    lines += ["", say(phrase("Items {count} of {total} slots · {free} free",
                             count=len(c.items), total=total, free=total - len(c.items)))]
    for number, item in enumerate(c.items, start=1):
        lines.append(f"{number:>2}. {_item_text(item, rules, say)}"
                     f"{_held_tag(c, number - 1, say)}")

    limit = ability_limit(c)
    count = len(c.abilities) + len(c.good_at)
    lines += ["", say(phrase("Abilities {count} of {limit} · {free} free", count=count,
                             limit=limit, free=max(limit - count, 0)))]
    lines += _ability_lines(c, rules, say)
    return _fit(lines)


def render_story(character: Character, say: Say = english) -> str:
    """Who the character is beyond the fight: concept, description, non-combat items ("" when
    the sheet has none), wrapped to the phone's width. At most 80 + 400 characters and 12
    items of 40: under 1,100 characters wrapped, so it never needs cutting (beside the
    largest sheet it is a message of its own).

    >>> from engine.character import Character, add_gear, describe
    >>> ana, _ = describe(Character.new("Ana"), concept="Ex-cop turned bouncer",
    ...                   description="Tall, tired, never without her old badge.")
    >>> ana, _ = add_gear(ana, "Police badge")
    >>> print(render_story(ana))
    Concept: Ex-cop turned bouncer
    Tall, tired, never without her old
    badge.
    Other items: Police badge
    """
    c = character
    lines: list[str] = []
    if c.concept:
        lines.append(say(phrase("Concept: {concept}", concept=c.concept)))
    if c.description:
        lines.append(c.description)
    if c.gear:
        lines.append(say(phrase("Other items: {items}", items=", ".join(c.gear))))
    return "\n".join(_wrap(lines, indent=""))
