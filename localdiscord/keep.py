"""What the local Discord keeps across a restart, in a JSON file: the guild's channels and
the threads the bot made (with their overwrites, archived or locked), and the messages in
them with their components, embeds, attachments and pins, how far Discord's clock was
advanced (:mod:`localdiscord.clock`), each person's client language and each guild's
preferred locale. Not kept: the rate-limit buckets,
interactions (their tokens die with the server, as Discord's after 15 minutes), the feed.

The file is read at start (missing: a fresh start; unreadable: a fresh start and one warning
line), written a moment after changes (one write for a burst of them) and at stop, each time
whole to a temporary file renamed over the old one, so a crash leaves one or the other.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from localdiscord.locales import check_locale
from localdiscord.model import Attachment, Channel, Message, Overwrite, User

if TYPE_CHECKING:
    from localdiscord.feed import Change
    from localdiscord.state import DiscordState

log = logging.getLogger(__name__)
VERSION = 1
#: A burst of changes (posts, edits, a pin) is written once, this long after the first.
WRITE_DELAY_SECONDS = 0.5
UNREADABLE = ("The local table's state in {path} could not be read ({problem}): starting "
              "afresh{kept}.")
UNWRITABLE = "The local table's state could not be written to {path} ({problem})."


def snapshot(server: DiscordState) -> dict[str, Any]:
    """The server's channels and messages as JSON-ready data."""
    channels = [asdict(c) for g in server.guilds.values() for c in g.channels.values()]
    kept = {int(c["id"]) for c in channels}
    messages = [_message_data(m) for m in sorted(server.messages.values(), key=lambda m: m.id)
                if m.channel_id in kept]
    return {"version": VERSION, "channels": channels, "messages": messages,
            "clock_ahead": server.clock.ahead,
            "locales": {str(who): code for who, code in server.locales.items()},
            "preferred_locales": {str(g.id): g.preferred_locale for g in server.guilds.values()}}


def _message_data(message: Message) -> dict[str, Any]:
    made = {f.name: getattr(message, f.name) for f in fields(Message)}
    made["author"] = asdict(message.author)
    made["attachments"] = [{"id": a.id, "filename": a.filename, "content_type": a.content_type,
                            "data": base64.b64encode(a.data).decode()}
                           for a in message.attachments]
    return made


def restore(server: DiscordState, data: dict[str, Any]) -> None:
    """Put ``data`` (from :func:`snapshot`) back: channels by id into their guilds (the seeded
    ones replaced), then the messages."""
    if data.get("version") != VERSION:
        raise ValueError(f"version {data.get('version')!r}, not {VERSION}")
    channels = [Channel(**(c | {"overwrites": [Overwrite(**o) for o in c["overwrites"]]}))
                for c in data["channels"]]
    messages = [_message(m) for m in data["messages"]]
    for channel in channels:
        server.guilds[channel.guild_id].channels[channel.id] = channel
    server.messages.update((m.id, m) for m in messages)
    # (time a test made pass stays passed: the messages' ages do not go back)
    server.clock.ahead = max(server.clock.ahead, float(data.get("clock_ahead", 0.0)))
    # (a file written before languages were kept has none: everyone as new, in en-US)
    for who, code in (data.get("locales") or {}).items():
        server.set_locale(int(who), code)
    for guild_id, code in (data.get("preferred_locales") or {}).items():
        if int(guild_id) in server.guilds:
            server.guilds[int(guild_id)].preferred_locale = check_locale(code)


def _message(data: dict[str, Any]) -> Message:
    attachments = [Attachment(a["id"], a["filename"], base64.b64decode(a["data"]),
                              a.get("content_type")) for a in data["attachments"]]
    return Message(**(data | {"author": User(**data["author"]), "attachments": attachments}))


def write_atomically(path: Path, text: str) -> None:
    """``text`` into ``path`` through a temporary file beside it, renamed over it."""
    temporary = path.with_name(f"{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


class Keeper:
    """Keeps ``server``'s state in ``path``: :meth:`load` before serving, then each change
    heard on the feed schedules a write; :meth:`close` writes the last one."""

    def __init__(self, server: DiscordState, path: Path) -> None:
        self.server, self.path = server, path
        self._pending: asyncio.TimerHandle | None = None
        self._writing: asyncio.Task[None] | None = None
        self._warned = False

    def load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as error:
            log.warning(UNREADABLE.format(path=self.path, problem=error.strerror or error,
                                          kept=""))
            return
        try:
            restore(self.server, json.loads(text))
        except (ValueError, KeyError, TypeError) as error:
            aside = self.path.with_name(f"{self.path.name}.unreadable")
            os.replace(self.path, aside)  # (not written over: someone may want it)
            log.warning(UNREADABLE.format(path=self.path, problem=error,
                                          kept=f", the file kept as {aside.name}"))

    def changed(self, change: Change) -> None:
        """A change was published: write it soon (once for everything until then)."""
        self._schedule()

    def _schedule(self) -> None:
        if self._pending is None:
            loop = asyncio.get_running_loop()
            self._pending = loop.call_later(WRITE_DELAY_SECONDS, self._write_soon)

    def _write_soon(self) -> None:
        self._pending = None
        if self._writing is not None and not self._writing.done():
            self._schedule()  # a write is under way: the newer state goes in the next
            return
        self._writing = asyncio.get_running_loop().create_task(self._write_or_warn())

    async def _write_or_warn(self) -> None:
        try:
            await self.write()
        except OSError as error:
            if not self._warned:  # (once: it would say so every half second)
                log.warning(UNWRITABLE.format(path=self.path,
                                              problem=error.strerror or error))
            self._warned = True

    async def write(self) -> None:
        """The state now, to the file (the snapshot taken here; the file written aside)."""
        text = json.dumps(snapshot(self.server), separators=(",", ":"))
        await asyncio.to_thread(write_atomically, self.path, text)

    async def close(self) -> None:
        """The last write, after any under way."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._writing is not None:
            await self._writing
        await self._write_or_warn()
