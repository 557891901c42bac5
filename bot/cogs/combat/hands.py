"""Both hands in one action (004 "Use or manage items"): what `/item hands` offers.

With ``right:`` or ``left:`` the command applies at once. Without them it shows the fighter's
hands, just to the user: a menu per hand (an item, or empty) and **Apply (one action)**.
Picking in a menu only redraws the panel; Apply sends one ``Rearrange``. The panel keeps what
was picked in its own custom ids (the fight, the fighter's place with a stamp of their name,
and each hand's pick as an item's index or ``e`` for empty), so it keeps working after a
restart, and nothing is stored until Apply. Registered by the fight actions' cog.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

import bot.cogs.combat.acting as acting
from bot.cogs.combat.fights import Fights, fights_of
from bot.cogs.combat.views import fighter_index, panel_fighter
from bot.components import PersistentButton, identity_stamp, picked_values
from bot.custom_ids import CustomId, IdField, choice, digits, eight_hex
from bot.i18n import N_, SOURCE, person_language, render, translated
from bot.store.values import StoredCombat
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Hand, Rules
from engine.character import HANDS, Character, usable_hands
from engine.combat import Combat, Fighter, legal_items
from engine.combat.actions.items import hand_items, hands_text
from engine.combat.commands import Rearrange
from engine.combat.context import require_control
from engine.names import name_key
from engine.phrases import Phrase, phrase

__all__ = ["EMPTY_WORD", "HAND_WORDS", "HandsApply", "HandsMenu", "hand_choices", "hand_spec",
           "show_panel"]

#: What a player types (or autocomplete offers, named in their language) for an empty hand.
EMPTY_WORD = "empty"
_EMPTY_WORDS = (EMPTY_WORD, "nothing")
#: The empty hand as autocomplete names it, and as a player may type it in their language.
_EMPTY_SAID = phrase("empty")


def _pick_field(hand: str) -> IdField:
    """A hand's pick in a custom id: an item's index, or ``e`` for empty."""
    return IdField(hand, "e|[0-9]{1,3}", ("e", "0", "999"))


def _panel_id(prefix: str, *fields: IdField) -> CustomId:
    """The ids of the panel's parts: the fight, the fighter's place and a stamp of their name,
    then ``fields``."""
    return CustomId(prefix, digits("combat", 20), digits("fighter", 3), eight_hex(), *fields)


OUT_OF_DATE = N_("That panel is out of date: use `/item hands` again. Nothing was changed.")
#: Each hand as a GM's autocomplete labels what is offered for it ("Goon's right hand").
HAND_WORDS: dict[Hand, Phrase] = {"right": phrase("right hand"), "left": phrase("left hand")}
#: Each hand as its menu names it.
_TITLES: dict[Hand, Phrase] = {"right": phrase("Right hand"), "left": phrase("Left hand")}
#: Where an item is, said by the menu: in which hand, and an empty hand.
_IN_HAND: dict[Hand, Phrase] = {"right": phrase("In the right hand"),
                                "left": phrase("In the left hand")}
_NOTHING_IN: dict[Hand, Phrase] = {"right": phrase("Nothing in the right hand"),
                                   "left": phrase("Nothing in the left hand")}

Pick = int | None  # an item's index, or None for an empty hand


def hand_spec(f: Fighter, typed: str | None, language: str) -> str | None:
    """What a ``right:``/``left:`` option asks of ``Rearrange``: None (leave the hand as it
    is), ``Rearrange.EMPTY`` for "empty" or "nothing", or "empty" in the player's
    ``language`` (unless an item of theirs has that name), else the item's name."""
    if typed is None:
        return None
    key = name_key(typed)
    empty = (*_EMPTY_WORDS, name_key(render(_EMPTY_SAID, language)))
    if key in empty and all(name_key(it.name) != key for it in f.character.items):
        return Rearrange.EMPTY
    return typed


def hand_choices(hand: Hand) -> Callable[[discord.Interaction[Any], str], Any]:
    """Autocomplete for a hand: "empty", then what that hand could hold (in hand, in the pack,
    on the floor of the fighter's area)."""
    return acting.legal_choices(
        lambda c, key, rules, _: (EMPTY_WORD, *legal_items(c, key, rules, hand)),
        HAND_WORDS[hand], words={EMPTY_WORD: _EMPTY_SAID})


# -- the panel ---------------------------------------------------------------------------------


def _pick_text(pick: Pick) -> str:
    return "e" if pick is None else str(pick)


def _read_pick(text: str, ch: Character) -> Pick:
    if text == "e":
        return None
    if int(text) >= len(ch.items):
        raise UserError(OUT_OF_DATE)
    return int(text)


def _where(f: Fighter, index: int) -> Phrase:
    ch = f.character
    hands = [h for h in HANDS if ch.held(h) == index]
    if len(hands) == 2:
        return phrase("In both hands")
    if hands:
        return _IN_HAND[hands[0]]
    if _on_floor(f, index):
        return phrase("On the floor of {area}: picked up", area=f.area)
    return phrase("In the pack")


def _on_floor(f: Fighter, index: int) -> bool:
    return any(d.index == index for d in f.dropped)


def _options(f: Fighter, hand: Hand, rules: Rules) -> list[int]:
    """The items the menu for ``hand`` offers: one per name (the engine picks among items
    of the same name), at most 24 besides "empty" (Discord's limit is 25)."""
    names: dict[str, int] = {}
    for index in hand_items(f, hand, rules):
        names.setdefault(name_key(f.character.items[index].name), index)
    return list(names.values())[:24]


def _menu(stored: StoredCombat, f: Fighter, hand: Hand, picks: dict[Hand, Pick],
          rules: Rules, language: str) -> HandsMenu:
    ch = f.character
    title = _TITLES[hand]
    offered = _options(f, hand, rules)
    options = [discord.SelectOption(
        label=render(phrase("{hand}: empty", hand=title), language), value="e",
        description=render(_NOTHING_IN[hand], language), default=picks[hand] is None)]
    for index in offered:
        item = ch.items[index]
        where = _where(f, index)
        if rules.items.kind(item.kind).hands == 2:
            where = phrase("{where} · two-handed", where=where)
        options.append(discord.SelectOption(
            label=clip(render(phrase("{hand}: {item}", hand=title, item=item.name), language),
                       100),
            value=str(index), description=clip(render(where, language), 100),
            default=picks[hand] == index))
    usable = hand in usable_hands(ch, rules=rules)
    placeholder = title if usable else phrase("{hand}: the arm is full of wounds", hand=title)
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=HandsMenu.custom_id_for(stored.id, stored.state, f, hand, picks),
        placeholder=render(placeholder, language),
        options=options, disabled=not usable, min_values=1, max_values=1)
    return HandsMenu(select, stored.id, fighter_index(stored.state, f.key),
                     identity_stamp(f.key), hand, picks)


def panel(stored: StoredCombat, f: Fighter, picks: dict[Hand, Pick],
          rules: Rules, language: str) -> tuple[str, discord.ui.View]:
    """What the panel says and shows for ``f`` with ``picks`` chosen in the menus, in
    ``language`` (the user's own)."""
    ch = f.character
    now = {h: ch.held(h) for h in HANDS}

    def hands(held: dict[Hand, Pick]) -> str:
        said = render(hands_text(ch, held["right"], held["left"]), language)
        return discord.utils.escape_markdown(said)

    lines = [render(phrase("**{name}'s hands** now: {hands}.",
                           name=discord.utils.escape_markdown(f.name), hands=hands(now)),
                    language)]
    if picks == now:
        lines.append(translated("Pick what each hand should hold, then **Apply**: both hands "
                                "for one action.", language))
    else:
        floor = sorted({i for i in picks.values() if i is not None and _on_floor(f, i)})
        # Translators: added, once per item, after "one action" in "**Apply** for: …".
        up = "".join(render(phrase("; picks up {item}",
                                   item=discord.utils.escape_markdown(ch.items[i].name)),
                            language) for i in floor)
        lines.append(render(phrase("**Apply** for: {hands} (one action{pickups}).",
                                   hands=hands(picks), pickups=up), language))
    view = discord.ui.View(timeout=None)
    for row, hand in enumerate(HANDS):
        menu = _menu(stored, f, hand, picks, rules, language)
        menu.row = row
        view.add_item(menu)
    apply = HandsApply(stored.id, fighter_index(stored.state, f.key), identity_stamp(f.key),
                       picks, language=language)
    apply.row = 2
    view.add_item(apply)
    # The dynamic items answer from their custom ids alone, never through this object:
    # stopped, discord.py neither keeps it in memory nor times it out (as it would an
    # ephemeral message's view after 15 minutes).
    view.stop()
    return clip("\n".join(lines), 1900), view


async def _controlled(interaction: discord.Interaction[Any], f: Fighter) -> None:
    require_control(await acting.actor_of(interaction), f)


async def show_panel(interaction: discord.Interaction[Any], session: Fights,
                     as_: str | None) -> None:
    """`/item hands` without options: the panel, just for the user."""
    stored = await session.require_fight(interaction)
    f = await acting.acting(interaction, stored.state, as_, acting.ACTING)
    await _controlled(interaction, f)
    picks: dict[Hand, Pick] = {h: f.character.held(h) for h in HANDS}
    content, view = panel(stored, f, picks, session.rules, await person_language(interaction))
    await interaction.response.send_message(content, view=view, ephemeral=True)


def _picked(ch: Character, hand: Hand, pick: Pick, picks: dict[Hand, Pick],
            rules: Rules) -> dict[Hand, Pick]:
    """``picks`` after ``pick`` for ``hand``: a two-handed item takes both menus; a
    one-handed item taken from the other hand, or in place of a two-handed one, leaves the
    other hand empty."""
    other: Hand = "left" if hand == "right" else "right"
    new = {**picks, hand: pick}
    if pick is not None and rules.items.kind(ch.items[pick].kind).hands == 2:
        new[other] = pick
    elif (there := picks[other]) is not None and (
            there == pick or rules.items.kind(ch.items[there].kind).hands == 2):
        new[other] = None
    return new


class HandsMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=_panel_id("ihs", choice("hand", "r", "l"), _pick_field("right"),
                      _pick_field("left")),
):
    """One hand's menu on the panel: picking redraws the panel with that pick."""

    def __init__(self, select: discord.ui.Select[Any], combat_id: int, fighter: str,
                 stamp: str, hand: Hand, picks: dict[Hand, Pick] | None = None,
                 raw: tuple[str, str] = ("e", "e")) -> None:
        super().__init__(select)
        self.combat_id, self.fighter, self.stamp, self.hand = combat_id, fighter, stamp, hand
        self.raw = raw if picks is None else (_pick_text(picks["right"]),
                                              _pick_text(picks["left"]))

    @classmethod
    def custom_id_for(cls, combat_id: int, state: Combat, f: Fighter, hand: Hand,
                      picks: dict[Hand, Pick]) -> str:
        return cls.id_spec.format(
            combat=combat_id, fighter=fighter_index(state, f.key), stamp=identity_stamp(f.key),
            hand=hand[0], right=_pick_text(picks["right"]), left=_pick_text(picks["left"]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HandsMenu:
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=match.string)
        hand: Hand = "right" if match["hand"] == "r" else "left"
        return cls(select, int(match["combat"]), match["fighter"], match["stamp"], hand,
                   raw=(match["right"], match["left"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        stored = await session.require_fight(interaction, self.combat_id)
        f = panel_fighter(stored.state, self.fighter, self.stamp)
        await _controlled(interaction, f)
        ch = f.character
        picks: dict[Hand, Pick] = {"right": _read_pick(self.raw[0], ch),
                                   "left": _read_pick(self.raw[1], ch)}
        values = picked_values(interaction)
        offered = ["e", *(str(i) for i in _options(f, self.hand, session.rules))]
        if len(values) != 1 or values[0] not in offered:
            raise UserError(OUT_OF_DATE)
        pick = _read_pick(values[0], ch)
        content, view = panel(stored, f, _picked(ch, self.hand, pick, picks, session.rules),
                              session.rules, await person_language(interaction))
        await interaction.response.edit_message(content=content, view=view)


class HandsApply(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=_panel_id("iha", _pick_field("right"), _pick_field("left")),
):
    """Apply (one action): both hands as the menus show them, in one ``Rearrange``."""

    def __init__(self, combat_id: int, fighter: str, stamp: str,
                 picks: dict[Hand, Pick] | None = None,
                 raw: tuple[str, str] = ("e", "e"), *, language: str = SOURCE) -> None:
        self.raw = raw if picks is None else (_pick_text(picks["right"]),
                                              _pick_text(picks["left"]))
        super().__init__(discord.ui.Button(
            label=translated("Apply (one action)", language), style=discord.ButtonStyle.success,
            custom_id=self.id_spec.format(combat=combat_id, fighter=fighter, stamp=stamp,
                                          right=self.raw[0], left=self.raw[1])))
        self.combat_id, self.fighter, self.stamp = combat_id, fighter, stamp

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HandsApply:
        return cls(int(match["combat"]), match["fighter"], match["stamp"],
                   raw=(match["right"], match["left"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)

        def command(state: Combat) -> Rearrange:
            f = panel_fighter(state, self.fighter, self.stamp)
            ch = f.character
            specs = [_read_pick(text, ch) for text in self.raw]
            right, left = (Rearrange.EMPTY if i is None else ch.items[i].name for i in specs)
            return Rearrange(fighter=f.key, right=right, left=left)

        await session.run(interaction, command, combat_id=self.combat_id)
