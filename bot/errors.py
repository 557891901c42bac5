"""The one place where errors become messages: user mistakes get a clear ephemeral answer,
anything unexpected gets a reference to quote and a logged traceback."""

from __future__ import annotations

import contextlib
import logging
import secrets

import discord
from discord import app_commands

from bot.changes import committed
from bot.i18n import N_, SOURCE, person_language, render
from bot.text import clip
from bot.user_error import UserError
from engine.errors import RuleError
from engine.phrases import phrase

log = logging.getLogger("bot.errors")

#: The answer to a command whose payload does not fit the command as the bot has it now.
OUTDATED = N_("This command has changed since Discord showed it to you: reload Discord "
              "(Ctrl+R, or restart the app) and try again. Nothing was changed.")


def _user_message(error: BaseException, language: str) -> str | None:
    """The message for a user mistake in ``language``, or ``None`` when the error is
    unexpected."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.TransformerError):
        # A transformer that refused a value with our own message keeps that message.
        error = error.__cause__ if isinstance(error.__cause__, UserError | RuleError) else error
    if isinstance(
        error,
        UserError | RuleError | app_commands.TransformerError | app_commands.CheckFailure,
    ):
        # A check's refusal without a phrase is one of the bot's N_ constants (IN_A_DM).
        said = getattr(error, "said", None)
        return render(said if said is not None else str(error), language)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # Discord showed the user a command as it was before the bot changed it.
        return render(OUTDATED, language)
    return None


#: The answer when the database went away after this interaction's change was saved.
SAVED_THEN_UNAVAILABLE = N_("Your command was saved, but then the bot's database became "
                            "unavailable: what the channel shows may lag behind for a "
                            "moment.")


async def reader_language(interaction: discord.Interaction) -> str:
    """The user's language for a refusal; English when even that cannot be learnt (the
    database away: a refusal must still be said)."""
    try:
        return await person_language(interaction)
    except Exception:  # (any failure: the refusal matters more than its language)
        log.warning("Could not learn the language of user %s", interaction.user.id,
                    exc_info=True)
        return SOURCE


def handled(interaction: discord.Interaction, outcome: str) -> None:
    """Count ``interaction`` as handled with ``outcome`` in the bot's metrics (a bot without
    them, such as a test's bare bot, counts nothing)."""
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.handled(interaction, outcome)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong, ephemerally, whether or not the interaction was answered."""
    language = await reader_language(interaction)
    message = _user_message(error, language)
    handled(interaction, "error" if message is None else "refused")
    cause = getattr(error, "original", error)  # (a command's error comes wrapped)
    if message is not None and committed() and getattr(cause, "says_nothing_changed", False):
        message = render(SAVED_THEN_UNAVAILABLE, language)
    if message is None:
        reference = secrets.token_hex(3).upper()
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "Unexpected error (ref %s) for user %s in channel %s, command %s, data %s",
            reference, interaction.user.id, interaction.channel_id, command, interaction.data,
            exc_info=error,
        )
        if committed():  # this interaction's change was saved before the failure: say so
            message = render(phrase("Your command was saved, but something went wrong on our "
                                    "side while showing it (ref `{reference}`).",
                                    reference=reference), language)
        else:
            message = render(phrase("Something went wrong on our side (ref `{reference}`). "
                                    "Nothing was changed.", reference=reference), language)
    # A refusal may quote what the user typed (up to 6,000 characters): Discord rejects a
    # message over 2,000, and then the user would get no answer at all.
    message = clip(message)
    try:
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # Deferred (slow) in public: its first follow-up would fill the public "thinking"
            # message, so that goes and the refusal is said to the user alone.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.exception("Could not tell user %s about an error", interaction.user.id)
