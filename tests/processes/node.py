"""One bot process of several, driven line by line: what :mod:`tests.processes` starts twice.

Run as ``python -m tests.processes.node DATABASE --journal FILE --index N`` from the project's
root, with the process's settings in the environment (``UNHEX_SHARD_COUNT``,
``UNHEX_SHARD_IDS``, ``UNHEX_HTTP_PORT``). The process starts the real bot
(:class:`tests.crash.drive.KeptTable`: Discord's side is faked in the process and every
message it shows goes to the journal ``FILE``, which every node shares, as they share one
Discord), then reads one JSON request a line on stdin and writes one JSON answer a line on
stdout:

- first, unasked: ``{"ready": true, "pid": ..., "shown": [channel, ...], "armed": [...]}`` —
  the channels start-up showed a fight in, and those whose reaction window it re-armed;
- ``{"op": "slash", "command": "combat start", "user": "gm", "guild": G, "channel": C,
  "options": {...}}`` and ``{"op": "press", "custom_id": ..., "user": ..., "guild": G,
  "channel": C}`` (the button as the newest message of the channel that has it shows it;
  with ``"message": id``, on that message even if it no longer shows the button, as a client
  that has not seen its edit yet sends it):
  ``{"answer": text, "ephemeral": bool}``;
- ``{"op": "messages", "channel": C}``: every message of the channel, oldest first, as
  ``{"id", "content", "buttons": [custom id, ...]}``;
- ``{"op": "expire", "channel": C}``: the window's deadline passes now (the node's clock
  moves past it and its timer's job runs): ``{"closed": bool}``.

The fights' clock stands still (far in the future) unless a request moves it, so reaction
windows close only when asked.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

import testbed.harness as harness
from engine.dice import RandomDice
from testbed.harness import ALICE, BOB, GM, Reply
from tests.crash.drive import NOW, KeptTable

USERS = {"alice": ALICE, "bob": BOB, "gm": GM}
#: Message ids of node ``n`` start at ``n`` times this, past any another node gives out.
ID_SPACE = 10**13


def say(answer: dict[str, Any]) -> None:
    os.write(1, (json.dumps(answer) + "\n").encode())


def summary(reply: Reply) -> dict[str, Any]:
    if not reply.messages:
        return {"answer": None, "ephemeral": False, "kind": reply.kind}
    return {"answer": reply.answer.content, "ephemeral": reply.answer.ephemeral}


class Node:
    def __init__(self, database: str, journal: Path, index: int) -> None:
        settings = {key: value for key, value in os.environ.items()
                    if key.startswith("UNHEX_") and key not in ("UNHEX_DATABASE",)}
        self.table = KeptTable(database, journal, settings=settings)
        start = max((*self.table.messages, 0)) + 1_000 + index * ID_SPACE
        harness._ids = itertools.count(start)
        self.now = NOW
        self.index = index

    async def start(self) -> None:
        await self.table.start()
        self.table.bot.dice = RandomDice(self.index)
        fights = self.table.bot.fights
        fights.clock = lambda: self.now
        say({"ready": True, "pid": os.getpid(), "shown": sorted(self.table.written_channels),
             "armed": sorted(fights.armed_channels)})

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        table = self.table
        table.reload()
        op = request["op"]
        user = USERS[request.get("user", "gm")]
        guild, channel = request.get("guild"), request.get("channel", harness.CHANNEL_ID)
        if op == "slash":
            reply = await table.slash(request["command"], user=user, guild=guild,
                                      channel=channel, **request.get("options", {}))
            return summary(reply)
        if op == "press":
            custom_id = request["custom_id"]
            if "message" in request:
                message = self.snapshot(int(request["message"]), custom_id)
            else:
                having = [m for m in table.channel_messages(channel)
                          if custom_id in [b.custom_id for b in m.buttons]]
                if not having:
                    return {"error": f"no message in {channel} has {custom_id}"}
                message = having[-1]
            # (the harness's press: the crash driver's own knows one server only)
            reply = await harness.Table.press(table, custom_id, message=message, user=user,
                                              guild=guild)
            return summary(reply)
        if op == "messages":
            return {"messages": [{"id": m.id, "content": m.content,
                                  "buttons": [b.custom_id for b in m.buttons]}
                                 for m in table.channel_messages(channel)]}
        if op == "expire":
            stored = await table.bot.store.combats.active(channel)
            if stored is not None and stored.next_deadline is not None:
                self.now = max(self.now, stored.next_deadline + 1)
            closed = await table.bot.fights.close_expired_window(channel)
            await table.settle()
            return {"closed": closed}
        return {"error": f"unknown op {op}"}


    def snapshot(self, message_id: int, custom_id: str) -> harness.Message:
        """Message ``message_id`` as it was when it last showed button ``custom_id``."""
        found = None
        for line in self.table.journal_path.read_text().splitlines():
            raw = json.loads(line)
            if int(raw["id"]) == message_id and custom_id in line:
                found = raw
        assert found is not None, f"message {message_id} never showed {custom_id}"
        return harness.Message(int(found["id"]), int(found["channel_id"]), found["content"],
                               False, tuple(found["components"]), raw=found)


async def main(database: str, journal: Path, index: int) -> int:
    node = Node(database, journal, index)
    await node.start()
    loop = asyncio.get_running_loop()
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            try:
                say(await node.handle(json.loads(line)))
            except Exception as error:  # the test reads it and fails with it
                say({"error": f"{type(error).__name__}: {error}"})
    finally:
        await node.table.stop()
    return 0


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--index", type=int, default=0)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.database, args.journal, args.index)))


if __name__ == "__main__":
    run()
