"""The switches a test flips to make the local Discord behave as the real one does during a
long session: a message grows an hour old, a moderator deletes it, the bot loses a
permission in a channel, a thread is archived, Discord answers with 5xx for a while or
refuses one request with a 429, or makes a message and then answers 5xx (a proxy that lost
Discord's answer), a request reaches Discord late, the gateway connection drops, an
interaction's 3 s or 15 min run out.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from aiohttp import web

from localdiscord.buckets import VIA
from localdiscord.model import APP_ID, Channel, Interaction, Message, Overwrite
from localdiscord.state import DiscordState


@dataclass
class Outage:
    remaining: int
    status: int
    path: str  # only requests whose path holds this
    method: str | None = None  # only requests of this method (None: any)
    retry_after: float = 0.0  # a 429's wait

    def matches(self, method: str, path: str) -> bool:
        return (self.remaining > 0 and self.path in path
                and self.method in (None, method))

    def response(self) -> web.Response:
        """A 429 as Discord's rate limiter words it (``topics/rate-limits``: JSON with
        ``retry_after``, ``Via`` so discord.py knows it is not Cloudflare's), else a 5xx
        page as a proxy in front of Discord answers it."""
        if self.status != 429:
            return web.Response(status=self.status, content_type="text/html",
                                text=f"<html><body>{self.status} Bad Gateway</body></html>")
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after,
                "global": False}
        return web.Response(status=429, body=json.dumps(body).encode(), headers={
            "Content-Type": "application/json", "Retry-After": f"{self.retry_after:.3f}",
            "X-RateLimit-Scope": "user", "Via": VIA})


@dataclass
class Held:
    """Requests that reach Discord only once ``until`` is set."""

    remaining: int
    path: str
    method: str
    until: asyncio.Event


@dataclass
class LostAnswer:
    """Requests that are carried out, and then answered with ``status`` instead."""

    remaining: int
    status: int
    path: str
    method: str
    until: asyncio.Event | None = None  # the 5xx waits for it (the client may die meanwhile)
    skipped: int = 0  # how many such requests are answered as usual first


class Faults:
    def __init__(self, server: DiscordState) -> None:
        self.server = server
        self.outages: list[Outage] = []
        self.lost_answers: list[LostAnswer] = []
        self.holds: list[Held] = []

    def _message(self, message: Message | int) -> Message:
        ident = message if isinstance(message, int) else message.id
        return self.server.messages[ident]

    def _channel(self, channel: Channel | int | str) -> Channel:
        return self.server.channel(channel.id if isinstance(channel, Channel) else channel)

    def age(self, message: Message | int, seconds: float = 3601.0) -> Message:
        """Make ``message`` older (by default past the hour after which edits are scarce)."""
        found = self._message(message)
        found.created_at -= seconds
        return found

    def delete(self, message: Message | int) -> None:
        """A moderator deletes ``message``: the bot is told (MESSAGE_DELETE), and any later
        call naming it gets 10008."""
        self.server.delete(self._message(message))

    def revoke(self, channel: Channel | int | str, permissions: int,
               user_id: int | None = None) -> None:
        """Deny ``permissions`` (bits of :class:`~localdiscord.model.Permission`) to the bot
        (or ``user_id``) in ``channel`` with a member overwrite, as a moderator would."""
        found, who = self._channel(channel), APP_ID if user_id is None else user_id
        if found.parent_id is not None:  # a thread's permissions are its parent's
            found = self.server.channel(found.parent_id)
        mine = next((o for o in found.overwrites if o.kind == 1 and o.id == who), None)
        if mine is None:
            mine = Overwrite(who, 1)
            found.overwrites.append(mine)
        mine.deny |= permissions
        mine.allow &= ~permissions
        self.server.channel_changed(found)

    def restore(self, channel: Channel | int | str, user_id: int | None = None) -> None:
        """Remove the member overwrite :meth:`revoke` made."""
        found, who = self._channel(channel), APP_ID if user_id is None else user_id
        if found.parent_id is not None:
            found = self.server.channel(found.parent_id)
        found.overwrites = [o for o in found.overwrites if not (o.kind == 1 and o.id == who)]
        self.server.channel_changed(found)

    def archive(self, thread: Channel | int | str, *, locked: bool = False) -> None:
        """Archive ``thread`` (as an idle thread is after its auto-archive duration)."""
        found = self._channel(thread)
        assert found.is_thread, f"{found.name} is not a thread"
        found.archived, found.locked = True, locked
        self.server.channel_changed(found)

    def fail_next(self, count: int = 1, status: int = 502, path: str = "") -> None:
        """Answer the next ``count`` REST requests (whose path holds ``path``) with
        ``status``, as during an outage (discord.py retries 500, 502, 504)."""
        self.outages.append(Outage(count, status, path))

    def refuse_next(self, path: str, status: int = 429, *, method: str | None = None,
                    count: int = 1, retry_after: float = 0.05) -> None:
        """Refuse the next ``count`` requests (of ``method``, whose path holds ``path``) with
        ``status``: by default a 429 whatever the buckets hold, as Discord's limiter may
        answer a command sync (``topics/rate-limits``: a shared or unseen limit)."""
        self.outages.append(Outage(count, status, path, method, retry_after))

    def outage(self, method: str, path: str) -> web.Response | None:
        """The answer to give this request instead (a 5xx or a 429), or None."""
        for outage in self.outages:
            if outage.matches(method, path):
                outage.remaining -= 1
                return outage.response()
        return None

    def fail_after_making(self, count: int = 1, status: int = 502, path: str = "/webhooks/", *,
                          method: str = "POST", until: asyncio.Event | None = None,
                          skip: int = 0) -> None:
        """Carry out the next ``count`` requests (of ``method``, whose path holds ``path``:
        by default the interactions' follow-ups), then answer each with ``status``, as when a
        proxy in front of Discord loses Discord's answer: the message is made, and the client
        does not know it. ``until``: each such answer waits until it is set; ``skip``: that
        many such requests are answered as usual first."""
        self.lost_answers.append(LostAnswer(count, status, path, method, until, skip))

    async def lost_answer(self, method: str, path: str,
                          answered: web.StreamResponse) -> web.StreamResponse:
        """The answer to give instead of ``answered`` (a request carried out), if it is lost."""
        if not 200 <= answered.status < 300:
            return answered
        for lost in self.lost_answers:
            if lost.remaining > 0 and lost.path in path and lost.method == method:
                if lost.skipped:
                    lost.skipped -= 1
                    return answered
                lost.remaining -= 1
                if lost.until is not None:
                    await lost.until.wait()
                return Outage(0, lost.status, path).response()
        return answered

    def hold_next(self, path: str, until: asyncio.Event, *, method: str = "POST",
                  count: int = 1) -> None:
        """The next ``count`` requests (of ``method``, whose path holds ``path``) reach
        Discord only once ``until`` is set, as over a slow network or from a bot that took
        its time: Discord checks them then, by its clock then (a test may advance it
        meanwhile, so that an interaction's token is past its 15 minutes, say)."""
        self.holds.append(Held(count, path, method, until))

    async def arrival(self, method: str, path: str) -> None:
        """Until the request may reach Discord (at once, unless held)."""
        for held in self.holds:
            if held.remaining > 0 and held.path in path and held.method == method:
                held.remaining -= 1
                await held.until.wait()
                return

    async def drop(self, shard: int = 0) -> None:
        """Close the gateway connection; the bot resumes and gets what it missed."""
        await self.server.gateway.drop(shard)

    def expire(self, interaction: Interaction, seconds: float = 3.5) -> None:
        """Make ``interaction`` older: past 3 s its first answer is refused (10062), past
        15 minutes its follow-ups and edits (50027)."""
        interaction.created_at -= seconds
