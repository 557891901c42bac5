"""The panel that walks a character through the book's start: a combat ability from a menu
(each with its rule in one line), a non-combat ability typed, items up to the free slots (a
kind from a menu, then its name), and the items in hand when a fight starts (the book's "top
slot(s)": one 2H item, or a 1H item in each hand). Every part saves
at once (the character is usable at every step), tells the table, and redraws the panel. Its
ids carry the character's id and stamp, so it keeps working after a restart; the slash
commands stay for those who prefer typing."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

import discord

from bot.cogs.characters.common import (
    ITEM_NAME_LIMIT,
    RULES,
    bold_name,
    characters_store,
    escaped_summary,
    require_change,
    save_change,
)
from bot.cogs.characters.delete import character_stamp
from bot.components import PersistentButton, picked_values, submitted_fields
from bot.custom_ids import CustomId, IdField, choice, digits, eight_hex, hex_token
from bot.i18n import channel_language, person_language, render, translated
from bot.store.values import StoredCharacter, clean_name
from bot.text import FORM_TEXT_LIMIT, clip, parse_number
from bot.user_error import UserError
from engine.catalog import Ability, Category, ItemKind, LessLethal
from engine.character import (
    Character,
    abilities_open,
    abilities_to_carry,
    add_ability,
    add_good_at,
    add_item,
    has_room,
    hold_only,
    slots,
    still_to_choose,
)
from engine.errors import RuleError
from engine.phrases import phrase
from engine.sheet import ACTION_WORDS

#: The forms the panel opens, answered from their payload (see the cog's setup: bot.forms).
GOOD_AT_FORM_SPEC = CustomId("cp-good", digits("id", 18), eight_hex(), hex_token())
ITEM_FORM_SPEC = CustomId("cp-item", digits("id", 18), eight_hex(),
                          IdField("kind", "[a-z_0-9]{1,20}", ("armor", "melee_1h")), hex_token())
GOOD_AT_FORM = GOOD_AT_FORM_SPEC.template
ITEM_FORM = ITEM_FORM_SPEC.template
_MENU_SIZE = 25  # Discord's most options in one menu

#: A rule of engine.character: the character changed, and a report with a ``summary``.
Rule = Callable[[Character], tuple[Character, Any]]


#: The modifiers as the ability menu names them (lower case, as the rows are).
_MODIFIER_WORDS = {"good": phrase("good"), "precise": phrase("precise"),
                   "powerful": phrase("powerful")}


def _rule_line(ability: Ability, language: str) -> str:
    if ability.brief:
        return render(ability.said_brief, language)[:100]
    said = ", ".join(render(ACTION_WORDS[a], language).lower() for a in ability.actions)
    modifier = render(_MODIFIER_WORDS[ability.modifier.value], language) if ability.modifier \
        else ""
    return f"{said}: {modifier}"[:100] if said else render(ability.said_title, language)[:100]


def panel_content(c: Character, language: str) -> str:
    left = still_to_choose(c)
    if not left:
        head = render(phrase("🧭 {name} is ready: the book's starting character. `/sheet` shows "
                             "it; a GM starts a fight with `/combat start`.",
                             name=bold_name(c.name)), language)
    else:
        head = render(phrase("🧭 {name}, still to choose: {parts}.", name=bold_name(c.name),
                             parts="; ".join(render(part, language) for part in left)),
                      language)
    if not _holdable(c):
        return head
    # The hold menu shows the items held as picked, and Discord then hides its placeholder:
    # this line names it.
    return head + "\n" + render(phrase(
        "✋ **In hand when a fight starts** (the last menu: a 1H item per hand, or one 2H): "
        "{held}.", held=_in_hand(c, language)), language)


def _in_hand(c: Character, language: str) -> str:
    if c.right_hand is not None and c.right_hand == c.left_hand:
        return render(phrase("{item} in both hands", item=c.items[c.right_hand].name), language)
    right, left = c.right_hand, c.left_hand
    if right is not None and left is not None:
        return render(phrase("{right} in the right hand and {left} in the left hand",
                             right=c.items[right].name, left=c.items[left].name), language)
    if right is not None:
        return render(phrase("{item} in the right hand", item=c.items[right].name), language)
    if left is not None:
        return render(phrase("{item} in the left hand", item=c.items[left].name), language)
    return translated("nothing yet", language)


def panel_view(stored: StoredCharacter, language: str,
               ability_group: int | None = None) -> discord.ui.View:
    """The panel's menus; ``ability_group``: the kind of combat ability the ability menu
    lists, when the abilities open are too many for one menu (None: the kinds)."""
    c, ids = stored.character, (stored.id, character_stamp(stored))
    view = discord.ui.View(timeout=None)
    ability_menu = _ability_menu(c, ids, ability_group, language)
    if ability_menu is not None:
        view.add_item(ability_menu)
    if len(c.items) < slots(c):
        options = [discord.SelectOption(
            label=render(k.said_name, language)[:100], value=k.id,
            description=_examples(k, language)) for k in RULES.items.kinds if _may_carry(c, k)]
        view.add_item(PanelMenu(*ids, "kind", options,
                                translated("Add an item: its kind", language), 0))
    hold_menu = _hold_menu(c, ids, language)
    if hold_menu is not None:
        view.add_item(hold_menu)
    if has_room(c, Category.NON_COMBAT):
        view.add_item(GoodAtButton(*ids, label=translated("Non-combat ability…", language)))
    # Its items answer by their ids (dynamic items), so the view is not kept in memory (an
    # ephemeral one would otherwise get a 15-minute timer from discord.py).
    view.stop()
    return view


def _examples(kind: ItemKind, language: str) -> str | None:
    """"e.g. riot shield, buckler", in ``language`` (None: the kind has no examples)."""
    if not kind.examples:
        return None
    said = ", ".join(render(example, language) for example in kind.examples)
    return render(phrase("e.g. {examples}", examples=said), language)[:100]


def _may_carry(c: Character, kind: ItemKind) -> bool:
    """Whether ``c`` may take an item of ``kind`` now (an AoE weapon needs its ability)."""
    try:
        abilities_to_carry(c, kind, RULES)
    except RuleError:
        return False
    return True


#: A pick in the ability menu that shows the kinds of ability again, and one that shows a
#: kind's abilities (``kind:`` and its number in :func:`_ability_groups`).
_KINDS = "kinds"
_KIND = "kind:"


def _ability_groups(open_now: tuple[Ability, ...]) -> list[tuple[str, list[Ability]]]:
    """The open abilities by kind (the book's headings), in the book's order."""
    groups: dict[str, list[Ability]] = {}
    for a in open_now:
        groups.setdefault(a.group, []).append(a)
    return list(groups.items())


def _ability_option(a: Ability, language: str) -> discord.SelectOption:
    return discord.SelectOption(label=render(a.said_title, language)[:100], value=a.id,
                                description=_rule_line(a, language))


def _ability_menu(c: Character, ids: tuple[int, str], group: int | None,
                  language: str) -> PanelMenu | None:
    """One menu for the combat ability: every ability open, or when they are more than a
    menu holds, their kinds first (a kind with one open ability shows it), then the
    abilities of the kind picked, with a way back to the kinds."""
    open_now = abilities_open(c, rules=RULES)
    title = translated("Choose a combat ability", language)
    if len(open_now) <= _MENU_SIZE:
        options = [_ability_option(a, language) for a in open_now]
        return PanelMenu(*ids, "ab", options, title, 0) if options else None
    groups = _ability_groups(open_now)
    if group is not None and 0 <= group < len(groups):
        _name, abilities = groups[group]
        options = [_ability_option(a, language) for a in abilities[:_MENU_SIZE - 1]]
        options.append(discord.SelectOption(label=translated("Other kinds of ability…", language),
                                            value=_KINDS))
        heading = render(phrase("Choose a combat ability: {kind}",
                                kind=abilities[0].said_group), language)
        return PanelMenu(*ids, "ab", options, heading[:150], group + 1)
    options = []
    for n, (_name, abilities) in enumerate(groups[:_MENU_SIZE]):
        if len(abilities) == 1:
            options.append(_ability_option(abilities[0], language))
            continue
        names = ", ".join(render(a.said_name, language) for a in abilities)
        label = render(abilities[0].said_group, language)
        options.append(discord.SelectOption(label=f"{label}…"[:100], value=f"{_KIND}{n}",
                                            description=f"{len(abilities)}: {names}"[:100]))
    return PanelMenu(*ids, "ab", options, title, 0)


def _holdable(c: Character) -> list[int]:
    """The items that may be in hand when a fight starts (intact, of a kind held)."""
    return [i for i, it in enumerate(c.items)
            if not it.destroyed and it.kind in RULES.items.ids
            and RULES.items.kind(it.kind).held]


def _hold_menu(c: Character, ids: tuple[int, str], language: str) -> PanelMenu | None:
    """What is in hand when a fight starts: up to two items picked at once (a 2H item
    alone), the items in hand now shown picked."""
    held = {c.right_hand, c.left_hand}
    options = []
    for i in _holdable(c):
        it, kind = c.items[i], RULES.items.kind(c.items[i].kind)
        hands = (phrase("{kind}: both hands", kind=kind.said_name) if kind.hands == 2
                 else phrase("{kind}: one hand", kind=kind.said_name))
        options.append(discord.SelectOption(
            label=f"{i + 1}. {it.name}"[:100], value=str(i), default=i in held,
            description=render(hands, language)[:100]))
    if not options:
        return None
    return PanelMenu(*ids, "hold", options[:_MENU_SIZE], translated(
        "In hand when a fight starts (a 1H item per hand, or one 2H)", language), 0,
        most=min(2, len(options)))


async def _the_character(interaction: discord.Interaction[Any], character_id: int,
                         stamp: str) -> StoredCharacter:
    stored = await characters_store(interaction).get_by_id(character_id)
    if (stored is None or stored.guild_id != interaction.guild_id
            or character_stamp(stored) != stamp):
        raise UserError(phrase("That character no longer exists; this panel no longer works."))
    await require_change(interaction, stored)
    return stored


async def apply_from_panel(interaction: discord.Interaction[Any], character_id: int,
                           stamp: str, rule: Rule, emoji: str) -> None:
    """Apply ``rule`` to the panel's character, save it, redraw the panel, tell the table."""
    stored = await _the_character(interaction, character_id, stamp)
    new, report = rule(stored.character)
    saved = await save_change(interaction, stored, new)
    language = await person_language(interaction)
    await interaction.response.edit_message(content=panel_content(saved.character, language),
                                            view=panel_view(saved, language))
    told = render(report.summary, await channel_language(interaction))
    await interaction.followup.send(f"{emoji} {escaped_summary(told)}")


async def _show_ability_kind(interaction: discord.Interaction[Any], character_id: int,
                             stamp: str, value: str) -> None:
    """Redraw the panel with the ability menu on the kind ``value`` names (or the kinds):
    nothing is saved."""
    stored = await _the_character(interaction, character_id, stamp)
    group = None
    if value.startswith(_KIND):
        group = parse_number(value.removeprefix(_KIND))
        if group is None or not 0 <= group < len(_ability_groups(
                abilities_open(stored.character, rules=RULES))):
            raise UserError(phrase("Pick one of the menu's entries."))
    language = await person_language(interaction)
    await interaction.response.edit_message(content=panel_content(stored.character, language),
                                            view=panel_view(stored, language, group))


class PanelMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=CustomId("cp", choice("part", "ab", "kind", "hold"), digits("id", 18), eight_hex(),
                     digits("n")),
):
    def __init__(self, character_id: int, stamp: str, part: str,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 n: int = 0, most: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=self.id_spec.format(part=part, id=character_id, stamp=stamp, n=n),
            placeholder=placeholder,
            options=options or [discord.SelectOption(label="-")], max_values=most))
        self.character_id, self.stamp, self.part = character_id, stamp, part

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PanelMenu:
        return cls(int(match["id"]), match["stamp"], match["part"], n=int(match["n"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        picked = picked_values(interaction)
        if not picked:
            raise UserError(phrase("Pick one of the menu's entries."))
        value = picked[0]
        if self.part == "kind":
            stored = await _the_character(interaction, self.character_id, self.stamp)
            await interaction.response.send_modal(ItemForm(stored, value,
                                                           await person_language(interaction)))
            return
        if self.part == "ab" and (value == _KINDS or value.startswith(_KIND)):
            await _show_ability_kind(interaction, self.character_id, self.stamp, value)
            return
        numbers = [n for n in map(parse_number, picked) if n is not None]
        if self.part == "hold" and len(numbers) != len(picked):
            raise UserError(phrase("Pick the menu's entries."))
        rule: Rule = ((lambda c: add_ability(c, value, rules=RULES)) if self.part == "ab"
                      else (lambda c: hold_only(c, numbers, rules=RULES)))
        await apply_from_panel(interaction, self.character_id, self.stamp, rule,
                               "✨" if self.part == "ab" else "✋")


class GoodAtButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("cp:good", digits("id", 18), eight_hex()),
):
    def __init__(self, character_id: int, stamp: str, label: str = "Non-combat ability…") -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.primary,
            custom_id=self.id_spec.format(id=character_id, stamp=stamp)))
        self.character_id, self.stamp = character_id, stamp

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GoodAtButton:
        return cls(int(match["id"]), match["stamp"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        stored = await _the_character(interaction, self.character_id, self.stamp)
        language = await person_language(interaction)
        modal = discord.ui.Modal(
            title=clip(translated("A non-combat ability", language), FORM_TEXT_LIMIT),
            custom_id=GOOD_AT_FORM_SPEC.format(id=stored.id, stamp=self.stamp,
                                               nonce=secrets.token_hex(4)))
        modal.add_item(discord.ui.TextInput(label=clip(translated("Good at", language),
                                                       FORM_TEXT_LIMIT),
                                            custom_id="activity",
                                            max_length=60,
                                            placeholder=translated("lockpicking", language)))
        modal.stop()  # answered from the payload
        await interaction.response.send_modal(modal)


class ItemForm(discord.ui.Modal):
    """The item's name, and what its kind asks besides (004 "Items"): armor the location it
    covers, ammo whether it is less-lethal, an AoE weapon the ability it is for (asked when
    the character has several). Refuses an AoE weapon to a character without such an
    ability before the form opens."""

    def __init__(self, stored: StoredCharacter, kind_id: str, language: str) -> None:
        if kind_id not in RULES.items.ids:  # (Discord sends only the menu's own kinds)
            raise UserError(phrase(
                "That is not a kind of item the rules know; nothing was opened."))
        kind = RULES.items.kind(kind_id)
        super().__init__(title=clip(render(phrase("Add: {kind}", kind=kind.said_name),
                                      language), FORM_TEXT_LIMIT),
                         custom_id=ITEM_FORM_SPEC.format(id=stored.id,
                                                         stamp=character_stamp(stored),
                                                         kind=kind_id, nonce=secrets.token_hex(4)))
        example = (render(phrase("e.g. {examples}", examples=render(kind.examples[0], language)),
                          language) if kind and kind.examples else None)
        self.add_item(discord.ui.TextInput(label=clip(translated("Name", language),
                                                      FORM_TEXT_LIMIT), custom_id="name",
                                           placeholder=example, max_length=ITEM_NAME_LIMIT))
        if kind_id == "armor":
            self._pick(translated("Location it covers", language), "location", [
                (render(loc.said_name, language), loc.id) for loc in RULES.body.locations])
        if kind and kind.less_lethal is LessLethal.VARIANT:
            self._pick(translated("Less-lethal?", language), "less_lethal", [
                (translated("Lethal", language), "no"),
                (translated("Less-lethal (lowers level, no wounds)", language), "yes")])
        held = abilities_to_carry(stored.character, kind, RULES) if kind else ()
        if len(held) > 1:
            self._pick(translated("For the ability", language), "ability",
                       [(render(a.said_title, language), a.id) for a in held])
        self.stop()  # answered from the payload

    def _pick(self, label: str, custom_id: str, options: list[tuple[str, str]]) -> None:
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, options=[discord.SelectOption(label=text[:100], value=value)
                                          for text, value in options])
        self.add_item(discord.ui.Label(text=clip(label, FORM_TEXT_LIMIT), component=menu))


async def submit_good_at(interaction: discord.Interaction[Any], match: re.Match[str]) -> None:
    activity = submitted_fields(dict(interaction.data or {}).get("components")).get(
        "activity", "")
    await apply_from_panel(interaction, int(match["id"]), match["stamp"],
                           lambda c: add_good_at(c, activity, rules=RULES), "✨")


async def submit_item(interaction: discord.Interaction[Any], match: re.Match[str]) -> None:
    fields = submitted_fields(dict(interaction.data or {}).get("components"))
    kind = match["kind"]
    location = fields.get("location") or None
    name = clean_name(fields.get("name", ""))
    less_lethal = fields.get("less_lethal") == "yes"
    ability = fields.get("ability") or None
    await apply_from_panel(interaction, int(match["id"]), match["stamp"], lambda c: add_item(
        c, name, kind, rules=RULES, location=location, less_lethal=less_lethal,
        ability=ability), "🎒")


async def send_panel(interaction: discord.Interaction[Any], stored: StoredCharacter) -> None:
    """The panel of ``stored``, to the one who asked alone (a follow-up: the interaction was
    answered)."""
    language = await person_language(interaction)
    await interaction.followup.send(panel_content(stored.character, language),
                                    view=panel_view(stored, language), ephemeral=True)


class OpenPanelButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("cp:open", digits("id", 18), eight_hex()),
):
    """Under an advancement that brings a slot or an ability: gives the character's owner (or
    a GM) its panel, to them alone."""

    def __init__(self, character_id: int, stamp: str, label: str = "Choose") -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], emoji="🧭", style=discord.ButtonStyle.primary,
            custom_id=self.id_spec.format(id=character_id, stamp=stamp)))
        self.character_id, self.stamp = character_id, stamp

    @classmethod
    def of(cls, stored: StoredCharacter, label: str) -> OpenPanelButton:
        return cls(stored.id, character_stamp(stored), label)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> OpenPanelButton:
        return cls(int(match["id"]), match["stamp"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        stored = await _the_character(interaction, self.character_id, self.stamp)
        language = await person_language(interaction)
        await interaction.response.send_message(
            panel_content(stored.character, language), view=panel_view(stored, language),
            ephemeral=True)
