"""Who acts, and what the options of a fight command may be: the ``as:`` transformer with its
autocomplete, and autocomplete of targets, weapons, areas and items for the fighter who acts.

Without ``as:``, a player acts as their one fighter (or the one of theirs the command's prompt
waits on), and a GM with no fighter of their own as the one NPC the command's prompt waits on
(an action: the NPC of the acting team asked to act; a reaction: the NPC asked to react).
Before ``as:`` is filled, a GM's autocomplete offers the options of every such NPC, each
labelled with whose it is ("Ana — Goon's target"); the choice's value names the NPC too
(:func:`for_actor`), so picking it acts as that NPC.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.cogs.combat.fights import fights_of
from bot.i18n import N_, person_language, render
from bot.numbered import as_given, matching
from bot.options import OneOf, Text
from bot.permissions import is_gm
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Action, Rules
from engine.combat import Actor, Combat, Fighter, PromptKind, legal_weapons
from engine.combat.actions.setup import TEAM_NAME_MAX
from engine.combat.options import Slot, slot_values
from engine.combat.prompts import SPECS
from engine.errors import RuleError
from engine.names import name_key
from engine.phrases import Phrase, phrase

__all__ = ["ACTING", "ALL_OUT", "RALLYING", "REACTING", "WAITED", "ActingAs", "As", "AsReacting",
           "HandOption",
           "Kinds", "Name", "Pick", "Short", "TeamName", "acting", "actor_of", "choices",
           "for_actor", "split_actor"]

#: The longest name a fight option looks up (characters have at most 32 characters; areas and
#: items a little more); longer values are refused on receipt, before the fight is touched.
LOOKUP = 100


#: A name a fight option looks up (a character, an area, an item, a map, a location).
Name = app_commands.Transform[str, Text(LOOKUP)]
#: A team's name, as long as the engine allows one.
TeamName = app_commands.Transform[str, Text(TEAM_NAME_MAX)]
#: A short text: a location's marks.
Short = app_commands.Transform[str, Text(20)]
HandOption = app_commands.Transform[str, OneOf([
    app_commands.Choice(name=N_("right"), value="right"),
    app_commands.Choice(name=N_("left"), value="left"),
    app_commands.Choice(name=N_("both"), value="both")])]

#: The prompts a command answers: an action in the team's turn (or on a leader's direction), a
#: reaction, All-Out Defend, a leader's rally (in the turn or before the fight ends), and
#: anything the fight waits for (a surrender).
Kinds = frozenset[PromptKind]
ACTING: Kinds = frozenset({PromptKind.ACT, PromptKind.DIRECTED})
REACTING: Kinds = frozenset({PromptKind.REACT})
ALL_OUT: Kinds = frozenset({PromptKind.ALL_OUT_DEFEND})
RALLYING: Kinds = ACTING | {PromptKind.END_RALLY}
WAITED: Kinds = frozenset(kind for kind, spec in SPECS.items() if not spec.offer)

#: What starts a choice picked for a named character: "`Goon`Ana" is Ana, picked as Goon's
#: target. A character's name never holds a backtick (rules notes, Characters 16), so the
#: name ends at the second one.
MARK = "`"


def for_actor(actor: str, value: str) -> str:
    """A choice's value that names the character it was offered for."""
    return f"{MARK}{actor}{MARK}{value}"


def split_actor(value: str) -> tuple[str | None, str]:
    """``(the character a choice was picked for, its value)``; ``(None, value)`` as typed.

    >>> split_actor(for_actor("Goon", "Ana")), split_actor("Ana")
    (('Goon', 'Ana'), (None, 'Ana'))
    """
    if value.startswith(MARK):
        actor, mark, rest = value[1:].partition(MARK)
        if mark and actor.strip():
            return actor, rest
    return None, value


class Picked(Text):
    """An option autocomplete offers for the one who acts (a target, a weapon, an area, an
    item): the command gets the value alone; :func:`acting` reads whom it was picked for."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        return split_actor(str(value))[1]


#: A name picked among what the fighter who acts could use (see :class:`Picked`).
Pick = app_commands.Transform[str, Picked(LOOKUP)]


def choices(names: list[str], current: str, rank: Callable[[str], Any] = as_given,
            shown: Callable[[str], str] = str) -> list[app_commands.Choice[str]]:
    """At most 25 of ``names`` holding what the user typed so far: those it starts first,
    then the others, each part in the order given (a fight's order, enemies first), or by
    ``rank`` (``natural_key``: Goon 2 before Goon 10); each named as ``shown`` says (a word
    of the bot's in the user's language), its value the name."""
    found = matching(names, current, label=shown, rank=rank)
    return [app_commands.Choice(name=shown(n)[:100], value=n[:100]) for n in found[:25]]


def _waited_on(state: Combat, kinds: Kinds, owner_id: int | None) -> list[Fighter]:
    """The fighters of ``owner_id`` (None: the NPCs) a prompt of ``kinds`` waits on."""
    keys = {p.fighter for p in state.waiting_for() if p.kind in kinds}
    return [f for f in state.fighters if f.key in keys and f.owner_id == owner_id]


def _named(interaction: discord.Interaction[Any], as_name: str | None,
           typing: str | None = None) -> str | None:
    """The character ``as:`` names, or the choices picked in the other options (not the one
    being typed); refused when they name different characters."""
    named: dict[str, str] = {}
    if as_name and as_name.strip():
        named[name_key(as_name)] = as_name.strip()
    for option, value in interaction.namespace:
        if option != "as" and isinstance(value, str) and value != typing:
            actor = split_actor(value)[0]
            if actor is not None:
                named.setdefault(name_key(actor), actor)
    if len(named) > 1:
        names = ", ".join(discord.utils.escape_markdown(n) for n in named.values())
        raise UserError(phrase("Those options are for different characters ({names}): pick "
                               "them for one, or say who acts with `as:`. Nothing was changed.",
                               names=names))
    return next(iter(named.values()), None)


def _say_which(candidates: list[Fighter]) -> Phrase:
    if not candidates:
        return phrase("Say which character acts with `as:`.")
    names = ", ".join(discord.utils.escape_markdown(f.name) for f in candidates)
    return phrase("Say which character acts with `as:`: {names}.", names=names)


async def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """Who gives a fight command: the user, and whether they are a GM here."""
    return Actor(user_id=interaction.user.id, gm=await is_gm(interaction))


async def acting(interaction: discord.Interaction[Any], state: Combat, as_name: str | None,
                 kinds: Kinds = WAITED) -> Fighter:
    """The fighter a user acts as: the one ``as`` names (or the choices picked for one), else
    their only fighter here (or the only one of theirs a prompt of ``kinds`` waits on); a GM
    with no fighter of their own acts as the only NPC a prompt of ``kinds`` waits on."""
    named = _named(interaction, as_name)
    if named is not None:
        return state.fighter(named)
    user = interaction.user.id
    mine = list(state.fighters_of(user))
    if len(mine) == 1:
        return mine[0]
    if not mine:
        if not await is_gm(interaction):
            raise UserError(phrase("You have no character in this fight. Add yours with "
                                   "`/combat add`."))
        npcs = _waited_on(state, kinds, None)
        if len(npcs) == 1:
            return npcs[0]
        raise UserError(_say_which(npcs))
    prompted = _waited_on(state, kinds, user)
    if len(prompted) == 1:
        return prompted[0]
    raise UserError(phrase("You have several characters here: pick one with `as:`."))


async def _state(interaction: discord.Interaction[Any]) -> Combat | None:
    if interaction.guild_id is None:
        return None
    stored = await fights_of(interaction).fight(interaction.channel_id or 0)
    return None if stored is None else stored.state


class ActingAs(Text):
    """The ``as:`` option: which of your characters acts (GMs: any character in the fight).
    Its autocomplete lists first those a question of ``kinds`` waits on (the goons asked to
    Intercept, for ``/intercept``), then the others."""

    def __init__(self, kinds: Kinds = WAITED) -> None:
        super().__init__(LOOKUP)
        self.kinds = kinds

    async def autocomplete(self, interaction: discord.Interaction[Any],  # type: ignore[override]
                           value: str, /) -> list[app_commands.Choice[str]]:
        state = await _state(interaction)
        if state is None:
            return []
        mine = (state.fighters if await is_gm(interaction)
                else state.fighters_of(interaction.user.id))
        asked = {p.fighter for p in state.waiting_for() if p.kind in self.kinds}
        first = sorted(mine, key=lambda f: f.key not in asked)  # (a stable sort)
        return choices([f.name for f in first], value)


As = app_commands.Transform[str, ActingAs]
#: ``as:`` of a reaction command: those asked to react come first.
AsReacting = app_commands.Transform[str, ActingAs(REACTING)]


async def any_fighter(interaction: discord.Interaction[Any],
                      current: str) -> list[app_commands.Choice[str]]:
    state = await _state(interaction)
    return [] if state is None else choices([f.name for f in state.fighters], current)


#: What a fighter (by key) may name in an option now, asked as an actor.
Legal = Callable[[Combat, str, Rules, Actor], tuple[str, ...]]


async def _deciders(interaction: discord.Interaction[Any], state: Combat, kinds: Kinds,
                    current: str, actor: Actor) -> tuple[list[Fighter], bool]:
    """Whose options an autocomplete offers, as :func:`acting` would pick them, and whether
    each choice must say whose it is: for a GM with no fighter of their own, every NPC a
    prompt of ``kinds`` waits on; for a player with several waited on, each of those."""
    named = _named(interaction, getattr(interaction.namespace, "as", None), current)
    if named is not None:
        return [state.fighter(named)], False
    user = interaction.user.id
    mine = list(state.fighters_of(user))
    if len(mine) == 1:
        return mine, False
    if mine:
        prompted = _waited_on(state, kinds, user)
        return prompted, len(prompted) > 1
    if actor.gm:
        return _waited_on(state, kinds, None), True
    return [], False


def _labelled(state: Combat, fighters: list[Fighter], legal: Legal, rules: Rules, actor: Actor,
              noun: Phrase, current: str, language: str,
              shown: Callable[[str], str]) -> list[app_commands.Choice[str]]:
    """At most 25 options of ``fighters``, each labelled with whose it is ("Ana — Goon's
    target") and naming them in its value, that hold what the user typed so far: first every
    option of a fighter whose name it starts (a GM typing "Boss" means the Boss's options, its
    enemies first), then the options it starts, then the rest."""
    typed = name_key(current)
    found: list[tuple[str, bool, app_commands.Choice[str]]] = []  # whose, typed?, choice
    named = 0  # the options of fighters whose name starts with what was typed
    for f in fighters:
        # Translators: after an option offered for one of a GM's characters: "Ana — Goon's
        # target" (whose option it is).
        whose = render(phrase(" — {name}'s {noun}", name=f.name, noun=noun), language)
        for option in legal(state, f.key, rules, actor):
            value = for_actor(f.name, option)
            choice = app_commands.Choice(name=clip(shown(option), 100 - len(whose)) + whose,
                                         value=value if len(value) <= LOOKUP else option[:LOOKUP])
            found.append((f"{f.name} {choice.name}", name_key(option).startswith(typed), choice))
            named += name_key(f.name).startswith(typed)
        if named >= 25:  # enough to fill the list: the other fighters need not be asked
            break
    ranked = matching(found, current, label=lambda entry: entry[0],
                      rank=lambda entry: not entry[1])
    return [choice for _, _, choice in ranked[:25]]


async def _for_actor(interaction: discord.Interaction[Any], current: str, legal: Legal,
                     noun: Phrase, kinds: Kinds,
                     words: Mapping[str, Phrase]) -> list[app_commands.Choice[str]]:
    """Choices from ``legal`` for the fighter the user acts as (see :func:`_deciders`); an
    option among ``words`` is named in the user's language (its value stays the word)."""
    state = await _state(interaction)
    if state is None:
        return []
    language = await person_language(interaction)

    def shown(option: str) -> str:
        return render(words[option], language) if option in words else option

    try:
        actor = await actor_of(interaction)
        fighters, labelled = await _deciders(interaction, state, kinds, current, actor)
        rules = fights_of(interaction).rules
        if labelled:
            return _labelled(state, fighters, legal, rules, actor, noun, split_actor(current)[1],
                             language, shown)
        found = [option for f in fighters for option in legal(state, f.key, rules, actor)]
    except (UserError, RuleError):
        return []
    return choices(found, current, shown=shown)


def legal_choices(legal: Legal, noun: Phrase, kinds: Kinds = ACTING,
                  words: Mapping[str, Phrase] | None = None,
                  ) -> Callable[[discord.Interaction[Any], str], Any]:
    """An autocomplete callback offering what ``legal`` allows the acting fighter; ``noun``
    says what an option is to them ("target"), for a GM's labels; ``words``: the options that
    are the bot's words, not names (named in the user's language)."""

    async def complete(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
        return await _for_actor(interaction, current, legal, noun, kinds, words or {})

    return complete


def _given(interaction: discord.Interaction[Any], option: str) -> str | None:
    """What another option of the command holds so far (without whom it was picked for)."""
    value = getattr(interaction.namespace, option, None)
    return split_actor(str(value))[1] if value else None


def slot_choices(slot: Slot, noun: Phrase, given: str | None = None,
                 kinds: Kinds = ACTING) -> Callable[[discord.Interaction[Any], str], Any]:
    """An autocomplete callback offering what the engine's one legality query
    (:func:`engine.combat.options.slot_values`) lets the acting fighter name in ``slot``;
    ``given``: the command's other option the slot depends on (``target``, ``to``)."""

    async def complete(interaction: discord.Interaction[Any],
                       current: str) -> list[app_commands.Choice[str]]:
        other = None if given is None else _given(interaction, given)

        def legal(c: Combat, key: str, rules: Rules, actor: Actor) -> tuple[str, ...]:
            return slot_values(c, key, rules, actor, slot, other)

        return await _for_actor(interaction, current, legal, noun, kinds, {})

    return complete


# Translators: the nouns below say what an option is to a GM's character: "Goon's target".
targets = slot_choices(Slot.TARGET, phrase("target"))
weapons = slot_choices(Slot.WEAPON, phrase("weapon"), given="target")
# Reactions are not started from the query (they answer a window): any weapon for them.
counter_weapons = legal_choices(
    lambda c, key, rules, _: legal_weapons(c, key, rules, Action.COUNTERATTACK),
    phrase("weapon"), REACTING)
intercept_weapons = legal_choices(
    lambda c, key, rules, _: legal_weapons(c, key, rules, Action.INTERCEPT), phrase("weapon"),
    REACTING)
moves = slot_choices(Slot.MOVE, phrase("move"))
#: A Speed move's second area: one step beyond the ``to:`` typed so far.
second_moves = slot_choices(Slot.SECOND_MOVE, phrase("second move"), given="to")
doors = slot_choices(Slot.DOOR, phrase("door"))
directable = slot_choices(Slot.DIRECT, phrase("teammate to direct"))
aid_targets = slot_choices(Slot.FIRST_AID, phrase("target for first aid"))

_ITEM_SLOTS = {"hold": (Slot.HOLD, phrase("item to hold")),
               "pickup": (Slot.PICKUP, phrase("item to pick up")),
               "drop": (Slot.DROP, phrase("item to drop")),
               "use": (Slot.USE, phrase("thing to use"))}


def items(op: str) -> Callable[[discord.Interaction[Any], str], Any]:
    return slot_choices(*_ITEM_SLOTS[op])


async def areas(interaction: discord.Interaction[Any],
                current: str) -> list[app_commands.Choice[str]]:
    state = await _state(interaction)
    return [] if state is None else choices(list(state.game_map().areas), current)


async def locations(interaction: discord.Interaction[Any],
                    current: str) -> list[app_commands.Choice[str]]:
    """The hit locations, head first, each named in the user's language, its value the id the
    command takes (what was typed is matched against both)."""
    language = await person_language(interaction)
    body = fights_of(interaction).rules.body.locations
    named = {loc.id: render(loc.said_name, language) for loc in body}
    found = matching(body, current, label=lambda loc: f"{named[loc.id]} {loc.id}",
                     rank=body.index)
    return [app_commands.Choice(name=named[loc.id], value=loc.id) for loc in found]
