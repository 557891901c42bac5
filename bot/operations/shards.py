"""Which of Discord's shards this process runs, and so which guilds it looks after.

Discord sends a guild's events to the shard ``(guild_id >> 22) % shard_count`` and direct
messages to shard 0; a process that runs some shards sees only their guilds, so it restores,
shows and times only their fights.

>>> plan = ShardPlan(count=4, ids=(0, 1))
>>> plan.owns(shard_guild(2, count=4)), plan.owns(shard_guild(1, count=4)), plan.owns(None)
(False, True, True)
>>> parse_shard_ids("0-3,6")
(0, 1, 2, 3, 6)
>>> ShardPlan(count=8, ids=(4, 5, 6, 7)).describe()
'shards 4-7 of 8'
"""

from __future__ import annotations

from dataclasses import dataclass


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"4,5,6,7"`` or both mixed (``"0-1,5"``): the ids, sorted, each once."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range such as 0-3")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"the range {part} goes backwards")
        ids.update(range(low, high + 1))
    if not ids:
        raise ValueError("no shard id given")
    return tuple(sorted(ids))


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to (direct messages: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def shard_guild(shard: int, *, count: int, n: int = 0) -> int:
    """A guild id (the ``n``-th) that falls on ``shard``: for tests and examples."""
    return ((n * count + shard) << 22) | 1


def _ranges(ids: tuple[int, ...]) -> str:
    parts: list[str] = []
    start = previous = ids[0]
    for shard in (*ids[1:], None):
        if shard is not None and shard == previous + 1:
            previous = shard
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if shard is not None:
            start = previous = shard
    return ",".join(parts)


@dataclass(frozen=True)
class ShardPlan:
    """``count`` shards in all (None: as many as Discord recommends), of which this process
    runs ``ids`` (None: all of them)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process gets ``guild_id``'s events (None: a direct message)."""
        if self.ids is None or self.count is None:
            return True
        return shard_of(guild_id, self.count) in self.ids

    @property
    def runs_shard_zero(self) -> bool:
        return self.ids is None or 0 in self.ids

    def describe(self) -> str:
        if self.count is None:
            return "every shard Discord recommends (auto-sharded)"
        if self.ids is None:
            return f"all {self.count} shards"
        return f"shard{'s' if len(self.ids) > 1 else ''} {_ranges(self.ids)} of {self.count}"
