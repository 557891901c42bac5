"""A map as a message: in a code block within a phone's 40 columns (the grid when it fits,
else the list), its title, who is where in a fight, and a GM's text read with the line of a
mistake."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import discord
from discord.utils import escape_markdown

from bot.cogs.maps.finding import FoundMap
from bot.i18n import SOURCE, render, translated
from bot.text import MESSAGE_LIMIT, clip
from bot.user_error import UserError
from engine.combat import Combat
from engine.combat.crowd import Row, group_copies
from engine.maprender import render_grid, render_list
from engine.maps import GameMap, MapError, parse_map
from engine.phrases import Phrase, phrase, plural_phrase

GRID_WIDTH = 40  # columns a phone shows in a code block

__all__ = [
    "areas_text", "map_title", "read_map", "render_block", "text_file",
    "who_is_where",
]


def areas_text(m: GameMap, language: str = SOURCE) -> str:
    """"3 areas", in ``language``."""
    return render(plural_phrase("{count} area", "{count} areas", "count", count=len(m.areas)),
                  language)


def _sayer(language: str) -> Callable[[Phrase], str]:
    """How a drawn map says its legend and headings: in ``language``."""
    return lambda said: render(said, language)


def _defuse(text: str) -> str:
    """``text`` safe inside a code block: no two backticks side by side (a zero-width space
    between them), so a note holding ``` cannot end the block early."""
    return re.sub(r"`(?=`)", "`\u200b", text)


def _fenced(head: str, draw: Callable[[int], str | None]) -> str | None:
    """``head`` and ``draw(limit)`` in a code block, all in one message; None if ``draw``
    returns None (the grid does not fit)."""
    room = MESSAGE_LIMIT - len(head) - len("\n```\n\n```")
    limit = room
    while limit > 0:
        body = draw(limit)
        if body is None:
            return None
        safe = _defuse(body)
        if len(safe) <= room:
            return f"{head}\n```\n{safe}\n```"
        limit -= len(safe) - room
    return None


def render_block(head: str, m: GameMap, view: str | None = None,
                 language: str = SOURCE) -> str:
    """One message: ``head``, then the map in a code block (legend included). ``view`` is
    "grid", "list" or None (the grid when every area has a position and it fits 40 columns,
    else the list); a grid that cannot be drawn is explained, then the list is shown. Its
    words (the legend, the explanation) in ``language``."""
    say = _sayer(language)
    if view != "list":
        grid = _fenced(head, lambda limit: render_grid(m, width=GRID_WIDTH, limit=limit,
                                                       say=say))
        if grid is not None:
            return grid
        if view == "grid":
            if any(p is None for p in m.positions):
                head += "\n" + say(phrase("-# No grid: not every area has a position "
                                          "(`Area @ col,row`), so here is the list."))
            else:
                head += "\n" + say(phrase("-# The grid is wider than {columns} columns or too "
                                          "long for one message, so here is the list.",
                                          columns=GRID_WIDTH))
    listed = _fenced(head, lambda limit: render_list(m, limit=limit, width=GRID_WIDTH,
                                                     say=say))
    assert listed is not None
    return listed


def who_is_where(fight: Combat, m: GameMap, language: str = SOURCE) -> list[str]:
    """"**Who is where:**" and a line per area that holds fighters, in the map's order
    ("• Dance Floor: Ana, Goon 1-12"): numbered NPC copies of one team in one area share an
    entry (:func:`~engine.combat.crowd.group_copies`), so that 40 fighters take a few lines.
    Empty when nobody has joined the fight yet."""
    rows = [Row(f.name, f.team, f.area, "", "", npc=f.character.npc) for f in fight.fighters]
    by_area: dict[str, list[str]] = {}
    for row in group_copies(rows):
        by_area.setdefault(row.area, []).append(escape_markdown(row.name))
    areas = [a for a in m.areas if a in by_area] + [a for a in by_area if a not in m.areas]
    return [translated("**Who is where:**", language),
            *(f"• {escape_markdown(area)}: {', '.join(by_area[area])}"
              for area in areas)] if areas else []


def map_title(found: FoundMap, m: GameMap, language: str = SOURCE) -> str:
    """"🗺️ **Name** (built-in) · 3 areas", in ``language``."""
    name, areas = escape_markdown(found.name), areas_text(m, language)
    if found.builtin:
        return render(phrase("🗺️ **{name}** (built-in) · {areas}", name=name, areas=areas),
                      language)
    return f"🗺️ **{name}** · {areas}"


def text_file(name: str, text: str) -> discord.File:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "map"
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{slug}.map")


def _quote(line: str) -> str:
    line = clip(line.strip(), 100)
    return f"`{line}`" if "`" not in line else escape_markdown(line)


def read_map(text: str, language: str = SOURCE) -> GameMap:
    """Parse a GM's text; a mistake becomes a UserError (in ``language``) with its line number
    and the line."""
    try:
        return parse_map(text)
    except MapError as err:
        mistake = render(err.detail, language).rstrip(".")
        if err.line <= 0:
            raise UserError(phrase("That map cannot be read: {mistake}.",
                                   mistake=mistake)) from err
        lines = text.splitlines()
        shown = lines[err.line - 1] if err.line <= len(lines) else ""
        quote = f"\n> {_quote(shown)}" if shown.strip() else ""
        raise UserError(phrase("Line {line} has a mistake: {mistake}.{quote}", line=err.line,
                               mistake=mistake, quote=quote)) from err
