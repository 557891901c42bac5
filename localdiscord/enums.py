"""Names for the numbers Discord's JSON carries: message flags, interaction types and the
types of an interaction's callback (``resources/message``, ``interactions/receiving-and-
responding``)."""

from __future__ import annotations

from enum import IntEnum, IntFlag


class MessageFlag(IntFlag):
    """A message's ``flags`` (``resources/message``, message flags)."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    #: A deferred answer's "thinking" placeholder.
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    #: The newer layout components (containers, text displays) instead of action rows.
    IS_COMPONENTS_V2 = 1 << 15


class InteractionType(IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    APPLICATION_COMMAND_AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    """How the bot answers an interaction (the callback's ``type``)."""

    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class MessageType(IntEnum):
    DEFAULT = 0
    #: Discord's notice in the channel that a message was pinned.
    CHANNEL_PINNED_MESSAGE = 6


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
