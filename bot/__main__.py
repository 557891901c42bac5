"""`python -m bot` (what `make run` runs): start the bot, or say in one line why not.

- `python -m bot sync` sends the slash commands to Discord even if they did not change since
  the last sync, then exits (a normal start syncs only when they changed).
- `python -m bot copy-database --to postgresql://…` copies the configured SQLite database into
  an empty PostgreSQL database, checks the copy, and says what it copied.
- `python -m bot backup FILE` writes a consistent copy of the SQLite database, even while the
  bot runs.
- `python -m bot invite [--client-id ID]` prints the link that adds the bot to a server with
  exactly the permissions it uses (``bot.permissions.BOT_PERMISSIONS``); the id defaults to the
  one DISCORD_TOKEN starts with. Neither the database nor the network is touched.
- `python -m bot local [--port P] [--database FILE] [--host H]` plays without Discord: the
  local table in a browser (``bot.local``). `python -m bot play` (what `make run` runs) is the
  Discord bot when DISCORD_TOKEN is set, else the local table.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import discord
from pydantic import ValidationError

from bot import local
from bot.client import create_bot
from bot.permissions import BOT_PERMISSIONS, invite_permissions
from bot.settings import Settings
from bot.store import describe_database, is_postgres, open_store
from bot.store.migrations import DatabaseRefused
from engine.phrases import english

NO_TOKEN = (
    "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in .env "
    "(copy .env.example) or in the environment, then run again."
)
BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN (the token is invalid or was reset): "
    "copy a fresh token from the developer portal into .env."
)


NO_CLIENT_ID = (
    "No application id: pass --client-id <Application ID> (developer portal, General "
    "Information); DISCORD_TOKEN is not set or does not start with one."
)


USAGE = ("Usage: python -m bot [sync | copy-database --to URL | backup FILE | "
         "invite [--client-id ID] | local [--port P] [--database FILE] [--host H] | play]")


class _OneLineParser(argparse.ArgumentParser):
    """Says what was wrong with the command line in one line (``--help`` says the rest)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{USAGE}. {message[0].upper()}{message[1:]}; see python -m bot --help.\n")


def _arguments() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="python -m bot", description="Run the Unhex bot (without a command: start it).")
    commands = parser.add_subparsers(dest="command", parser_class=_OneLineParser)
    commands.add_parser("sync", help="send the slash commands to Discord now, then exit")
    copy = commands.add_parser(
        "copy-database", help="copy the SQLite database (UNHEX_DATABASE) into PostgreSQL")
    copy.add_argument("--to", required=True, metavar="URL",
                      help="an empty PostgreSQL database: postgresql://user:pw@host:port/db")
    backup = commands.add_parser(
        "backup", help="write a consistent copy of the SQLite database, even while it runs")
    backup.add_argument("file", type=Path, help="the new file")
    invite = commands.add_parser(
        "invite", help="print the link that adds the bot to a server, with its permissions")
    invite.add_argument("--client-id", type=_application_id, metavar="ID",
                        help="the Application ID (default: the one DISCORD_TOKEN starts with)")
    local.add_arguments(commands.add_parser(
        "local", help="play in a browser without Discord: the local table"))
    local.add_arguments(commands.add_parser(
        "play", help="the bot on Discord with DISCORD_TOKEN set, else the local table"))
    return parser


def _application_id(text: str) -> int:
    """An application id as the developer portal shows it (a Discord snowflake)."""
    if not (text.isascii() and text.isdigit() and 15 <= len(text) <= 20):
        raise argparse.ArgumentTypeError(f"{text!r} is not an Application ID (15-20 digits)")
    return int(text)


def application_id_of(token: str) -> int | None:
    """The application id a bot token starts with (its first part is the id in base64);
    None when it does not."""
    first = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode()
        return _application_id(decoded)
    except (binascii.Error, UnicodeDecodeError, argparse.ArgumentTypeError):
        return None


def _settings() -> Settings | None:
    try:
        return Settings()
    except ValidationError as error:
        problems = "; ".join(_problem(e["loc"], e["msg"]) for e in error.errors())
        print(f"Bad setting: {problems}. See .env.example.", file=sys.stderr)
        return None


def _problem(location: tuple[int | str, ...], message: str) -> str:
    message = message.removeprefix("Value error, ")
    return f"{'.'.join(str(part) for part in location)}: {message}" if location else message


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _arguments().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:  # --help, or a command line it cannot read
        return stop.code if isinstance(stop.code, int) else 2
    if args.command == "invite":
        return invite(args.client_id)
    settings = _settings()
    if settings is None:
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        if args.command == "copy-database":
            return asyncio.run(copy_database(settings, args.to))
        if args.command == "backup":
            return backup(settings, args.file)
        if args.command == "local" or (args.command == "play" and settings.discord_token is None):
            return local.main(settings, args.port, args.host, args.database)
        if settings.discord_token is None:
            print(NO_TOKEN, file=sys.stderr)
            return 2
        asyncio.run(check_database(settings))
    except DatabaseRefused as refused:
        print(refused, file=sys.stderr)
        return 1
    token = settings.discord_token.get_secret_value()
    if args.command == "sync":
        return asyncio.run(sync(settings, token))
    return run(settings, token)


def run(settings: Settings, token: str) -> int:
    bot = create_bot(settings)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused an intent this bot should not ask for; please report it.",
              file=sys.stderr)
        return 2
    except DatabaseRefused as refused:  # (it went away between the check and the start)
        print(refused, file=sys.stderr)
        return 1
    except OSError as error:
        print(f"Could not reach Discord ({error}). Check the network and run again.",
              file=sys.stderr)
        return 1
    return 0


def invite(client_id: int | None) -> int:
    """Print the link that adds the bot to a server with :data:`BOT_PERMISSIONS`, and those
    permissions by name; ``client_id`` None: the one DISCORD_TOKEN starts with."""
    if client_id is None:
        settings = _settings()
        if settings is None:
            return 2
        token = settings.discord_token
        client_id = None if token is None else application_id_of(token.get_secret_value())
        if client_id is None:
            print(NO_CLIENT_ID, file=sys.stderr)
            return 2
    permissions = invite_permissions()
    print(discord.utils.oauth_url(client_id, permissions=permissions,
                                  scopes=("bot", "applications.commands")))
    print(f"Permissions ({permissions.value}): "
          f"{', '.join(english(permission.label) for permission in BOT_PERMISSIONS)}.")
    return 0


async def check_database(settings: Settings) -> None:
    """Open (and migrate) the database once before going online: a database the bot cannot
    use is said in one line before Discord is contacted."""
    store = await open_store(settings.database, pool_size=1)
    await store.close()


async def copy_database(settings: Settings, target: str) -> int:
    from bot.store.copy_database import copy_database as copy

    if is_postgres(settings.database):
        raise DatabaseRefused(
            f"UNHEX_DATABASE is already PostgreSQL ({describe_database(settings.database)}): "
            "copy-database copies a SQLite database; set UNHEX_DATABASE to its file.")
    if not is_postgres(target):
        raise DatabaseRefused("--to must be a PostgreSQL URL: postgresql://user:password@host:"
                              "port/database.")
    copied = await copy(settings.database, target)
    for table in copied:
        print(f"{table.name:<16} {table.rows:>8} rows  checksum {table.checksum[:16]}")
    print(f"Copied {sum(t.rows for t in copied)} rows from {settings.database} to "
          f"{describe_database(target)}; every table checked. Set UNHEX_DATABASE to it.")
    return 0


def backup(settings: Settings, file: Path) -> int:
    from bot.store.backup import backup_sqlite

    if is_postgres(settings.database):
        print("The database is PostgreSQL: back it up with pg_dump (see README).",
              file=sys.stderr)
        return 2
    size = backup_sqlite(settings.database, file)
    print(f"Backed up {settings.database} to {file} ({size:,} bytes).")
    return 0


async def sync(settings: Settings, token: str) -> int:
    """Log in (which opens the store and loads the cogs), send the commands, log out."""
    bot = create_bot(settings, force_sync=True)
    try:
        async with bot:
            await bot.login(token)
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2
    except discord.HTTPException as error:
        print(f"Discord refused the commands ({error}); nothing was synced.", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"Could not reach Discord ({error}). Check the network and run again.",
              file=sys.stderr)
        return 1
    print(bot.sync_report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
