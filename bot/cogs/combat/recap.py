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
from bot.permissions import is_gm
from bot.store.values import LogEntry, StoredCombat
from bot.text import clip
from bot.user_error import UserError
from engine.catalog import Rules
from engine.combat.recap import recap_text
from engine.phrases import english

__all__ = ["LogFileButton", "after_the_fight_hint", "log_text", "recap_message",
           "send_log_file", "struck_log"]

_ROUND_BEGINS = re.compile(r"Round (\d+) begins\.")


def recap_message(stored: StoredCombat, rules: Rules,
                  next_step: str = "") -> tuple[str, discord.ui.View]:
    """The recap of ``stored`` (an ended fight), ``next_step`` under it (see
    :func:`after_the_fight_hint`), and its Log file button."""
    body = discord.utils.escape_markdown(recap_text(stored.state, rules=rules))
    where = discord.utils.escape_markdown(stored.map_name)
    return (clip(f"🏁 **Fight recap** · {where}\n{body}{next_step}"),
            button_row(LogFileButton(stored.id)))


def after_the_fight_hint(stored: StoredCombat, *, recovering: bool, session_open: bool) -> str:
    """What the table does after the fight, in one line: the PCs offered Recovery press its
    button (in the fight's thread, for a fight that had one), the open session's status, and
    another fight."""
    parts = []
    if recovering:
        where = ("below" if stored.report_channel_id is None
                 else f"in <#{stored.channel_id}>")
        parts.append(f"PCs recover with **Recover** {where} (or `/character recover`)")
    if session_open:
        parts.append("`/session status` shows the session")
    parts.append("`/combat start` starts another fight")
    return f"\n-# Next: {'; '.join(parts)}."


def log_text(stored: StoredCombat, entries: Sequence[LogEntry], *, gm: bool = False) -> str:
    """The fight's log as a text file: one line per event (the further lines of a long one
    indented), a heading at each round, and what was undone marked so; for a ``gm``, with the
    figures of the NPCs hidden from the players."""
    lines = [f"Unhex fight on {stored.map_name} (fight {stored.id})",
             "Lines marked (undone) were taken back with /combat undo.", ""]
    for entry in entries:
        mark = "(undone) " if entry.undone else ""
        for event in entry.gm_events if gm else entry.events:
            first, *more = english(event).splitlines() or [""]
            begins = _ROUND_BEGINS.fullmatch(first)
            if begins and not entry.undone:
                lines += ["", f"== Round {begins[1]} =="]
                continue
            lines.append(mark + first)
            lines.extend(f"  {line}" for line in more)
    return "\n".join(lines) + "\n"


def struck_log(entries: Sequence[LogEntry], *, gm: bool = False) -> str:
    """The events of ``entries`` as Discord Markdown, a line each, what was undone struck
    through (each of its lines, as Discord strikes within a line); the text escaped first, so
    that its own ``~`` or ``*`` stay as typed and the strike marks are real."""
    lines = [(line, e.undone) for e in entries for t in (e.gm_events if gm else e.events)
             for line in english(t).split("\n")]
    if not lines:
        return ""
    # escaped together, so that a `*` or `_` on one line and its pair on another both are
    escaped = discord.utils.escape_markdown("\n".join(line for line, _ in lines)).split("\n")
    return "\n".join(f"~~{text}~~" if undone and text.strip() else text
                     for text, (_, undone) in zip(escaped, lines, strict=True))


async def send_log_file(interaction: discord.Interaction[Any], stored: StoredCombat) -> None:
    """Answer ``interaction``, for its user only, with ``stored``'s whole log as a file."""
    host: Host = interaction.client
    entries = await host.store.combats.log(stored.id, limit=None)
    text = log_text(stored, entries, gm=await is_gm(interaction))
    events = sum(len(e.events) for e in entries)
    await interaction.response.send_message(
        f"📜 The whole log of the fight on {discord.utils.escape_markdown(stored.map_name)}: "
        f"{events} event{'s' if events != 1 else ''}.",
        file=discord.File(io.BytesIO(text.encode()), filename=f"fight-{stored.id}-log.txt"),
        ephemeral=True)


class LogFileButton(
    PersistentButton,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    id_spec=CustomId("fightlog", digits("combat", 18)),
):
    """Log file: the fight's whole log, as a text file only the presser sees."""

    def __init__(self, combat_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="Log file", style=discord.ButtonStyle.secondary, emoji="📜",
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
            raise UserError("That fight's log is not on this server.")
        await send_log_file(interaction, stored)
