"""``/healthz`` and ``/metrics`` for whoever runs the bot (``UNHEX_HTTP_PORT``).

``/healthz`` answers 200 when every shard this process runs is connected and the database
answers, else 503 with the first reason in one line, so a container's health check or a
load balancer can act on it. ``/metrics`` is Prometheus' text format.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.operations.metrics import Metrics
from bot.settings import Settings
from bot.store.interfaces import Store
from bot.store.values import DatabaseUnavailable

log = logging.getLogger(__name__)

#: How long ``/healthz`` waits for the database before calling it down.
DATABASE_TIMEOUT = 2.0


class Watched(Protocol):
    """The bot, as these two pages see it (:class:`~bot.client.UnhexBot` is one)."""

    settings: Settings
    store: Store
    metrics: Metrics

    def shards_not_connected(self) -> list[str]: ...

    def refresh_gauges(self) -> None: ...


async def health(bot: Watched) -> str | None:
    """None when the process is well, else why not, in one line."""
    missing = bot.shards_not_connected()
    if missing:
        return f"shard{'s' if len(missing) > 1 else ''} not connected: " \
               f"{', '.join(map(str, missing))}"
    try:
        await asyncio.wait_for(bot.store.schema_version(), DATABASE_TIMEOUT)
    except TimeoutError:
        return f"database: no answer within {DATABASE_TIMEOUT:g} s"
    except Exception as error:
        # (DatabaseUnavailable speaks to users; the operator wants what the driver said)
        cause = error.__cause__ if isinstance(error, DatabaseUnavailable) else error
        said = f"{type(cause).__name__}: {cause}"[:200].replace("\n", " ")
        return f"database unavailable: {said}"
    return None


def application(bot: Watched) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        problem = await health(bot)
        if problem is None:
            return web.Response(text=f"ok: {bot.settings.shards.describe()}\n")
        return web.Response(status=503, text=problem + "\n")

    async def metrics(request: web.Request) -> web.Response:
        bot.refresh_gauges()
        body = generate_latest(bot.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)
    return app


async def serve(bot: Watched, host: str, port: int) -> web.AppRunner:
    """Start serving; the caller cleans the runner up when the bot closes."""
    runner = web.AppRunner(application(bot), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("Serving /healthz and /metrics on http://%s:%s", host, port)
    return runner
