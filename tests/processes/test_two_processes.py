"""Two bot processes on one PostgreSQL, each running some of Discord's shards.

Each node (:mod:`tests.processes.node`) is a separate OS process with its own pool and
memory, driven as the crash test drives one; they share the database and one faked Discord
(the journal of messages). The fights are played by the crash test's script
(:func:`tests.crash.drive.fight_step`), one guild on each of two shards.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.operations.shards import shard_guild
from engine.combat import Combat, PromptKind
from testbed.postgres_server import PostgresServer, free_port
from tests.crash.drive import fight_step
from tests.processes_io import metric, stdout_lines
from tests.rows import Reader

ROOT = Path(__file__).resolve().parents[2]
SILENCE = 60.0
#: Two shards; a guild (and a channel) on each.
SHARDS = 2
GUILDS = {shard: shard_guild(shard, count=SHARDS, n=7) for shard in range(SHARDS)}
CHANNELS = {shard: 930_000_000_000_000_000 + shard for shard in range(SHARDS)}


@dataclass
class Node:
    """A running bot process."""

    proc: subprocess.Popen[bytes]
    ready: dict[str, Any]
    port: int | None
    lines: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def send(self, **request: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=SILENCE)
        except queue.Empty:
            raise AssertionError(f"node {self.proc.pid} said nothing for {SILENCE} s") from None
        assert line is not None, f"node {self.proc.pid} stopped"
        answer: dict[str, Any] = json.loads(line)
        assert "error" not in answer, answer["error"]
        return answer

    def ask(self, **request: Any) -> dict[str, Any]:
        self.send(**request)
        return self.receive()

    def do(self, **request: Any) -> dict[str, Any]:
        """:meth:`ask`, expecting the step done (an answer for the table, not a refusal)."""
        answer = self.ask(**request)
        assert answer["answer"] is not None and not answer["ephemeral"], (request, answer)
        return answer

    def http(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)


class Cluster:
    """Nodes on one database and one journal; every node started is stopped at the end."""

    def __init__(self, database: str, folder: Path) -> None:
        self.database, self.folder = database, folder
        self.nodes: list[Node] = []
        self.db = Reader(database)

    def start(self, shard_ids: str, *, http: bool = False) -> Node:
        index = len(self.nodes)
        port = free_port() if http else None
        env = {k: v for k, v in os.environ.items() if not k.startswith(("UNHEX_", "DISCORD_"))}
        env |= {"UNHEX_SHARD_COUNT": str(SHARDS), "UNHEX_SHARD_IDS": shard_ids,
                "PYTHONPATH": str(ROOT)}
        if port is not None:
            env["UNHEX_HTTP_PORT"] = str(port)
        stderr = (self.folder / f"node{index}.stderr").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.processes.node", self.database, "--journal",
             str(self.folder / "discord.jsonl"), "--index", str(index)],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        node = Node(proc, {}, port, stdout_lines(proc))
        self.nodes.append(node)
        node.ready = node.receive()
        return node

    def close(self) -> None:
        for node in self.nodes:
            if node.proc.poll() is None:
                node.proc.kill()
                node.proc.wait()
        self.db.close()

    # -- what the database holds -----------------------------------------------------------

    def fight(self, shard: int) -> tuple[int, Combat, int]:
        rows = self.db("SELECT id, state, version FROM combats WHERE channel_id = ? AND active "
                       "ORDER BY id DESC", CHANNELS[shard])
        assert rows, f"no active fight in the channel of shard {shard}"
        combat_id, state, version = rows[0]
        return combat_id, Combat.model_validate_json(state), version

    def log(self, combat_id: int) -> list[dict[str, Any]]:
        """The fight's steps, oldest first: the commands that made each version."""
        rows = self.db("SELECT command FROM combat_log WHERE combat_id = ? AND NOT undone "
                       "ORDER BY id", combat_id)
        return [json.loads(command) for (command,) in rows]

    # -- playing ---------------------------------------------------------------------------

    def set_up(self, node: Node, shard: int) -> None:
        """Ana (Alice's) and a Goon (the GM's), knives in hand, fighting on the dance floor."""
        where = {"guild": GUILDS[shard], "channel": CHANNELS[shard]}
        for user, name, npc in (("alice", "Ana", False), ("gm", "Goon", True)):
            options: dict[str, Any] = {"name": name, "level": 70} | ({"npc": True} if npc else {})
            for command, opts in (("character create", options),
                                  ("character item add", {"character": name, "name": "Knife",
                                                          "kind": "melee_1h"}),
                                  ("character item hold", {"character": name, "item": "Knife"})):
                node.do(op="slash", command=command, user=user, options=opts, **where)
        node.do(op="slash", command="combat start", options={"map": "Nightclub"}, **where)
        for user, name in (("alice", "Ana"), ("gm", "Goon")):
            node.do(op="slash", command="combat add", user=user,
                    options={"character": name, "area": "Dance Floor"}, **where)
        node.do(op="slash", command="combat begin", **where)

    def step_request(self, shard: int) -> dict[str, Any]:
        """The script's next move in the shard's fight, as a request to a node."""
        combat_id, state, version = self.fight(shard)
        step = fight_step(1, combat_id, state, version, seed=5)
        user = "alice" if step.user.id != 800_000_000_000_000_003 else "gm"
        where = {"guild": GUILDS[shard], "channel": CHANNELS[shard], "user": user}
        if step.button is not None:
            return {"op": "press", "custom_id": step.button, **where}
        return {"op": "slash", "command": step.slash, "options": step.options, **where}

    def play(self, node: Node, shard: int, *, until_window: bool = False,
             steps: int = 200) -> int:
        """Play the shard's fight through ``node`` (until a reaction window is open, if
        asked); how many steps were played."""
        for played in range(steps):
            rows = self.db("SELECT 1 FROM combats WHERE channel_id = ? AND active",
                           CHANNELS[shard])
            if not rows:
                return played
            if until_window and any(p.kind is PromptKind.REACT
                                    for p in self.fight(shard)[1].waiting_for()):
                return played
            node.do(**self.step_request(shard))
        raise AssertionError("the fight did not get there")

    def advance(self, node: Node, shard: int, steps: int) -> None:
        """Play ``steps`` steps of the shard's fight through ``node``."""
        for _ in range(steps):
            node.do(**self.step_request(shard))


@pytest.fixture
def cluster(postgres_database: str, tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(postgres_database, tmp_path)
    try:
        yield made
    finally:
        made.close()


def test_each_process_restores_the_fights_of_its_own_shards(cluster: Cluster) -> None:
    everything = cluster.start("0-1")
    for shard in range(SHARDS):
        cluster.set_up(everything, shard)
        cluster.play(everything, shard, until_window=True)
    everything.stop()
    # As if a kill came between each fight's last commit and showing it.
    cluster.db("UPDATE combats SET shown_version = version - 1 WHERE active")

    first, second = cluster.start("0"), cluster.start("1")

    assert first.ready["shown"] == [CHANNELS[0]] and first.ready["armed"] == [CHANNELS[0]]
    assert second.ready["shown"] == [CHANNELS[1]] and second.ready["armed"] == [CHANNELS[1]]
    for shard in range(SHARDS):
        combat_id, _, version = cluster.fight(shard)
        for _ in range(600):  # written once the fight has been quiet for a moment
            shown = cluster.db("SELECT shown_version FROM combats WHERE id = ?", combat_id)
            if shown == [(version,)]:
                break
            time.sleep(0.05)
        assert shown == [(version,)]



def _prompt_button(cluster: Cluster, node: Node, shard: int) -> tuple[int, str]:
    """The prompt's message and its first button, as the channel shows them now."""
    messages = node.ask(op="messages", channel=CHANNELS[shard])["messages"]
    combat_id, _, version = cluster.fight(shard)
    current = [(m["id"], b) for m in messages for b in m["buttons"]
               if b.startswith(f"cb:{combat_id}:{version}:")]
    assert current, f"no button of version {version} in {messages}"
    return current[0]


def test_a_stale_copy_never_applies_a_step_twice(cluster: Cluster) -> None:
    """A rolling restart: two processes both run shard 0 for a while."""
    old = cluster.start("0", http=True)
    cluster.set_up(old, 0)
    cluster.play(old, 0, until_window=True)
    where = {"guild": GUILDS[0], "channel": CHANNELS[0]}
    assert "Waiting for" in old.ask(op="slash", command="combat status", **where)["answer"]
    # (the old process has the fight in memory now)
    new = cluster.start("0", http=True)
    combat_id, _, version = cluster.fight(0)
    message, button = _prompt_button(cluster, new, 0)

    applied = new.do(op="press", custom_id=button, user="gm", **where)
    refused = old.ask(op="press", custom_id=button, message=message, user="gm", **where)

    assert refused["ephemeral"] and "out of date" in refused["answer"], refused
    assert applied["answer"] != refused["answer"]
    assert cluster.fight(0)[2] == version + 1
    assert len(cluster.log(combat_id)) == version + 1
    status, metrics = old.http("/metrics")
    assert status == 200
    assert metric(metrics, "unhex_fight_steps_total", outcome="stale") == 1
    assert metric(metrics, "unhex_interactions_total", kind="button", command="cb",
                   outcome="refused") == 1
    _, metrics = new.http("/metrics")
    assert metric(metrics, "unhex_fight_steps_total", outcome="applied") == 1
    assert metric(metrics, "unhex_interactions_total", kind="button", command="cb",
                   outcome="ok") == 1
    assert metric(metrics, "unhex_first_response_seconds_count", kind="button") == 1
    assert metric(metrics, "unhex_messages_out_seconds_count") == 1

    # The old process read the fight again: its next step applies, once, on the fight as
    # the new one left it (a slash command carries no version, a button a newer one).
    new.do(**cluster.step_request(0))
    old.do(**cluster.step_request(0))
    assert len(cluster.log(combat_id)) == version + 3 == cluster.fight(0)[2]

    # Both hold the fight as it is, and the same button reaches both at once.
    cluster.play(new, 0, until_window=True)
    for node in (old, new):
        node.ask(op="slash", command="combat status", **where)
    _, _, version = cluster.fight(0)
    message, button = _prompt_button(cluster, new, 0)
    for node in (old, new):
        node.send(op="press", custom_id=button, message=message, user="gm", **where)
    answers = [old.receive(), new.receive()]
    assert sorted(a["ephemeral"] for a in answers) == [False, True], answers
    assert cluster.fight(0)[2] == version + 1 == len(cluster.log(combat_id))


def test_a_window_both_processes_time_closes_once(cluster: Cluster) -> None:
    old = cluster.start("0")
    cluster.set_up(old, 0)
    cluster.play(old, 0, until_window=True)
    new = cluster.start("0")
    assert new.ready["armed"] == [CHANNELS[0]]  # both wait for the same deadline
    combat_id, _, version = cluster.fight(0)

    old.send(op="expire", channel=CHANNELS[0])
    new.send(op="expire", channel=CHANNELS[0])
    closed = [old.receive()["closed"], new.receive()["closed"]]

    assert sorted(closed) == [False, True]
    log = cluster.log(combat_id)
    assert len(log) == version + 1
    assert log[-1] == {"kind": "close_window", "by_timeout": True}


def test_a_killed_process_hands_its_shards_over_with_nothing_lost(cluster: Cluster) -> None:
    first, second = cluster.start("0"), cluster.start("1")
    for node, shard in ((first, 0), (second, 1)):
        cluster.set_up(node, shard)
        cluster.advance(node, shard, 3)
    acknowledged = cluster.fight(0)[2]
    first.send(**cluster.step_request(0))  # and killed before it can answer
    first.kill()
    second.stop()

    everything = cluster.start("0-1")  # the shards split again: one process runs both

    _, state, version = cluster.fight(0)
    assert version in (acknowledged, acknowledged + 1)  # the last step: applied or not
    assert CHANNELS[0] in everything.ready["armed"] or not any(
        p.kind is PromptKind.REACT for p in state.waiting_for())
    if any(p.kind is not PromptKind.ACT for p in state.waiting_for()):
        _prompt_button(cluster, everything, 0)  # the prompt it waits for is shown
    for shard in range(SHARDS):
        cluster.play(everything, shard)  # each fight to its end
        ended = cluster.db("SELECT id, version FROM combats WHERE channel_id = ? "
                           "ORDER BY id DESC", CHANNELS[shard])
        fight_id, final = ended[0]
        assert len(cluster.log(fight_id)) == final


def test_healthz_follows_the_database(own_postgres_server: PostgresServer,
                                      tmp_path: Path) -> None:
    url = own_postgres_server.create_database_now("health")
    cluster = Cluster(url, tmp_path)
    try:
        node = cluster.start("0-1", http=True)
        assert node.http("/healthz") == (200, "ok: shards 0-1 of 2\n")
        own_postgres_server.stop()
        status, reason = node.http("/healthz")
        assert status == 503 and reason.count("\n") == 1
        assert reason.startswith("database unavailable: ") and "nothing was changed" not in reason
        own_postgres_server.start()
        assert node.http("/healthz")[0] == 200
        node.do(op="slash", command="roll", options={"level": 40}, guild=GUILDS[0],
                channel=CHANNELS[0])
        _, metrics = node.http("/metrics")
        assert metric(metrics, "unhex_interactions_total", kind="command", command="roll",
                       outcome="ok") == 1
        assert metric(metrics, "unhex_database_errors_total", operation="meta.get",
                       error="DatabaseUnavailable") == 0
        assert metric(metrics, "unhex_fights_in_memory") == 0
        assert "unhex_database_transaction_seconds_count" in metrics
    finally:
        cluster.close()
