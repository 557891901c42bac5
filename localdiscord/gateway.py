"""The gateway (``topics/gateway``): HELLO, IDENTIFY answered by READY and a GUILD_CREATE
per guild of the shard, heartbeats acknowledged, events dispatched with sequence numbers,
and RESUME after a dropped connection replaying every event the bot had not received.

Each shard's session keeps every event it was sent; one task per connection sends what the
bot has not yet acknowledged receiving (by sequence), so an event dispatched while the
connection is down is sent once, on the resume.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

HEARTBEAT_MS = 41_250
#: Discord's HEARTBEAT_ACK crosses the network. An instant one on loopback, in the bot's own
#: process, can arrive before discord.py's keep-alive thread notes when it sent the heartbeat,
#: and the bot then warns "Can't keep up … 41.3s behind" (the whole interval) for nothing.
ACK_DELAY_SECONDS = 0.05
_session_ids = itertools.count(1)


@dataclass
class Session:
    shard: tuple[int, int]
    id: str = field(default_factory=lambda: f"session-{next(_session_ids)}")
    events: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0  # the last sequence written to the current connection
    socket: web.WebSocketResponse | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def add(self, event: str, data: dict[str, Any]) -> None:
        self.events.append({"op": 0, "t": event, "s": len(self.events) + 1, "d": data})
        self.wake.set()


@dataclass
class GatewayState:
    """What a test watches or holds: set ``answer_identify``/``answer_resume`` clear to keep
    the bot waiting at that step (as a slow Discord would)."""

    identified: asyncio.Event = field(default_factory=asyncio.Event)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    resumed: asyncio.Event = field(default_factory=asyncio.Event)
    answer_identify: asyncio.Event = field(default_factory=asyncio.Event)
    answer_resume: asyncio.Event = field(default_factory=asyncio.Event)
    resumes: int = 0
    identifies: int = 0

    def __post_init__(self) -> None:
        self.answer_identify.set()
        self.answer_resume.set()


class Gateway:
    """``ready_payload(shard)`` gives READY's data and the guilds to create on that shard."""

    def __init__(self, url: Callable[[], str],
                 ready_payload: Callable[[tuple[int, int]], tuple[dict[str, Any],
                                                                   list[dict[str, Any]]]]):
        self.url = url
        self.ready_payload = ready_payload
        self.sessions: dict[int, Session] = {}
        self.state = GatewayState()
        #: Every open connection (a stop closes them first).
        self.connections: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()

    def dispatch(self, event: str, data: dict[str, Any], guild_id: int | None = None) -> None:
        """Send ``event`` to the shard of ``guild_id`` (shard 0 for a DM)."""
        for session in self.sessions.values():
            index, count = session.shard
            home = 0 if guild_id is None else (guild_id >> 22) % count
            if home == index:
                session.add(event, data)

    async def drop(self, shard: int = 0, *, code: int = 4000) -> None:
        """Close the shard's connection as Discord does now and then; the bot resumes."""
        session = self.sessions[shard]
        assert session.socket is not None, "the shard is not connected"
        self.state.resumed.clear()
        await session.socket.close(code=code)

    # -- one connection ----------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.connections.add(ws)
        await ws.send_str(json.dumps({"op": 10, "s": None, "t": None,
                                      "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        session: Session | None = None
        sender: asyncio.Task[None] | None = None
        acks: set[asyncio.Task[None]] = set()
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                if payload["op"] == 1:
                    ack = asyncio.create_task(self._acknowledge(ws))
                    acks.add(ack)
                    ack.add_done_callback(acks.discard)
                elif payload["op"] in (2, 6) and session is None:
                    session = await self._open(ws, payload)
                    if session is None:
                        break
                    sender = asyncio.create_task(self._send(ws, session))
        finally:
            for waiting in list(acks):
                waiting.cancel()
            if sender is not None:
                sender.cancel()
            if session is not None and session.socket is ws:
                session.socket = None
        return ws

    @staticmethod
    async def _acknowledge(ws: web.WebSocketResponse) -> None:
        await asyncio.sleep(ACK_DELAY_SECONDS)
        if not ws.closed:
            await ws.send_str(json.dumps({"op": 11, "s": None, "t": None, "d": None}))

    async def _open(self, ws: web.WebSocketResponse,
                    payload: dict[str, Any]) -> Session | None:
        """A session for IDENTIFY (a new one) or RESUME (the old one, None if unknown)."""
        if payload["op"] == 2:
            self.state.identified.set()
            self.state.identifies += 1
            await self.state.answer_identify.wait()
            shard = tuple(payload["d"].get("shard") or (0, 1))
            session = Session((int(shard[0]), int(shard[1])))
            ready, guilds = self.ready_payload(session.shard)
            session.add("READY", ready | {"session_id": session.id,
                                          "resume_gateway_url": self.url(),
                                          "shard": list(session.shard)})
            for guild in guilds:
                session.add("GUILD_CREATE", guild)
            self.sessions[session.shard[0]] = session
            self.state.ready.set()
        else:
            await self.state.answer_resume.wait()
            wanted = payload["d"].get("session_id")
            found = [s for s in self.sessions.values() if s.id == wanted]
            if not found:  # Discord: the session cannot be resumed, identify anew
                await ws.send_str(json.dumps({"op": 9, "s": None, "t": None, "d": False}))
                return None
            session = found[0]
            session.sent = int(payload["d"].get("seq") or 0)  # replay what came after
            session.add("RESUMED", {})
            self.state.resumes += 1
            self.state.resumed.set()
        session.socket = ws
        return session

    @staticmethod
    async def _send(ws: web.WebSocketResponse, session: Session) -> None:
        while not ws.closed:
            session.wake.clear()
            while session.sent < len(session.events) and session.socket is ws:
                event = session.events[session.sent]
                await ws.send_str(json.dumps(event))
                session.sent = event["s"]
            await session.wake.wait()
