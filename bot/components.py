"""Persistent buttons: custom ids carry what the handler needs, so buttons keep working after
a restart and after the interaction token has expired. Every handler's errors go through the
bot's one error reporter."""

from __future__ import annotations

import logging
import re
import zlib
from collections.abc import Iterable
from typing import Any, ClassVar

import discord

from bot.custom_ids import CustomId
from bot.errors import handled, reader_language, report_error
from bot.i18n import translated
from bot.text import SOURCE, clip
from bot.user_error import UserError
from engine.phrases import phrase

log = logging.getLogger(__name__)


class PersistentButton:
    """Mixin for a button whose state lives in its custom id and the database.

    Use it before ``discord.ui.DynamicItem[discord.ui.Button]`` with ``id_spec=`` (a
    :class:`~bot.custom_ids.CustomId`: its template is the item's, and ``self.id_spec``
    builds its ids); build the item from the match in ``from_custom_id`` and implement
    :meth:`handle`. Errors in ``handle`` reach the user through the one error reporter.
    """

    id_spec: ClassVar[CustomId]

    def __init_subclass__(cls, *, id_spec: CustomId | None = None, **kwargs: Any) -> None:
        if id_spec is not None:
            cls.id_spec = id_spec
            kwargs["template"] = id_spec.template
        super().__init_subclass__(**kwargs)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.handle(interaction)
        except Exception as error:
            await report_error(interaction, error)
        else:
            handled(interaction, "ok")

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


def identity_stamp(created_at: str) -> str:
    """Eight hex digits from a record's creation time: with its id in a button's custom id,
    which record the button means (a new record that reuses a deleted one's id has another)."""
    return f"{zlib.crc32(created_at.encode()):08x}"


def picked_values(interaction: discord.Interaction[Any]) -> list[str]:
    """What the user picked in a select menu (empty when the payload carries nothing)."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values")
    return [str(v) for v in values] if isinstance(values, list) else []


def button_row(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    """A view (timeout None: the buttons are persistent) holding ``buttons`` in order."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return view


#: The one character Discord's clients never send and PostgreSQL cannot keep in text.
NUL = "\x00"
NUL_TYPED = phrase("That form's text holds a NUL character, which Discord's clients never "
                   "send: nothing was saved.")


def typed_value(component: dict[str, Any]) -> str:
    """A text input's value, refused when it holds a NUL (a forged form: the same refusal on
    every database engine, where PostgreSQL would fail to keep it)."""
    value = str(component.get("value") or "")
    if NUL in value:
        raise UserError(NUL_TYPED)
    return value


def submitted_text(components: Any) -> str:
    """The first text input's value in a modal submit's components (rows or labels): for
    modals answered from the payload alone, which survive a restart."""
    for component in components or ():
        if not isinstance(component, dict):
            continue
        if component.get("type") == 4:
            return typed_value(component)
        inner = component.get("components") or [component.get("component")]
        found = submitted_text(inner)
        if found:
            return found
    return ""


def submitted_fields(components: Any) -> dict[str, str]:
    """Every field's value in a modal submit's components, by its custom id: a text input's
    text, or the first option picked in a select (empty when none was)."""
    found: dict[str, str] = {}
    for component in components or ():
        if not isinstance(component, dict):
            continue
        if component.get("type") == 4:
            found[str(component.get("custom_id"))] = typed_value(component)
            continue
        if component.get("type") == 3:
            picked = component.get("values") or [""]
            found[str(component.get("custom_id"))] = str(picked[0])
            continue
        found |= submitted_fields(component.get("components") or [component.get("component")])
    return found


async def answer_unknown(
    interaction: discord.Interaction[Any], known: Iterable[re.Pattern[str]]
) -> bool:
    """For the bot's ``on_interaction``: answer a button or form whose custom id matches none
    of ``known`` (the ids the bot answers), such as one shown by an older version of the bot
    or a forged one, so the user gets a sentence rather than "This interaction failed".
    Whether it was such an id."""
    if interaction.type not in (discord.InteractionType.component,
                                discord.InteractionType.modal_submit):
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    if any(pattern.fullmatch(str(data.get("custom_id", ""))) for pattern in known):
        return False
    language = await reader_language(interaction)
    if interaction.type is discord.InteractionType.component:
        text = translated("That button no longer works: the bot has changed since it was "
                          "shown. Nothing was changed.", language)
    else:
        text = translated("That form no longer works: the bot has changed since it was "
                          "opened. Nothing was saved.", language)
        try:
            typed = submitted_text(data.get("components")).strip()
        except UserError:
            typed = ""  # (not worth echoing)
        if typed and "```" not in typed:
            said_typed = translated("What you typed:", language)
            text = clip(f"{text} {said_typed}\n```{SOURCE}\n{typed}", 1996) + "\n```"
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not answer an unknown custom id for user %s", interaction.user.id)
    return True
