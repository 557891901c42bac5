"""The confirmation a delete asks for: a **Delete …** and a **Keep …** button, answered from
their custom ids (after a restart too). The steps are the same whatever is deleted; a cog
gives what differs: who may answer, how the record is found and deleted, and the words."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar

import discord

from bot.components import PersistentButton, identity_stamp
from bot.custom_ids import CustomId, IdField, choice, digits, eight_hex
from bot.i18n import SOURCE, channel_language, render
from bot.user_error import UserError
from engine.phrases import Said

__all__ = ["ConfirmDelete", "Deletable", "confirm_delete_id"]


class Deletable(Protocol):
    """A stored record a confirmation may delete."""

    @property
    def id(self) -> int: ...
    @property
    def guild_id(self) -> int: ...
    @property
    def created_at(self) -> str: ...


RecordT = TypeVar("RecordT", bound=Deletable)


def confirm_delete_id(prefix: str, *fields: IdField) -> CustomId:
    """``prefix:record id:stamp:fields…:delete|keep``: the stamp tells the record from a new
    one that reuses a deleted one's id."""
    return CustomId(prefix, digits("id", 18), eight_hex(), *fields,
                    choice("action", "delete", "keep"))


class ConfirmDelete(PersistentButton, Generic[RecordT]):
    """Mixin for one of the two buttons, before ``discord.ui.DynamicItem[discord.ui.Button]``
    with ``id_spec=`` a :func:`confirm_delete_id`. The subclass sets :attr:`record_id`,
    :attr:`stamp` and :attr:`action` and gives the steps that differ."""

    #: What is deleted, in the buttons' English labels ("Delete character"), when
    #: :attr:`labels` does not give them.
    thing: ClassVar[str] = ""
    #: The two buttons' labels, delete and keep (``N_`` literals, said in the channel's
    #: language).
    labels: ClassVar[tuple[str, str] | None] = None
    #: The answer once the record is gone (deleted already, or another in its place).
    gone: ClassVar[Said]
    record_id: int
    stamp: str
    action: str

    @classmethod
    def button(cls, action: str, language: str = SOURCE,
               **values: object) -> discord.ui.Button[Any]:
        """The button for ``action`` ("delete" or "keep"), labelled in ``language``, its id
        made of ``values``."""
        delete, keep = ((render(cls.labels[0], language), render(cls.labels[1], language))
                        if cls.labels else (f"Delete {cls.thing}", f"Keep {cls.thing}"))
        label, style = ((delete, discord.ButtonStyle.danger) if action == "delete"
                        else (keep, discord.ButtonStyle.secondary))
        return discord.ui.Button(label=label, style=style,
                                 custom_id=cls.id_spec.format(action=action, **values))

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        await self.may_answer(interaction)
        stored = await self.find(interaction)
        if (stored is None or stored.guild_id != interaction.guild_id
                or identity_stamp(stored.created_at) != self.stamp):
            raise UserError(self.gone)
        await self.may_delete(interaction, stored)
        who = interaction.user.mention
        language = await channel_language(interaction)  # the confirmation is public
        if self.action == "keep":
            await interaction.response.edit_message(
                content=render(self.kept(who, stored), language), view=None)
            return
        if not await self.delete(interaction, stored):
            raise UserError(self.gone)
        await interaction.response.edit_message(
            content=render(self.deleted(who, stored), language), view=None)

    async def may_answer(self, interaction: discord.Interaction[Any]) -> None:
        """Refuses (a :class:`UserError`) who may not answer, before the record is looked at."""

    async def may_delete(self, interaction: discord.Interaction[Any], stored: RecordT) -> None:
        """Refuses (a :class:`UserError`) who may not answer for the record found."""

    async def find(self, interaction: discord.Interaction[Any]) -> RecordT | None:
        raise NotImplementedError

    async def delete(self, interaction: discord.Interaction[Any], stored: RecordT) -> bool:
        """Deletes the record; whether it was still there to delete."""
        raise NotImplementedError

    def kept(self, who: str, stored: RecordT) -> Said:
        raise NotImplementedError

    def deleted(self, who: str, stored: RecordT) -> Said:
        raise NotImplementedError
