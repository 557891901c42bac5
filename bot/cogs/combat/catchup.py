"""Catching up on a fight played by post: `/combat catchup`, and the **Catch up** button on a
team's turn line, answer just the user with what happened since their fighter last acted —
a line per step (:mod:`~bot.cogs.combat.log_fold`), their fighter's level and marks now, who
is where, what waits for them and by when — and a link to the board, in one message.

"Since their fighter last acted" is since the newest step the user made, or made for one of
their fighters (a GM answering for it counts: the fighter acted); steps taken back with
`/combat undo` never happened. A GM with no fighter of their own gets the whole table since
they last acted, with the figures the GM reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.utils import escape_markdown

from bot.cogs.combat.board_message import board_link
from bot.cogs.combat.fights import fights_of
from bot.cogs.combat.log_fold import fold_steps
from bot.cogs.maps.drawing import who_is_where
from bot.components import PersistentButton
from bot.custom_ids import CustomId, digits
from bot.host import Host
from bot.i18n import N_, SOURCE, person_language, render, translated
from bot.permissions import is_gm
from bot.store.values import LogEntry, StoredCombat
from bot.text import MESSAGE_LIMIT, clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.character import status
from engine.combat import Combat, Fighter
from engine.combat.asking import Question, asked
from engine.names import name_key
from engine.phrases import phrase, plural_phrase

__all__ = ["CatchUpButton", "catch_up_command", "catch_up_text", "since_acted"]

NO_FIGHTER = N_("You have no character in this fight, so there is nothing to catch up on for "
                "you. `/combat log` shows what happened; `/combat add` puts your character "
                "in.")

#: The most characters each part under the steps may take (many fighters, many questions).
PART_LIMIT = 500


def since_acted(entries: Sequence[LogEntry], user_id: int,
                keys: frozenset[str]) -> tuple[list[LogEntry], bool]:
    """The steps of ``entries`` (oldest first) after the newest one ``user_id`` made or made
    for one of the fighters ``keys``, steps taken back left out; and whether there was one."""
    kept = [e for e in entries if not e.undone]
    for n in range(len(kept) - 1, -1, -1):
        entry = kept[n]
        if entry.user_id == user_id or keys & _fighters_of_command(entry.command):
            return kept[n + 1:], True
    return kept, False


def _fighters_of_command(command: str) -> set[str]:
    """The keys of the fighters a logged command acts for (several for answers given at
    once)."""
    try:
        data = json.loads(command)
    except ValueError:
        return set()
    if not isinstance(data, dict):
        return set()
    found = {name_key(data["fighter"])} if isinstance(data.get("fighter"), str) else set()
    for answer in data.get("answers") or ():
        if isinstance(answer, dict) and isinstance(answer.get("fighter"), str):
            found.add(name_key(answer["fighter"]))
    return found


def _standing(fighter: Fighter, rules: Rules, language: str) -> str:
    """"**Ana** · level 38/40 · fine · marks: left leg \\\\" (the marks as the sheet
    draws them)."""
    ch = fighter.character
    marks = ", ".join(f"{render(rules.body.location(loc).name.lower(), language)} {marked}"
                      for loc, marked in ch.wounds.items() if marked)
    said = render(phrase("level {level}/{most} · {state} · marks: {marks}", level=ch.level,
                         most=ch.max_level,
                         state=render(status(ch, rules=rules).value, language),
                         marks=marks or translated("none", language)), language)
    return f"**{escape_markdown(fighter.name)}** · {escape_markdown(said)}"


def _waiting_line(question: Question, language: str) -> str:
    """"• Ana: may react before the dice are rolled, by <t:…:f> (<t:…:R>)"."""
    line = f"• {escape_markdown(question.who)}: {escape_markdown(render(question.text, language))}"
    if question.deadline:
        at = int(question.deadline)
        line += render(phrase(", by {when}", when=f"<t:{at}:f> (<t:{at}:R>)"), language)
    return line


def _part(lines: list[str], language: str) -> list[str]:
    """``lines`` within :data:`PART_LIMIT` characters, the rest said to be left out."""
    kept: list[str] = []
    for n, line in enumerate(lines):
        if len("\n".join([*kept, line])) > PART_LIMIT:
            return [*kept, render(phrase("-# … and {count} more", count=len(lines) - n),
                                  language)]
        kept.append(line)
    return kept


def _waits(state: Combat, rules: Rules, user_id: int, language: str, *,
           gm: bool) -> list[str]:
    """What the fight waits for from the user (for a GM: what a GM answers), and by when."""
    questions = [q for q in asked(state, rules).questions if not q.offer]
    theirs = [q for q in questions if (not q.users if gm else user_id in q.users)]
    if not theirs:
        return [translated("Nothing waits for you now.", language)]
    return [translated("**Waiting for you:**", language),
            *_part([_waiting_line(q, language) for q in theirs], language)]


def _head(stored: StoredCombat, names: str, since: int, acted: bool,
          language: str) -> list[str]:
    """The catch-up's title, and how many steps it folds (``names``: the reader's fighters,
    "" for a GM's whole table)."""
    where = escape_markdown(stored.map_name)
    whose = escape_markdown(names)
    if names:
        head = [render(phrase("📰 **Catching up** · {map} · {names}", map=where, names=whose),
                       language)]
    else:
        head = [render(phrase("📰 **Catching up** · {map} · the whole table", map=where),
                       language)]
    if not since:
        head.append(render(phrase("Nothing has happened since {names} last acted.",
                                  names=whose) if names else
                           phrase("Nothing has happened since you last acted."), language))
    elif not acted:
        head.append(render(plural_phrase("-# Since the fight began: {count} step.",
                                         "-# Since the fight began: {count} steps.", "count",
                                         count=since), language))
    elif names:
        head.append(render(plural_phrase("-# Since {names} last acted: {count} step.",
                                         "-# Since {names} last acted: {count} steps.",
                                         "count", names=whose, count=since), language))
    else:
        head.append(render(plural_phrase("-# Since you last acted: {count} step.",
                                         "-# Since you last acted: {count} steps.", "count",
                                         count=since), language))
    return head


def catch_up_text(stored: StoredCombat, entries: Sequence[LogEntry], rules: Rules,
                  language: str, *, user_id: int, gm: bool, board_id: int | None) -> str:
    """The catch-up for ``user_id`` in ``language`` (``gm``: a GM, who reads the hidden
    figures; with no fighter of their own, the whole table): what happened since they last
    acted, folded, then how their fighters stand, who is where, what waits for them, and the
    board's link; within Discord's 2,000 characters, the oldest steps cut first (counted)."""
    state = stored.state
    mine = state.fighters_of(user_id)
    if not mine and not gm:
        raise UserError(NO_FIGHTER)
    names = clip(", ".join(f.name for f in mine), 150)  # (a GM may give a player many)
    since, acted = since_acted(entries, user_id, frozenset(f.key for f in mine))
    steps = fold_steps([(e.gm_events or e.events) if gm else e.events for e in since],
                       language)
    head = _head(stored, names if mine else "", len(since), acted, language)
    tail = [*_part([_standing(f, rules, language) for f in mine], language),
            *_part(who_is_where(state, state.game_map(), language), language),
            *_waits(state, rules, user_id, language, gm=gm and not mine)]
    if board_id is not None:
        tail.append(render(phrase("📌 The board: {link}", link=board_link(stored, board_id)),
                           language))
    return _fitted(head, [f"• {escape_markdown(line)}" for line in steps], tail, language)


def _fitted(head: list[str], steps: list[str], tail: list[str], language: str) -> str:
    """The message within :data:`MESSAGE_LIMIT`: the oldest steps give way first, a line
    saying how many."""
    fixed = len("\n".join([*head, *tail]))
    left = sum(len(line) + 1 for line in steps)  # (each with its line break)
    for cut in range(len(steps) + 1):
        note = [_folded(cut, language)] if cut else []
        if fixed + left + sum(len(line) + 1 for line in note) <= MESSAGE_LIMIT:
            return "\n".join([*head, *note, *steps[cut:], *tail])
        if cut < len(steps):
            left -= len(steps[cut]) + 1
    return clip("\n".join([*head, _folded(len(steps), language), *tail]))


def _folded(cut: int, language: str) -> str:
    return render(plural_phrase("-# … {count} older line left out (`/combat log file:True` "
                                "has them all)",
                                "-# … {count} older lines left out (`/combat log file:True` "
                                "has them all)", "count", count=cut), language)


async def send_catch_up(interaction: discord.Interaction[Any], stored: StoredCombat) -> None:
    """Answer ``interaction``, for its user only, with their catch-up on ``stored``."""
    host: Host = interaction.client
    gm = await is_gm(interaction)
    if not stored.state.fighters_of(interaction.user.id) and not gm:
        raise UserError(NO_FIGHTER)
    language = await person_language(interaction)
    entries = await host.store.combats.log(stored.id, limit=None)
    kept = await host.store.combats.get(stored.id)  # (the board's id as last recorded)
    board_id = kept.board_message_id if kept is not None else stored.board_message_id
    text = catch_up_text(stored, entries, fights_of(interaction).rules, language,
                         user_id=interaction.user.id, gm=gm, board_id=board_id)
    await interaction.response.send_message(text, ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())


async def _catch_up(interaction: discord.Interaction[Any]) -> None:
    stored = await fights_of(interaction).require_fight(interaction)
    await send_catch_up(interaction, stored)


def catch_up_command() -> app_commands.Command[Any, ..., None]:
    """`/combat catchup`, made afresh for each bot (a command belongs to one group)."""
    return app_commands.Command(
        name="catchup", callback=_catch_up,
        description=N_("What happened since your character last acted, just for you."))


class CatchUpButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("catchup", digits("combat")),
):
    """**Catch up** on a team's turn line: the presser's catch-up, just for them. The id
    carries the fight, so a press on an old line still answers while the fight lasts."""

    def __init__(self, combat_id: int, *, language: str = SOURCE) -> None:
        super().__init__(discord.ui.Button(
            label=translated("Catch up", language), style=discord.ButtonStyle.secondary, emoji="📰",
            custom_id=self.id_spec.format(combat=combat_id)))
        self.combat_id = combat_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CatchUpButton:
        return cls(int(match["combat"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        stored = await fights_of(interaction).require_fight(interaction, self.combat_id)
        await send_catch_up(interaction, stored)
