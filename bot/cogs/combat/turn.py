"""A team's turn at the table: the line that tells the team its turn has come (pinging exactly
the players whose fighters can act, once per turn), its **Done** and **My options** buttons,
and the My options panel: just for the user who pressed, what each of their fighters may
start now, as select menus that start the action (004 "Actions"). The slash commands stay for
those who prefer typing.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.combat.acting import ACTING, actor_of
from bot.cogs.combat.answered import when
from bot.cogs.combat.catchup import CatchUpButton
from bot.cogs.combat.fights import Fights, fights_of
from bot.cogs.combat.layout import TurnLead
from bot.cogs.combat.views import (
    MENU_LABEL,
    MENU_OPTIONS,
    fighter_at,
    fighter_index,
    panel_fighter,
)
from bot.components import PersistentButton, identity_stamp, picked_values
from bot.custom_ids import CustomId, choice, digits, eight_hex
from bot.deferral import update_pressed
from bot.i18n import N_, person_language, render, translated
from bot.store.values import StoredCombat
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.combat import Actor, Combat, Command, Done, Event, Fighter, Phase
from engine.combat.actions.orders import orders_text
from engine.combat.asking import asked
from engine.combat.options import Option, OptionGroup, candidate, label_text, options
from engine.copies import group_names
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase, plural_phrase
from engine.words import team_turn_phrase

__all__ = [
    "FighterMenu", "OptionsMenu", "TurnButton", "TurnLead", "turn_lead", "whose_choices",
]

STALE_PANEL = N_("That menu is out of date: press **My options** again.")

#: The panel's menus: the option groups each gathers, its placeholder, and what it offers as
#: the note on choices left out of it names it.
MENUS: tuple[tuple[str, tuple[OptionGroup, ...], str, str], ...] = (
    ("attack", (OptionGroup.ATTACK, OptionGroup.AOE), N_("Attack…"), N_("attack")),
    ("move", (OptionGroup.MOVE, OptionGroup.DOOR), N_("Move or a door…"),
     N_("move or a door")),
    ("items", (OptionGroup.ITEMS,), N_("Items…"), N_("items")),
    ("other", (OptionGroup.FIRST_AID, OptionGroup.ABILITY), N_("First aid, abilities…"),
     N_("first aid, abilities")),
)
#: The fighters on one page of "Whose options?" when they do not all fit its menu: the room
#: left for the ways to the page before and the page after. The panel's five rows are taken
#: (this menu and four of options), so the fighters are paged rather than given more menus.
FIGHTERS_PAGE = MENU_OPTIONS - 2


def acting_fighters(state: Combat) -> list[Fighter]:
    """The fighters the turn waits for, in the fight's order."""
    if state.phase is not Phase.TURN:
        return []
    keys = {p.fighter for p in state.waiting_for() if p.kind in ACTING}
    return [f for f in state.fighters if f.key in keys]


# -- the turn's line in the prompt message ---------------------------------------------------


def turn_lead(stored: StoredCombat, *, ping: bool, language: str) -> TurnLead | None:
    """Who may act in the team's turn (``None`` outside one), with Done, My options and Catch
    up, in ``language`` (the channel's). ``ping``: the line mentions the players whose
    fighters can act with a notification (the turn's first showing)."""
    state = stored.state
    fighters = acting_fighters(state)
    team = state.acting_team
    if not fighters or team is None or state.turn is None:
        return None
    gm = translated(" (GM)", language)
    who = ", ".join(
        discord.utils.escape_markdown(f.name) + (f" (<@{f.owner_id}>)" if f.owner_id else gm)
        for f in fighters)
    users = tuple(dict.fromkeys(f.owner_id for f in fighters if f.owner_id is not None))
    whose = discord.utils.escape_markdown(render(team_turn_phrase(team), language))
    deadline = next((q.deadline for q in asked(state).questions
                     if q.kind in ACTING and q.deadline is not None), None)
    ends = "" if deadline is None else render(
        phrase(" (the turn ends {when})", when=when(deadline)), language)
    line = clip(render(phrase("**Round {round}, {whose}:** {who}{ends}", round=state.round,
                              whose=whose, who=who, ends=ends), language), 1000)
    buttons = (
        TurnButton("mine", stored.id, state.round, state.turn, translated("My options", language),
                   discord.ButtonStyle.primary),
        TurnButton("done", stored.id, state.round, state.turn,
                   clip(render(phrase("Done ({team})", team=team), language), 80),
                   discord.ButtonStyle.secondary),
        # for whoever comes back to the fight after a while
        CatchUpButton(stored.id, language=language),
    )
    return TurnLead(line, buttons, users if ping else ())


class TurnButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("turn", choice("what", "done", "mine"), digits("combat"), digits("round"),
                     digits("turn")),
):
    """**Done** ends the team's turn; **My options** opens the panel. The id carries the fight,
    the round and the turn, so a press after the turn is over applies nothing."""

    def __init__(self, what: str, combat_id: int, round_: int, turn: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(
            label=label or what, style=style,
            custom_id=self.id_spec.format(what=what, combat=combat_id, round=round_, turn=turn)))
        self.what, self.combat_id, self.round, self.turn = what, combat_id, round_, turn

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TurnButton:
        return cls(match["what"], int(match["combat"]), int(match["round"]), int(match["turn"]))

    def _same_turn(self, state: Combat) -> None:
        if state.phase is not Phase.TURN or (state.round, state.turn) != (self.round, self.turn):
            raise UserError(phrase("That turn is over: use the newest buttons."))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        if self.what == "mine":
            stored = await session.require_fight(interaction, self.combat_id)
            self._same_turn(stored.state)
            await show_options(interaction, session, stored)
            return

        def command(state: Combat) -> Command:
            self._same_turn(state)
            return Done(team=state.acting_team)

        await session.run(interaction, command, combat_id=self.combat_id)


# -- My options --------------------------------------------------------------------------------


def yours(state: Combat, actor: Actor) -> list[Fighter]:
    """The acting fighters ``actor`` decides for: their own, and for a GM every NPC."""
    return [f for f in acting_fighters(state)
            if f.owner_id == actor.user_id or (actor.gm and f.owner_id is None)]


async def show_options(interaction: discord.Interaction[Any], session: Fights,
                       stored: StoredCombat) -> None:
    """Answer just the user with their fighter's options (the first of theirs, with a menu to
    switch when they have several)."""
    actor = await actor_of(interaction)
    mine = yours(stored.state, actor)
    if not mine:
        team = stored.state.acting_team
        whose = team_turn_phrase(team) if team else phrase("not a team's turn")
        raise UserError(phrase("None of your characters can act now: it is {whose}.",
                               whose=whose))
    content, view = panel(stored, mine[0], mine, actor, session.rules,
                          await person_language(interaction))
    await interaction.response.send_message(content, view=view, ephemeral=True)


def panel(stored: StoredCombat, fighter: Fighter, mine: list[Fighter], actor: Actor,
          rules: Rules, language: str, started: str | None = None
          ) -> tuple[str, discord.ui.View]:
    """The My options panel for ``fighter`` in ``language`` (the user's own): a menu per kind
    of action (and, above them, a menu to switch to another of ``mine``); ``started``: what a
    pick from it just started, said first."""
    state = stored.state
    found = options(state, fighter.key, rules, actor)
    view = discord.ui.View(timeout=None)
    if len(mine) > 1:
        view.add_item(FighterMenu.make(stored, fighter, mine, language))
    cut: list[str] = []
    for name, groups, placeholder, offers in MENUS:
        chosen = [o for o in found if o.group in groups]
        if not chosen:
            continue
        if len(chosen) > MENU_OPTIONS:
            cut.append(render(offers, language))
            chosen = chosen[:MENU_OPTIONS]
        view.add_item(OptionsMenu.make(stored, fighter, name, render(placeholder, language),
                                       chosen, language))
    lines = [_panel_head(fighter, bool(found), started, language)]
    if fighter.directed is not None:
        leader = fighter.directed.leader
        lines.append(render(
            phrase("{leader} directs them: this action costs none of their own.",
                   leader=discord.utils.escape_markdown(leader)) if leader else
            phrase("A leader directs them: this action costs none of their own."), language))
    standing = render(orders_text(state, fighter.key), language)
    if standing:
        lines.append(render(phrase("-# Standing orders: {orders}.",
                                   orders=discord.utils.escape_markdown(standing)), language))
    if cut:
        lines.append(render(phrase("Not every choice fits a menu ({menus}): the slash commands "
                                   "offer the rest.", menus=", ".join(cut)), language))
    view.stop()  # answered from the custom ids (the dynamic items), not kept in memory
    return "\n".join(lines), view


def _panel_head(fighter: Fighter, offered: bool, started: str | None, language: str) -> str:
    """The panel's first lines: what a pick just started, then what the fighter may do now
    (after a pick, nothing to start yet is no failure: it says what is left)."""
    acts = fighter.actions + fighter.direct_actions
    name = discord.utils.escape_markdown(fighter.name)
    said = [] if started is None else [
        render(phrase("Started: {what}", what=discord.utils.escape_markdown(started)), language)]
    if offered:
        said.append(render(plural_phrase("What will **{name}** do? ({count} action left this "
                                         "round)",
                                         "What will **{name}** do? ({count} actions left this "
                                         "round)", "count", name=name, count=acts), language))
    elif started is None:
        said.append(render(phrase("**{name}** can start nothing right now.", name=name),
                           language))
    elif acts:
        said.append(render(plural_phrase(
            "-# **{name}** has {count} action left this round: press **My options** again "
            "once this one is settled.",
            "-# **{name}** has {count} actions left this round: press **My options** again "
            "once this one is settled.", "count", name=name, count=acts), language))
    else:
        said.append(render(phrase("-# **{name}** has no action left this round.", name=name),
                           language))
    return "\n".join(said)


class OptionsMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=CustomId("mo", digits("combat"), digits("fighter", 3), eight_hex(),
                     choice("menu", *(menu[0] for menu in MENUS))),
):
    """One kind of action on the panel: picking an option starts it, for the fighter the panel
    is for. The pick's command is built from the fight as it is now and applied once: the
    engine's refusal is the check, so a pick that is no longer possible (the fight moved on)
    is refused with a sentence, and applies nothing. The panel is then drawn once, from the
    fight after the step."""

    def __init__(self, select: discord.ui.Select[Any], combat_id: int, fighter: str,
                 stamp: str) -> None:
        super().__init__(select)
        self.combat_id, self.fighter, self.stamp = combat_id, fighter, stamp

    @classmethod
    def make(cls, stored: StoredCombat, f: Fighter, menu: str, placeholder: str,
             chosen: list[Option], language: str) -> OptionsMenu:
        index, stamp = fighter_index(stored.state, f.key), identity_stamp(f.key)

        def say(label: Said) -> str:
            return render(label, language)

        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.id_spec.format(combat=stored.id, fighter=index, stamp=stamp,
                                         menu=menu),
            placeholder=placeholder,
            options=[discord.SelectOption(label=label_text(o.label, say), value=o.id)
                     for o in chosen])
        return cls(select, stored.id, index, stamp)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OptionsMenu:
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=match.string)
        return cls(select, int(match["combat"]), match["fighter"], match["stamp"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        actor = await actor_of(interaction)
        picked = _picked(interaction)

        name = ""

        def command(state: Combat) -> Command:
            nonlocal name
            f = panel_fighter(state, self.fighter, self.stamp, STALE_PANEL)
            name = f.name
            found = candidate(state, f.key, session.rules, picked)
            if found is None:
                raise _moved_on(name)
            return found.command

        async def refresh_panel(saved: StoredCombat, events: tuple[Event, ...]) -> None:
            """The panel says what the pick started (the step's first event), then shows what
            is left to the fighter now (often nothing this round), so a second pick from a
            stale menu is not offered."""
            f = panel_fighter(saved.state, self.fighter, self.stamp, STALE_PANEL)
            mine = yours(saved.state, actor) or [f]
            language = await person_language(interaction)
            started = render(events[0].text, language).splitlines()[0] if events else None
            content, view = panel(saved, f, mine if f in mine else [f, *mine], actor,
                                  session.rules, language, started)
            await update_pressed(interaction, content=content, view=view)  # (deferred or not)

        try:
            await session.run(interaction, command, combat_id=self.combat_id,
                              update=refresh_panel)
        except RuleError:  # the panel offered it, so the fight has moved on since
            raise _moved_on(name) from None


def _moved_on(name: str) -> UserError:
    return UserError(phrase("{name} can't do that now: the fight has moved on. Press **My "
                            "options** again.", name=name))


class FighterMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=CustomId("mo-who", digits("combat")),
):
    """Above the panel, for a user with several fighters who may act: whose options to show."""

    def __init__(self, select: discord.ui.Select[Any], combat_id: int) -> None:
        super().__init__(select)
        self.combat_id = combat_id

    @classmethod
    def make(cls, stored: StoredCombat, shown: Fighter, mine: list[Fighter],
             language: str) -> FighterMenu:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.id_spec.format(combat=stored.id),
            placeholder=translated("Whose options?", language),
            options=whose_choices(stored.state, shown, mine, language))
        return cls(select, stored.id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> FighterMenu:
        return cls(discord.ui.Select(custom_id=match.string), int(match["combat"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        stored = await session.require_fight(interaction, self.combat_id)
        actor = await actor_of(interaction)
        mine = yours(stored.state, actor)
        f = fighter_at(stored.state, _picked(interaction))
        if f is None or f not in mine:
            raise UserError(phrase("That character can't act now: press **My options** again."))
        content, view = panel(stored, f, mine, actor, session.rules,
                              await person_language(interaction))
        await interaction.response.edit_message(content=content, view=view)


def whose_choices(state: Combat, shown: Fighter, mine: list[Fighter], language: str
                  ) -> list[discord.SelectOption]:
    """The entries of "Whose options?": each of ``mine``, or past a menu's worth the page of
    them ``shown`` is on, with an entry for the page before ("Previous: Goon 1-23") and the
    page after, that shows the first fighter of that page."""
    if len(mine) <= MENU_OPTIONS:
        page, before, after = mine, [], []
    else:
        at = next((i for i, f in enumerate(mine) if f.key == shown.key), 0)
        start = at - at % FIGHTERS_PAGE
        page, after = mine[start:start + FIGHTERS_PAGE], mine[start + FIGHTERS_PAGE:]
        before = mine[max(0, start - FIGHTERS_PAGE):start]
    entries = [discord.SelectOption(label=clip(f.name, MENU_LABEL),
                                    value=fighter_index(state, f.key), default=f.key == shown.key)
               for f in page]
    if before:
        entries.insert(0, _page_entry(state, phrase("Previous: {names}", names=_names(before)),
                                      before, language))
    if after:
        page = after[:FIGHTERS_PAGE]
        entries.append(_page_entry(state, phrase("Next: {names}", names=_names(page)), page,
                                   language))
    return entries


def _names(page: list[Fighter]) -> str:
    return ", ".join(group_names([f.name for f in page]))


def _page_entry(state: Combat, label: Phrase, page: list[Fighter],
                language: str) -> discord.SelectOption:
    """The entry that turns to ``page`` (its first fighter's options), naming who is on it."""
    return discord.SelectOption(label=clip(render(label, language), MENU_LABEL),
                                value=fighter_index(state, page[0].key))


def _picked(interaction: discord.Interaction[Any]) -> str:
    return next(iter(picked_values(interaction)), "")
