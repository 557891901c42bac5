"""Finding a fight's prompts in its channel when this process may not know every one: a
follow-up Discord made though it answered 5xx, or one posted just before the process died
(before its id was recorded). One request reads the channel's newest messages; a prompt is
known by its buttons' custom ids, which carry the fight's id: the caller gives the templates
of the items a prompt is made of (this module imports no view, so no cycle).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

__all__ = ["SWEPT", "Templates", "prompt_ids", "prompts_of", "view_ids"]

#: How many of the channel's newest messages a sweep reads: one request (at most 100).
SWEPT = 50

#: The custom id templates of the buttons and menus a prompt is made of (each with a
#: ``combat`` group: the fight's id).
Templates = Sequence[re.Pattern[str]]


def _names_fight(custom_id: str, combat_id: int, templates: Templates) -> bool:
    for template in templates:
        match = template.fullmatch(custom_id)
        if match is not None:
            return match["combat"] == str(combat_id)
    return False


def prompt_ids(message: discord.Message, combat_id: int, templates: Templates) -> list[str]:
    """The custom ids of ``message``'s live buttons and menus, sorted, when they are a prompt
    of fight ``combat_id`` (else empty: another message, or one whose buttons are gone)."""
    ids = sorted(str(getattr(part, "custom_id", "") or "") for row in message.components
                 for part in getattr(row, "children", ()))
    if ids and any(_names_fight(custom_id, combat_id, templates) for custom_id in ids):
        return ids
    return []


def view_ids(view: discord.ui.View | None) -> list[str]:
    """The custom ids of ``view``'s items, sorted, as :func:`prompt_ids` gives them."""
    if view is None:
        return []
    return sorted(str(getattr(item, "custom_id", "") or "") for item in view.children)


async def prompts_of(channel: discord.PartialMessageable, combat_id: int, author_id: int,
                     templates: Templates) -> list[tuple[discord.Message, list[str]]]:
    """The fight's prompts with live buttons among the channel's newest :data:`SWEPT`
    messages that ``author_id`` (the bot) posted, newest first, each with its custom ids."""
    found = []
    async for message in channel.history(limit=SWEPT):
        if message.author.id != author_id:
            continue
        ids = prompt_ids(message, combat_id, templates)
        if ids:
            found.append((message, ids))
    return found
