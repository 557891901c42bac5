"""A fast exchange at the table, as people play it on Discord: Ana (alice's PC) and Goon (the
GM's NPC) on the dance floor, attacking in turn, every question answered with its button, one
step every half second (a step is sent once the previous one's prompt is out and half a second
has passed since it was sent). What each step cost on the channel's buckets and when it was
shown, from the requests the local Discord recorded. Used by
``tests/localdiscord/test_burst.py`` and ``bench/bench_burst.py``.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field

from localdiscord import LocalDiscord
from localdiscord.model import Interaction
from localdiscord.people import Shown

#: Buttons the script never presses: a form, a GM's shortcut, a panel of options.
SKIPPED = {"Adjust", "Resolve now (GM)", "My options"}


async def set_up(server: LocalDiscord) -> None:
    """Ana and Goon, armed, placed, and the fight begun."""
    people = server.people
    for user, name, level, npc in (("alice", "Ana", 40, False), ("gamemaster", "Goon", 25, True)):
        created: dict[str, object] = {"name": name, "level": level}
        if npc:
            created["npc"] = True
        steps: list[tuple[str, dict[str, object]]] = [
            ("character create", created),
            ("character item add", {"character": name, "name": "Knife", "kind": "melee_1h"}),
            ("character item hold", {"character": name, "item": "Knife"})]
        for command, chosen in steps:
            done = await people.slash(user, "fight", command, **chosen)
            assert not done.message.ephemeral, done.message.content
    for user, command, options in (
            ("gamemaster", "combat start", {"map": "Nightclub"}),
            ("alice", "combat add", {"character": "Ana", "area": "Dance Floor"}),
            ("gamemaster", "combat add", {"character": "Goon", "area": "Dance Floor"}),
            ("gamemaster", "combat begin", {})):
        done = await people.slash(user, "fight", command, **options)
        assert not done.message.ephemeral, done.message.content


def live_prompts(server: LocalDiscord) -> list[Shown]:
    """The messages of #fight whose buttons can be pressed."""
    shown = [Shown(server.message_payload(m)) for m in server.channel_messages("fight")]
    return [m for m in shown if not m.ephemeral and any(
        p.get("type") == 2 and "custom_id" in p for p in m.parts)]


def _next_step(server: LocalDiscord, prompt: Shown) -> Interaction:
    """What a player does on seeing ``prompt``: attack in their team's turn, else answer."""
    labels = prompt.labels
    people = server.people
    if "Done (PCs)" in labels:
        return _slash(server, "alice", "attack", {"target": "Goon"})
    if "Done (NPCs)" in labels:
        return _slash(server, "gamemaster", "attack", {"target": "Ana", "as": "Goon"})
    label = next(la for la in labels if la not in SKIPPED)
    return people.send_press("gamemaster", prompt, label)


def _slash(server: LocalDiscord, user: str, command: str,
           options: dict[str, object]) -> Interaction:
    where = server.channel("fight")
    data = server.people.command_data(where, command, options, focused=None)
    return server.people.send(user, where, 2, data)


@dataclass
class Step:
    sent: float
    interaction: Interaction
    prompt_at: float | None = None  # when its prompt (a message with live buttons) was out
    board_at: float | None = None  # when the board was first edited after its answer


@dataclass
class Burst:
    steps: list[Step] = field(default_factory=list)
    #: requests on #fight's buckets (created, edited, deleted, pinned) during the burst
    channel_requests: int = 0
    by_bucket: dict[str, int] = field(default_factory=dict)
    refused: int = 0  # 429s, anywhere

    @property
    def per_step(self) -> float:
        return self.channel_requests / len(self.steps)

    def shown_after(self) -> list[float]:
        """Seconds from each step's press to its board and prompt both shown."""
        return [max(s.prompt_at or s.sent, s.board_at or s.sent) - s.sent for s in self.steps]

    def summary(self) -> str:
        times = self.shown_after()
        buckets = ", ".join(f"{k} {v / len(self.steps):.2f}" for k, v in sorted(
            self.by_bucket.items()))
        return (f"{len(self.steps)} steps: shown after median {statistics.median(times):.2f} s, "
                f"worst {max(times):.2f} s; channel requests per step {self.per_step:.2f} "
                f"({buckets}); 429s {self.refused}")


async def burst(server: LocalDiscord, steps: int = 12, every: float = 0.5,
                limit: float = 10.0) -> Burst:
    """``steps`` steps, each sent once the previous one's prompt is out and ``every`` seconds
    after it; then wait for the bot to be done."""
    first_call = len(server.calls)
    result = Burst()
    for _ in range(steps):
        if result.steps:
            previous = result.steps[-1]
            await _prompt_out(server, previous, limit)
            await asyncio.sleep(max(0.0, previous.sent + every - time.time()))
        (prompt,) = live_prompts(server)[-1:]
        sent = time.time()
        result.steps.append(Step(sent, _next_step(server, prompt)))
    await _prompt_out(server, result.steps[-1], limit)
    await server.people.wait(result.steps[-1].interaction)
    _account(server, result, first_call)
    return result


async def _prompt_out(server: LocalDiscord, step: Step, limit: float) -> None:
    """Wait until a prompt newer than the step's press has live buttons (or, for a step
    that asks nothing, until the bot is quiet)."""
    deadline = step.sent + limit
    while time.time() < deadline:
        live = live_prompts(server)
        newest = max((m.id for m in live), default=0)
        if newest and _made_after(server, newest, step.sent):
            step.prompt_at = time.time()
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no prompt within {limit} s of a step")


def _made_after(server: LocalDiscord, message_id: int, when: float) -> bool:
    return server.messages[message_id].created_at >= when


def _account(server: LocalDiscord, result: Burst, first_call: int) -> None:
    fight = server.channel("fight").id
    calls = server.calls[first_call:]
    prefix = f"/channels/{fight}/"
    for call in calls:
        result.refused += call.status == 429
        if call.path.startswith(prefix) and call.method != "GET":
            bucket = f"{call.method} {'pins' if '/pins/' in call.path else 'messages'}"
            result.by_bucket[bucket] = result.by_bucket.get(bucket, 0) + 1
            result.channel_requests += 1
    board_edits = [c for c in calls if c.method == "PATCH" and c.path.startswith(prefix)
                   and str((c.body or {}).get("content", "")).startswith("```")]
    for step in result.steps:
        answered = next((c.at for c in calls if step.interaction.token in c.path), step.sent)
        step.board_at = next((c.at for c in board_edits if c.at >= answered), None)
        prompts = [c.at for c in calls if c.method == "POST" and c.at >= step.sent
                   and (c.body or {}).get("components")
                   and not int((c.body or {}).get("flags") or 0) & 64]
        step.prompt_at = min(prompts, default=step.prompt_at)
