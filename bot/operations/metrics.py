"""What the bot counts for whoever runs it, in Prometheus' terms (served at ``/metrics``).

Each bot has its own registry, so several bots in one process (tests, benchmarks) count
apart. Labels take few values: an interaction's kind, its command (a slash command's name, or
a button's or form's id up to its first ``:``) and outcome; an HTTP status and Discord's error
code; a shard.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

#: Seconds: from well under Discord's 3-second answer window to far past it.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: How many interactions' start times are kept for the timings (the oldest go first).
REMEMBERED = 4096


def interaction_kind(interaction: discord.Interaction[Any]) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    match interaction.type:
        case discord.InteractionType.application_command:
            return "command"
        case discord.InteractionType.autocomplete:
            return "autocomplete"
        case discord.InteractionType.component:
            return "button" if data.get("component_type") == 2 else "select"
        case discord.InteractionType.modal_submit:
            return "form"
    return "other"


def interaction_name(interaction: discord.Interaction[Any]) -> str:
    """A slash command's full name, or what a button's or form's id starts with."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    data: dict[str, Any] = dict(interaction.data or {})
    if "custom_id" in data:
        return str(data["custom_id"]).split(":", 1)[0][:32]
    return str(data.get("name", "?"))[:32]


class Metrics:
    """The bot's counters, histograms and gauges, and the clock of each interaction."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Counter(
            "unhex_interactions", "Interactions handled, by kind, command and outcome "
            "(ok, refused: the user was told why, error: unexpected, unknown: an id the bot "
            "no longer answers).", ["kind", "command", "outcome"], registry=r)
        self.first_response = Histogram(
            "unhex_first_response_seconds", "From an interaction's arrival to its first "
            "answer accepted by Discord.", ["kind"], buckets=LATENCY_BUCKETS, registry=r)
        self.messages_out = Histogram(
            "unhex_messages_out_seconds", "From a fight step's arrival to the last message "
            "it changed (answer, board, prompt) accepted by Discord.",
            buckets=LATENCY_BUCKETS, registry=r)
        self.fight_steps = Counter(
            "unhex_fight_steps", "Fight steps committed (applied), and those refused because "
            "this process's copy of the fight was stale (stale).", ["outcome"], registry=r)
        self.fights_in_memory = Gauge(
            "unhex_fights_in_memory", "Fights this process keeps in memory.", registry=r)
        self.database_time = Histogram(
            "unhex_database_transaction_seconds", "Time of each database operation (one "
            "transaction each), by operation.", ["operation"], buckets=LATENCY_BUCKETS,
            registry=r)
        self.database_errors = Counter(
            "unhex_database_errors", "Database operations that failed, by operation and "
            "error.", ["operation", "error"], registry=r)
        self.discord_http = Counter(
            "unhex_discord_http_responses", "Responses from Discord's REST API, by status "
            "(429: rate limited).", ["status"], registry=r)
        self.discord_refusals = Counter(
            "unhex_discord_refusals", "Discord's refusals by status and by the code in their "
            "JSON (30046: an hour-old message edited too often; 10008: a deleted message; "
            "50013: a permission missing; 50083: an archived thread; 30003: pins full).",
            ["status", "code"], registry=r)
        self.gateway_latency = Gauge(
            "unhex_gateway_latency_seconds", "Heartbeat latency of each shard's gateway "
            "connection.", ["shard"], registry=r)
        self._arrived: OrderedDict[int, tuple[float, str]] = OrderedDict()

    # -- interactions --------------------------------------------------------------------

    def arrived(self, interaction: discord.Interaction[Any]) -> None:
        """Note when ``interaction`` arrived (the first call for it counts), and time its
        first answer: call it before any handler runs (the bot does, as it dispatches)."""
        if interaction.id in self._arrived:
            return
        self._arrived[interaction.id] = (time.perf_counter(), interaction_kind(interaction))
        while len(self._arrived) > REMEMBERED:
            self._arrived.popitem(last=False)
        timed = _TimedResponse(interaction)
        timed.on_answer = lambda: self._answered(interaction)
        # discord.py caches `response` there: made now, before anyone asks for it
        setattr(interaction, "_cs_response", timed)  # noqa: B010

    def _answered(self, interaction: discord.Interaction[Any]) -> None:
        self.answered(interaction.id)
        if interaction.type is discord.InteractionType.autocomplete:
            self.handled(interaction, "ok")  # (an autocomplete's answer is all it does)

    def handled(self, interaction: discord.Interaction[Any], outcome: str) -> None:
        # An id the bot does not answer may be anything a client sends: one label for all.
        name = "(unknown)" if outcome == "unknown" else interaction_name(interaction)
        self.interactions.labels(interaction_kind(interaction), name, outcome).inc()

    def answered(self, interaction_id: int) -> None:
        """Discord accepted the first answer to interaction ``interaction_id``."""
        arrival = self._arrived.get(interaction_id)
        if arrival is not None and arrival[0] > 0:
            started, kind = arrival
            self.first_response.labels(kind).observe(time.perf_counter() - started)
            self._arrived[interaction_id] = (-started, kind)  # observed: once only

    def started_at(self, interaction_id: int) -> float | None:
        arrival = self._arrived.get(interaction_id)
        return None if arrival is None else abs(arrival[0])

    def all_out(self, started: float) -> None:
        """Every message of a fight step that started at ``started`` is out."""
        self.messages_out.observe(time.perf_counter() - started)


class _TimedResponse(discord.InteractionResponse[Any]):
    """discord.py's interaction response, telling when Discord accepted the answer: it sets
    ``_response_type`` right after Discord accepts one, and only then."""

    __slots__ = ("_type", "on_answer")

    def __init__(self, parent: discord.Interaction[Any]) -> None:
        self.on_answer: Any = None
        super().__init__(parent)

    @property
    def _response_type(self) -> Any:
        return self._type

    @_response_type.setter
    def _response_type(self, value: Any) -> None:
        self._type = value
        if value is not None and self.on_answer is not None:
            self.on_answer()
