"""What a viewer reads that is not Discord's API (a page in the browser, as Discord's app
reads its CDN and its gateway): the messages' attachments, and the feed of changes, whole
from an index or followed over a websocket (``/localdiscord/feed``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import WSMsgType, web

from localdiscord.rest import answer, server_of


async def attachment(request: web.Request) -> web.Response:
    for message in server_of(request).messages.values():
        for made in message.attachments:
            if str(made.id) == request.match_info["id"]:
                return web.Response(body=made.data,
                                    content_type=made.content_type or "application/octet-stream")
    raise web.HTTPNotFound()


async def feed(request: web.Request) -> web.Response:
    """Every change from ``?since=<index>`` on, as JSON."""
    since, viewer = int(request.query.get("since", "0")), viewer_of(request)
    return answer([c.payload() for c in server_of(request).feed.events[since:]
                   if c.seen_by(viewer)])


async def feed_socket(request: web.Request) -> web.WebSocketResponse:
    """Every change from ``?since=<index>`` on, then each one as it happens."""
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    server_of(request).sockets.add(ws)
    changes = server_of(request).feed.follow(int(request.query.get("since", "0")))
    follower = asyncio.create_task(_forward(ws, changes, viewer_of(request)))
    try:
        async for message in ws:
            if message.type is WSMsgType.CLOSE:
                break
    finally:
        follower.cancel()
    return ws


async def _forward(ws: web.WebSocketResponse, changes: Any, viewer: int | None) -> None:
    async for change in changes:
        if change.seen_by(viewer):
            await ws.send_str(json.dumps(change.payload()))


def viewer_of(request: web.Request) -> int | None:
    """``?as=<user id>``: the changes that user sees (an ephemeral message only by its
    reader); without it, every change."""
    viewer = request.query.get("as", "")
    return int(viewer) if viewer.isdigit() else None
