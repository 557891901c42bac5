"""One by one: questions alike asked of many show one button per answer for them all ("All
10: Defend") and a **One by one…** menu of the fighters asked. Picking one shows the picker
alone that fighter's own buttons (or menus), in a panel that follows the fighter: a press or
a pick applies as the prompt's own button would (the same command, the same refusals: an
older version, a fighter not yours), then the panel shows what the fighter is asked next (the
next point of AoE damage to place, the armor there) until nothing waits for them. The menu's
id carries the fight, its version and the question's kind; each entry's value is a
fighter's index in that version.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.combat.fights import Update, fights_of
from bot.cogs.combat.views import (
    MENU_OPTIONS,
    CombatButton,
    CombatMenu,
    answer_id,
    answer_rows,
    asked,
    asked_who,
    closes,
    decides_for,
    fighter_at,
    fighter_index,
    menu_id,
    view_of,
)
from bot.components import PersistentButton, picked_values
from bot.custom_ids import CustomId, digits, word
from bot.deferral import update_pressed
from bot.i18n import person_language, render, translated
from bot.permissions import is_gm
from bot.store.values import StoredCombat
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.combat import Event, Fighter, PromptKind
from engine.combat.asking import Alike
from engine.combat.asking import asked as fight_asks
from engine.phrases import phrase

__all__ = ["OneByOneMenu", "PanelButton", "PanelMenu", "fighter_panel", "one_by_one_menus"]

class OneByOneMenu(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    id_spec=CustomId("co", digits("combat"), digits("version"), word("kind"), digits("part")),
):
    """The fighters of questions alike; a pick opens that fighter's panel (to the picker)."""

    def __init__(self, select: discord.ui.Select[Any], combat_id: int, version: int,
                 kind: str) -> None:
        super().__init__(select)
        self.combat_id, self.version, self.kind = combat_id, version, kind

    @classmethod
    def make(cls, stored: StoredCombat, kind: str, part: int, placeholder: str,
             entries: list[tuple[str, str]]) -> OneByOneMenu:
        """Menu ``part``: ``entries`` are (fighter index, name) pairs."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=cls.id_spec.format(combat=stored.id, version=stored.version, kind=kind,
                                         part=part),
            placeholder=placeholder,
            options=[discord.SelectOption(label=clip(name, 100), value=index)
                     for index, name in entries])
        return cls(select, stored.id, stored.version, kind)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OneByOneMenu:
        return cls(discord.ui.Select(custom_id=match.string), int(match["combat"]),
                   int(match["version"]), match["kind"])

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        session = fights_of(interaction)
        stored = await session.require_fight(interaction, self.combat_id, self.version)
        picked = next(iter(picked_values(interaction)), "")
        prompt = asked(stored.state, self.kind, picked)  # out of date when no longer asked
        f = stored.state.fighter(prompt.fighter or "")
        if f.owner_id != interaction.user.id and not await is_gm(interaction):
            raise UserError(decides_for(f, discord.utils.escape_markdown(f.name)))
        content, view = fighter_panel(stored, f, await person_language(interaction),
                                      session.rules)
        await interaction.response.send_message(content, view=view, ephemeral=True)


def one_by_one_menus(stored: StoredCombat, group: Alike, language: str) -> list[OneByOneMenu]:
    """The **One by one…** menus of questions alike (``group``): their fighters, 25 a menu;
    placeholders in ``language``."""
    entries = [(fighter_index(stored.state, q.fighter), q.who)
               for q in group.questions if q.fighter is not None]
    parts = [entries[i:i + MENU_OPTIONS] for i in range(0, len(entries), MENU_OPTIONS)]
    kind = group.questions[0].kind.value
    one_by_one = render(phrase("One by one…"), language)
    return [OneByOneMenu.make(stored, kind, n, one_by_one + (
        " " + render(phrase("({first}-{last} of {count})", first=n * MENU_OPTIONS + 1,
                            last=n * MENU_OPTIONS + len(chunk), count=len(entries)), language)
        if len(parts) > 1 else ""), chunk) for n, chunk in enumerate(parts)]


class PanelButton(CombatButton, id_spec=answer_id("cp")):
    """An answer in a fighter's panel: a :class:`CombatButton` whose press then shows, in the
    panel, what the fighter is asked next."""

    def after_press(self, interaction: discord.Interaction[Any]
                    ) -> Update:
        async def follow(saved: StoredCombat, events: tuple[Event, ...]) -> None:
            f = fighter_at(saved.state, self.fighter)
            rules = fights_of(interaction).rules
            language = await person_language(interaction)
            content, view = (fighter_panel(saved, f, language, rules) if f is not None
                             else (translated("Nothing waits for that fighter now.", language),
                                   discord.ui.View()))
            await update_pressed(interaction, content=content, view=view)  # (deferred or not)

        return follow


class PanelMenu(CombatMenu, id_spec=menu_id("pm")):
    """An answer menu in a fighter's panel (more than ten answers): a pick is a
    :class:`PanelButton`'s press, so the panel then shows what the fighter is asked next."""

    button = PanelButton


def fighter_panel(stored: StoredCombat, f: Fighter, language: str,
                  rules: Rules | None = None) -> tuple[str, discord.ui.View]:
    """What the fight asks ``f`` now, with ``f``'s own buttons (a :class:`PanelButton` each),
    in ``language`` (the picker's own). ``rules``: the fight's, so that the panel reads what
    the prompt read of the same state."""
    lines: list[str] = []
    rows: list[list[Any]] = []
    for asked_question in fight_asks(stored.state, rules).questions:
        if (asked_question.fighter != f.key or asked_question.kind is PromptKind.ACT
                or asked_question.secret):
            continue
        packed = answer_rows(stored, asked_question, rows, [], named=False, language=language,
                             button=PanelButton, menu=PanelMenu)
        if packed is None:
            break
        who = asked_who(asked_question.who, asked_question.users, language)
        lines.append(f"**{who}** {render(asked_question.text, language)}"
                     f"{closes(asked_question, language)}")
        rows = packed
    view = view_of(rows)
    view.stop()  # the buttons answer from their ids: nothing to keep, nothing to time out
    if not lines:
        name = discord.utils.escape_markdown(f.name)
        return render(phrase("Nothing waits for {name} now: the fight's prompt shows what is "
                             "next.", name=name), language), view
    return clip("\n".join(lines), 1900), view
