"""A local stand-in for Discord: the REST API the bot calls and a gateway it connects to.

It answers what a bot's start and a slash command need (log in, application, gateway, the
command sync, interaction answers), refuses the first command sync with a 429 as Discord's
rate limiter does, and records every request. Its gateway says HELLO, answers IDENTIFY with
READY once :attr:`DiscordStandIn.ready` is set, acknowledges heartbeats, answers RESUME (after
:meth:`DiscordStandIn.drop_connection`) once :attr:`DiscordStandIn.resume` is set, and sends
the events a test hands to :meth:`DiscordStandIn.dispatch`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 900_000_000_000_000_001
BOT_USER = {"id": str(APP_ID), "username": "Unhex", "discriminator": "0", "avatar": None,
            "bot": True, "global_name": None}
_ids = itertools.count(950_000_000_000_000_000)


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    status: int
    body: Any


class DiscordStandIn:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.ready = asyncio.Event()  # set: the gateway answers IDENTIFY
        self.identified = asyncio.Event()
        self.answered = asyncio.Event()  # an interaction got its answer
        self.resumed = asyncio.Event()  # a dropped connection came back with RESUME
        self.resume = asyncio.Event()  # set: the gateway answers RESUME
        self._events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._socket: web.WebSocketResponse | None = None
        self._refused_sync = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def start(self) -> DiscordStandIn:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self._events.put_nowait({"op": 0, "t": event, "d": data})

    async def drop_connection(self) -> None:
        """Close the gateway connection as Discord does now and then (the bot resumes)."""
        assert self._socket is not None
        self.resumed.clear()
        self.resume.clear()
        await self._socket.close(code=4000)

    # -- REST ------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body = await request.json() if request.can_read_body and request.content_type == \
            "application/json" else None
        status, answer, headers = self._answer(request.method, path, body)
        self.calls.append(Call(request.method, path, status, body))
        if path.endswith("/callback") and status == 200:
            self.answered.set()
        # (exactly `application/json`, as Discord says it: discord.py compares the header)
        return web.Response(body=json.dumps(answer).encode(), status=status,
                            headers=headers | {"Content-Type": "application/json"})

    def _answer(self, method: str, path: str,
                body: Any) -> tuple[int, Any, dict[str, str]]:
        if path == "/users/@me":
            return 200, BOT_USER, {}
        if path == "/oauth2/applications/@me":
            return 200, {"id": str(APP_ID), "name": "Unhex", "icon": None, "description": "",
                         "bot_public": True, "bot_require_code_grant": False,
                         "owner": BOT_USER, "summary": "", "verify_key": "0", "flags": 0,
                         "team": None}, {}
        if path == "/gateway/bot":
            return 200, {"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": 1,
                         "session_start_limit": {"total": 1000, "remaining": 1000,
                                                 "reset_after": 0, "max_concurrency": 1}}, {}
        if method == "PUT" and path == f"/applications/{APP_ID}/commands":
            if not self._refused_sync:
                self._refused_sync = True
                return 429, {"message": "You are being rate limited.", "retry_after": 0.05,
                             "global": False}, {"Retry-After": "0.05",
                                                "X-RateLimit-Scope": "user",
                                                # (discord.py takes a 429 without it for a
                                                # Cloudflare ban, as Discord's carry it)
                                                "Via": "1.1 google"}
            return 200, [command | {"id": str(next(_ids)), "application_id": str(APP_ID),
                                    "version": "1"} for command in body], {}
        if method == "POST" and path.startswith("/interactions/"):
            interaction_id = path.split("/")[2]
            return 200, {"interaction": {"id": interaction_id, "type": 2,
                                         "response_message_id": str(next(_ids)),
                                         "response_message_loading": False,
                                         "response_message_ephemeral": False}}, {}
        return 404, {"message": "Unknown", "code": 0}, {}

    # -- the gateway -----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = self._socket = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41_250}}))
        sender = asyncio.create_task(self._send_events(ws))
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                if payload["op"] == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif payload["op"] == 6:
                    await self.resume.wait()
                    await ws.send_str(json.dumps({"op": 0, "t": "RESUMED", "s": 2, "d": {}}))
                    self.resumed.set()
                elif payload["op"] == 2:
                    self.identified.set()
                    await self.ready.wait()
                    shard = payload["d"].get("shard", [0, 1])
                    await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": 1, "d": {
                        "v": 10, "user": BOT_USER, "guilds": [], "session_id": "standin",
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                        "shard": shard, "application": {"id": str(APP_ID), "flags": 0}}}))
        finally:
            sender.cancel()
        return ws

    async def _send_events(self, ws: web.WebSocketResponse) -> None:
        for sequence in itertools.count(2):
            event = await self._events.get()
            await ws.send_str(json.dumps(event | {"s": sequence}))
