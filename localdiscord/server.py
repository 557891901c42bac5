"""The local Discord: its state (:class:`~localdiscord.state.DiscordState`) served over HTTP
on 127.0.0.1 (REST API and gateway), with the people who act in it and the switches a test
flips.

``server = await LocalDiscord(seed).start()`` serves ``server.api`` (the bot's API base) with
the guilds of ``seed``. People act with :attr:`LocalDiscord.people` (``slash``, ``press``,
``pick``, ``submit``); a test flips Discord's behaviours with :attr:`LocalDiscord.faults`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from aiohttp import WSCloseCode, web

from localdiscord.faults import Faults
from localdiscord.keep import Keeper
from localdiscord.model import Seed
from localdiscord.people import People
from localdiscord.routes import build_app
from localdiscord.state import DiscordState

#: How long a stop waits for the open websockets (a page's feed, the bot's gateway) to say
#: goodbye and for requests in flight to finish, before it cuts them off.
STOP_SECONDS = 1.0


class LocalDiscord(DiscordState):
    """``seed``: the guilds it starts with. ``state_file``: where channels and messages are
    kept across a restart (None: only in memory). ``extend``: called with the server and its
    aiohttp application before it serves, to add routes of one's own (a page, say)."""

    def __init__(self, seed: Seed, state_file: Path | None = None, *,
                 extend: Callable[[LocalDiscord, web.Application], None] | None = None) -> None:
        super().__init__(seed)
        self.faults = Faults(self)
        self.people = People(self)
        self.extend = extend
        self._runner: web.AppRunner | None = None
        self.keeper = None if state_file is None else Keeper(self, state_file)

    async def start(self, port: int = 0, host: str = "127.0.0.1") -> LocalDiscord:
        """Serve on ``host`` (127.0.0.1 unless told otherwise) and ``port`` (0: a free one)."""
        if self.keeper is not None:
            self.keeper.load()
            self.feed.listeners.append(self.keeper.changed)
        app = build_app(self, self.faults)
        if self.extend is not None:
            self.extend(self, app)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=STOP_SECONDS)
        await self._runner.setup()
        self.host = host
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        """Close the open websockets (their handlers would hold the server up for a minute),
        then the server, within about :data:`STOP_SECONDS` each."""
        if self._runner is None:
            return
        closing = [ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
                   for ws in [*self.sockets, *self.gateway.connections]]
        if closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True),
                                       STOP_SECONDS)
        await self._runner.cleanup()
        self._runner = None
        if self.keeper is not None:
            await self.keeper.close()
