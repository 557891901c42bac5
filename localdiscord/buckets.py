"""Discord's rate limits (``topics/rate-limits``): buckets per route and top-level resource,
with the headers Discord sends, and the 429 it answers when a bucket is empty.

Each bucket is a fixed window: ``limit`` requests, then none until ``per`` seconds after the
window's first request. A channel's message creates and its edits each have a bucket; edits
of messages older than an hour share a smaller one per channel (a 429 with code 30046);
interaction answers and follow-ups are keyed by the interaction's token and skip the global
limit. The figures are those bot authors report (DISCORD.md here gives each with its
source); a test changes them on :attr:`RateLimiter.limits` or turns the limiter off.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from localdiscord.clock import Clock

#: A 429 the bot must believe is Discord's (discord.py takes one without ``Via`` for a
#: Cloudflare ban and gives up at once).
VIA = "1.1 google"
OLD_MESSAGE_EDITS = 30046


@dataclass
class Limits:
    """(requests, seconds) of each kind of bucket."""

    create: tuple[int, float] = (5, 5.0)
    edit: tuple[int, float] = (5, 5.0)
    old_edit: tuple[int, float] = (3, 6.0)
    followup: tuple[int, float] = (5, 2.0)
    callback: tuple[int, float] = (5, 2.0)
    other: tuple[int, float] = (5, 5.0)
    per_second: int = 50  # the global limit, per bot token


@dataclass
class Bucket:
    name: str
    limit: int
    per: float
    start: float = 0.0
    used: int = 0

    def take(self, now: float) -> float:
        """Spend a request; 0, or how long until one is allowed (nothing spent)."""
        if now >= self.start + self.per:
            self.start, self.used = now, 0
        if self.used >= self.limit:
            return self.start + self.per - now
        self.used += 1
        return 0.0

    def headers(self, now: float) -> dict[str, str]:
        reset_after = max(self.start + self.per - now, 0.0)
        return {"X-RateLimit-Limit": str(self.limit),
                "X-RateLimit-Remaining": str(max(self.limit - self.used, 0)),
                "X-RateLimit-Reset": f"{now + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": self.name}


@dataclass(frozen=True)
class Verdict:
    """What the limiter says of one request: its headers, and when refused how long to wait."""

    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = "user"
    code: int | None = None

    @property
    def refused(self) -> bool:
        return self.retry_after > 0

    def body(self) -> dict[str, object]:
        """The 429's JSON, as Discord words it."""
        message = ("Maximum number of edits to messages older than 1 hour reached. Try again "
                   "later." if self.code == OLD_MESSAGE_EDITS else
                   "You are being rate limited.")
        made: dict[str, object] = {"message": message, "retry_after": round(self.retry_after, 3),
                                   "global": self.scope == "global"}
        if self.code is not None:
            made["code"] = self.code
        return made

    def refusal_headers(self) -> dict[str, str]:
        return self.headers | {"Retry-After": f"{self.retry_after:.3f}",
                               "X-RateLimit-Scope": self.scope, "Via": VIA,
                               **({"X-RateLimit-Global": "true"}
                                  if self.scope == "global" else {})}


@dataclass
class RateLimiter:
    limits: Limits = field(default_factory=Limits)
    #: Discord's clock (the server's): time a test makes pass resets the buckets too.
    clock: Clock = field(default_factory=Clock)
    #: Off: every request passes, with no headers (as before a test turns it on).
    enabled: bool = True
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    _second: Bucket = field(default_factory=lambda: Bucket("global", 50, 1.0))

    def take(self, kind: str, major: str, *, old_message: bool = False,
             now: float | None = None) -> Verdict:
        """Spend one request of ``kind`` (a field of :class:`Limits`) on the resource
        ``major`` (a channel id, or an interaction's token); an edit of an ``old_message``
        spends the channel's smaller bucket first; ``now``: Discord's time (else its
        clock's)."""
        if not self.enabled:
            return Verdict({})
        at = self.clock.now() if now is None else now
        if kind not in ("callback", "followup"):  # interaction endpoints are exempt
            self._second.limit = self.limits.per_second
            wait = self._second.take(at)
            if wait:
                return Verdict({}, wait, "global")
        if old_message:
            old = self._bucket("old_edit", major)
            wait = old.take(at)
            if wait:
                return Verdict(old.headers(at), wait, "user", OLD_MESSAGE_EDITS)
        bucket = self._bucket(kind, major)
        wait = bucket.take(at)
        return Verdict(bucket.headers(at), wait)

    def _bucket(self, kind: str, major: str) -> Bucket:
        limit, per = getattr(self.limits, kind)
        bucket = self.buckets.get((kind, major))
        if bucket is None:
            name = hashlib.sha1(kind.encode()).hexdigest()[:16]  # one hash per route
            bucket = self.buckets[(kind, major)] = Bucket(name, limit, per)
        bucket.limit, bucket.per = limit, per
        return bucket
