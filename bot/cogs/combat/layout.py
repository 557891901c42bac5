"""The prompt message: the question lines of what the fight waits for (the engine's one
value of it, ``engine.combat.asking``) laid out as Discord's rows of buttons and menus, with
the mentions that ping exactly who is asked. It builds on the buttons of
:mod:`bot.cogs.combat.views` and the menus of :mod:`bot.cogs.combat.one_by_one`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

import bot.cogs.combat.views as views
from bot.cogs.combat.one_by_one import one_by_one_menus
from bot.cogs.combat.views import (
    RESOLVE,
    REVEAL,
    TONE_STYLES,
    CombatButton,
    TogetherButton,
    answer_rows,
    asked_who,
    closes,
    fighter_index,
    pack_rows,
    view_of,
    within_rows,
)
from bot.i18n import SOURCE, render
from bot.store.values import StoredCombat
from bot.text import clip
from engine.catalog import Rules
from engine.combat import PromptKind
from engine.combat.asking import Alike
from engine.combat.asking import asked as fight_asks
from engine.phrases import phrase

__all__ = ["TurnLead", "prompt_message"]


def _together(stored: StoredCombat, group: Alike, language: str) -> list[TogetherButton]:
    """A button per answer, each answering every question of ``group`` alike."""
    first = group.questions[0]
    index = fighter_index(stored.state, first.fighter)
    return [TogetherButton(stored.id, stored.version, first.kind.value, str(n), index,
                           render(phrase("All {count}: {answer}", count=len(group.questions),
                                         answer=choice.label), language),
                           TONE_STYLES[choice.tone])
            for n, choice in enumerate(first.choices)]


@dataclass(frozen=True)
class TurnLead:
    """The prompt message's first line in a team's turn, with its buttons (see
    :mod:`bot.cogs.combat.turn`)."""

    line: str
    buttons: tuple[discord.ui.Item[Any], ...]
    users: tuple[int, ...]  # the players to ping (none once the turn has been announced)


def prompt_message(
    stored: StoredCombat, rules: Rules | None = None, lead: TurnLead | None = None, *,
    language: str = SOURCE,
) -> tuple[str, discord.ui.View | None, discord.AllowedMentions]:
    """Who must decide what, with their buttons (at most 25, in 5 rows; a menu, or several,
    for a question with more answers than :data:`MOST_BUTTONS` or than the rows left have
    room for), and the mentions that ping exactly the players asked to decide; with
    ``rules``, each question says what the decider's abilities give the roll at hand
    ("applies: good (2H melee attack)"). A question whose buttons would show the marks the
    GM hides gets one **Choose (GM)** button instead, which shows them to a GM alone.
    ``lead``: in a team's turn, the line (and buttons) saying who may act comes first. Said
    in ``language`` (the channel's)."""
    groups = fight_asks(stored.state, rules).groups
    questions = [q for group in groups for q in group.questions]
    users = sorted({u for q in questions for u in q.users} | set(lead.users if lead else ()))
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users])
    if not questions and lead is None:
        return "", None, mentions
    reacting = any(q.kind in (PromptKind.REACT, PromptKind.AOE_DEFEND) for q in questions)
    resolve = [CombatButton(stored.id, stored.version, RESOLVE, "", "",
                            render(phrase("Resolve now (GM)"), language),
                            discord.ButtonStyle.secondary)] if reacting else []
    layout = _Layout(stored, resolve, lead, named=len(questions) > 1, most=views.MOST_BUTTONS,
                     language=language)
    lines, rows = layout.questions(groups)
    if layout.crowded:  # the same question to many: one answer for them all
        lines, rows = _Layout(stored, resolve, lead, named=True, most=0,
                              language=language).questions(groups)
    return clip("\n".join(lines), 1900), view_of(pack_rows(rows, resolve)), mentions


class _Layout:
    """The prompt's lines and rows of answers, question after question (questions alike asked
    once); ``crowded`` once a question found no room and was sent to its slash command.
    Questions alike whose buttons would be more than ``most`` (past two rows of buttons a
    phone shows a wall to scan) get one button per answer for them all ("All 10: Defend"),
    and a "One by one…" menu to answer for one of them."""

    def __init__(self, stored: StoredCombat, resolve: list[Any], lead: TurnLead | None, *,
                 named: bool, most: int, language: str) -> None:
        self.stored, self.resolve, self.named = stored, resolve, named
        self.most, self.language = most, language
        self.lines: list[str] = [lead.line] if lead else []
        self.rows: list[list[Any]] = [list(lead.buttons)] if lead else []
        self.crowded = False

    def questions(self, groups: tuple[Alike, ...]) -> tuple[list[str], list[list[Any]]]:
        for group in groups:
            self._question(group)
        return self.lines, self.rows

    def _question(self, group: Alike) -> None:
        first, language = group.questions[0], self.language
        deadline = closes(first, language)
        if first.applies is not None and len(group.questions) == 1:
            deadline += " — " + render(phrase("applies: {applies}", applies=first.applies),
                                       language)
        asked_line = (f"**{asked_who(group.who, first.users, language)}** "
                      f"{render(first.text, language)}{deadline}")
        packed = self._rows_for(group)
        if packed is None:
            self.crowded = True
            self.lines.append(render(phrase("{question}: no room for more buttons, use "
                                            "`/{command}`.", question=asked_line,
                                            command=first.slash), language))
            return
        self.lines.append(asked_line)
        self.rows = packed

    def _rows_for(self, group: Alike) -> list[list[Any]] | None:
        """The rows with ``group``'s answers added (None: no room for them)."""
        first = group.questions[0]
        if len(group.questions) > 1 and sum(
                len(q.choices) for q in group.questions) > self.most:
            together = pack_rows(self.rows, _together(self.stored, group, self.language))
            menus = [[menu] for menu in one_by_one_menus(self.stored, group, self.language)]
            return (within_rows([*together, *menus], self.resolve)
                    or within_rows(together, self.resolve))
        if first.secret:
            reveal = CombatButton(self.stored.id, self.stored.version, REVEAL, "",
                                  fighter_index(self.stored.state, first.fighter),
                                  render(phrase("Choose (GM)"), self.language))
            return within_rows(pack_rows(self.rows, [reveal]), self.resolve)
        packed: list[list[Any]] | None = self.rows
        for asked_question in group.questions:
            if packed is not None:
                packed = answer_rows(self.stored, asked_question, packed, self.resolve,
                                     named=self.named, language=self.language)
        return packed
