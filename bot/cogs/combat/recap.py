"""After a fight: the recap posted in its channel, with a Log file button that gives whoever
presses it the fight's whole log as a text file, also long after the fight (and after a
restart: the button's id carries the fight's id)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.components import PersistentButton, button_row
from bot.custom_ids import CustomId, digits
from bot.host import Host
from bot.i18n import SOURCE, person_language, render, translated
from bot.permissions import is_gm
from bot.store.values import LogEntry, StoredCombat
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.combat.recap import recap_text
from engine.phrases import Phrase, Said, phrase, plural_phrase

__all__ = ["LogFileButton", "after_the_fight_hint", "log_text", "recap_message",
           "round_begun", "send_log_file", "struck_log"]

_ROUND_BEGINS = re.compile(r"Round (\d+) begins\.")
#: The engine's "Round 2 begins." as a phrase's source (its placeholder's name aside).
_ROUND_BEGINS_SOURCE = re.compile(r"Round \{(\w+)\} begins\.")


def round_begun(said: Said) -> int | None:
    """The round an event says begins ("Round 2 begins."), read from a phrase's value (or an
    older log's English); None for any other event."""
    if isinstance(said, str):
        begins = _ROUND_BEGINS.fullmatch(said)
        return None if begins is None else int(begins[1])
    source = _ROUND_BEGINS_SOURCE.fullmatch(said.msgid)
    if source is None:
        return None
    number = dict(said.arguments).get(source[1])
    return number if isinstance(number, int) else None


def recap_message(stored: StoredCombat, rules: Rules, language: str,
                  next_step: str = "") -> tuple[str, discord.ui.View]:
    """The recap of ``stored`` (an ended fight) in ``language``, ``next_step`` under it (see
    :func:`after_the_fight_hint`), and its Log file button."""
    body = discord.utils.escape_markdown(recap_text(
        stored.state, rules=rules, say=lambda said: render(said, language)))
    where = discord.utils.escape_markdown(stored.map_name)
    title = render(phrase("🏁 **Fight recap** · {where}", where=where), language)
    return clip(f"{title}\n{body}{next_step}"), button_row(LogFileButton(stored.id, language))


def after_the_fight_hint(stored: StoredCombat, language: str, *, recovering: bool,
                         session_open: bool) -> str:
    """What the table does after the fight, in one line (in ``language``): the PCs offered
    Recovery press its button (in the fight's thread, for a fight that had one), the open
    session's status, and another fight."""
    parts: list[Phrase] = []
    if recovering:
        parts.append(phrase("PCs recover with **Recover** below (or `/character recover`)")
                     if stored.report_channel_id is None else
                     phrase("PCs recover with **Recover** in {channel} (or "
                            "`/character recover`)", channel=f"<#{stored.channel_id}>"))
    if session_open:
        parts.append(phrase("`/session status` shows the session"))
    parts.append(phrase("`/combat start` starts another fight"))
    said = "; ".join(render(part, language) for part in parts)
    return "\n-# " + render(phrase("Next: {steps}.", steps=said), language)


def log_text(stored: StoredCombat, entries: Sequence[LogEntry], language: str, *,
             gm: bool = False) -> str:
    """The fight's log as a text file in ``language``: one line per event (the further lines
    of a long one indented), a heading at each round, and what was undone marked so; for a
    ``gm``, with the figures of the NPCs hidden from the players."""
    lines = [render(phrase("Unhex fight on {map} (fight {number})", map=stored.map_name,
                           number=stored.id), language),
             translated("Lines marked (undone) were taken back with /combat undo.", language), ""]
    undone = translated("(undone)", language) + " "
    for entry in entries:
        mark = undone if entry.undone else ""
        for event in entry.gm_events if gm else entry.events:
            first, *more = render(event, language).splitlines() or [""]
            begun = round_begun(event)
            if begun is not None and not entry.undone:
                lines += ["", render(phrase("== Round {number} ==", number=begun), language)]
                continue
            lines.append(mark + first)
            lines.extend(f"  {line}" for line in more)
    return "\n".join(lines) + "\n"


def struck_log(entries: Sequence[LogEntry], language: str, *, gm: bool = False) -> str:
    """The events of ``entries`` as Discord Markdown in ``language``, a line each, what was
    undone struck through (each of its lines, as Discord strikes within a line); the text
    escaped first, so that its own ``~`` or ``*`` stay as typed and the strike marks are
    real."""
    lines = [(line, e.undone) for e in entries for t in (e.gm_events if gm else e.events)
             for line in render(t, language).split("\n")]
    if not lines:
        return ""
    # escaped together, so that a `*` or `_` on one line and its pair on another both are
    escaped = discord.utils.escape_markdown("\n".join(line for line, _ in lines)).split("\n")
    return "\n".join(f"~~{text}~~" if undone and text.strip() else text
                     for text, (_, undone) in zip(escaped, lines, strict=True))


async def send_log_file(interaction: discord.Interaction[Any], stored: StoredCombat) -> None:
    """Answer ``interaction``, for its user only, with ``stored``'s whole log as a file."""
    host: Host = interaction.client
    language = await person_language(interaction)
    entries = await host.store.combats.log(stored.id, limit=None)
    text = log_text(stored, entries, language, gm=await is_gm(interaction))
    events = sum(len(e.events) for e in entries)
    await interaction.response.send_message(
        render(plural_phrase("📜 The whole log of the fight on {map}: {count} event.",
                             "📜 The whole log of the fight on {map}: {count} events.",
                             "count", map=discord.utils.escape_markdown(stored.map_name),
                             count=events), language),
        file=discord.File(io.BytesIO(text.encode()), filename=f"fight-{stored.id}-log.txt"),
        ephemeral=True)


class LogFileButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("fightlog", digits("combat", 18)),
):
    """Log file: the fight's whole log, as a text file only the presser sees."""

    def __init__(self, combat_id: int, language: str = SOURCE) -> None:
        super().__init__(discord.ui.Button(
            label=translated("Log file", language), style=discord.ButtonStyle.secondary, emoji="📜",
            custom_id=self.id_spec.format(combat=combat_id)))
        self.combat_id = combat_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LogFileButton:
        return cls(int(match["combat"]))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        host: Host = interaction.client
        stored = await host.store.combats.get(self.combat_id)
        if stored is None or stored.guild_id != interaction.guild_id:
            raise UserError(phrase("That fight's log is not on this server."))
        await send_log_file(interaction, stored)
