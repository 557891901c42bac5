"""`python -m bot local`: the local table. The Discord of our own (:mod:`localdiscord`) serves
the table's server (:mod:`bot.local_table.seed`: a GM, alice, bob, carol and dave; #fight and
#tavern) and the page that plays it in a browser (:mod:`bot.local_table.page`); the bot
connects to it exactly as to Discord (the same client, dispatch and store, on the same
database file: what is played there stays, the local Discord's channels and messages kept
beside it in ``<database>.discord.json``), its REST calls sent there by ``UNHEX_DISCORD_API``
with a made-up token the local server accepts.

`python -m bot play` (what `make run` runs) is the Discord bot when DISCORD_TOKEN is set, else
this.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import ipaddress
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.client import create_bot
from bot.settings import Settings
from bot.store import is_postgres, open_store
from bot.store.migrations import DatabaseRefused

LOCAL_TOKEN = "local-table"
DEFAULT_PORT = 8765
LOOPBACK = "127.0.0.1"
#: How long the bot may take to connect and sync before the page is announced anyway.
READY_SECONDS = 30.0
WILDCARD = (
    "--host {host} would listen on every address of this machine: name the one to listen on "
    "(such as --host 192.168.1.20)."
)
OPEN_TO_OTHERS = (
    "Warning: the local table listens on {host}: anyone who reaches it can act as anyone, "
    "the GM included."
)
BUSY = "Port {port} is taken: choose another with python -m bot local --port <port>."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the page's port (default {DEFAULT_PORT})")
    parser.add_argument("--database", metavar="FILE",
                        help="the SQLite file (default: UNHEX_DATABASE, else unhex.sqlite3)")
    parser.add_argument("--host", default=LOOPBACK,
                        help="the address to listen on (default 127.0.0.1, this machine only)")


def refusal(host: str) -> str | None:
    """Why the local table will not listen on ``host`` (every address at once); None: it
    may."""
    try:
        address = ipaddress.ip_address(host or "0.0.0.0")
    except ValueError:
        return None  # a host name, given by name
    return WILDCARD.format(host=host or "''") if address.is_unspecified else None


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def local_settings(settings: Settings, database: str | None, api: str) -> Settings:
    """``settings`` pointed at the local Discord: its API, the made-up token, no dev guild
    nor shards of the real bot's."""
    update: dict[str, Any] = {
        "discord_token": SecretStr(LOCAL_TOKEN), "discord_api": api, "dev_guild": None,
        "shard_count": None, "shard_ids": None}
    if database is not None:
        update["database"] = database
    return settings.model_copy(update=update)


def state_file(database: str) -> Path | None:
    """Where the local Discord keeps its channels and messages: beside the SQLite file (so
    the fights in it find their channels again), for PostgreSQL in the current directory;
    None for a database in memory."""
    if is_postgres(database):
        return Path("local-table.discord.json")
    if database in ("", ":memory:"):
        return None
    return Path(f"{database}.discord.json")


def _no_voice_warning(record: logging.LogRecord) -> bool:
    """discord.py's warnings that voice is not installed: the table never needs it."""
    return "voice will NOT be supported" not in record.getMessage()


def announcement(url: str) -> str:
    return (f"The local table is at {url} (open it in a browser; Ctrl+C stops it). "
            "To play on Discord instead, set DISCORD_TOKEN in .env (see .env.example).")


def main(settings: Settings, port: int, host: str, database: str | None) -> int:
    problem = refusal(host)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    if not is_loopback(host):
        print(OPEN_TO_OTHERS.format(host=host), file=sys.stderr)
    if "log_level" not in settings.model_fields_set:  # one line, unless asked for more
        logging.getLogger().setLevel(logging.WARNING)
        logging.getLogger("discord.client").addFilter(_no_voice_warning)
    try:
        asyncio.run(serve(settings, port, host, database))
    except DatabaseRefused as refused:
        print(refused, file=sys.stderr)
        return 1
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        print(BUSY.format(port=port), file=sys.stderr)
        return 1
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl+C, or SIGTERM
        pass
    return 0


async def serve(settings: Settings, port: int, host: str, database: str | None) -> None:
    """Serve the local Discord and its page, run the bot against it, say where to open it.
    Ctrl+C (asyncio's own) or SIGTERM cancel it: the bot closes, then the server."""
    from bot.local_table import local_discord

    serving = asyncio.current_task()
    if serving is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, serving.cancel)

    table = local_settings(settings, database, "http://placeholder/api/v10")
    store = await open_store(table.database, pool_size=1)  # a refused database: said first
    await store.close()
    server = await local_discord(state_file(table.database)).start(port, host)
    bot = create_bot(local_settings(settings, database, server.api), force_sync=True)
    try:
        async with bot:
            running = asyncio.create_task(bot.start(LOCAL_TOKEN))
            await _synced(server, running)
            print(announcement(f"{server.base}/"), flush=True)
            await running
    finally:
        await server.stop()


async def _synced(server: Any, running: asyncio.Task[None]) -> None:
    """Until the bot is connected and its commands are on the server (or it stopped)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + READY_SECONDS
    while loop.time() < deadline and not running.done():
        if server.gateway.state.ready.is_set() and server.commands:
            return
        await asyncio.sleep(0.05)
    if running.done():
        running.result()  # its error, said by main
