"""`python -m bot` (what `make run` runs): start the bot, or say in one line why not.

`python -m bot sync` sends the slash commands to Discord even if they did not change since
the last sync, then exits (a normal start syncs only when they changed).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence

import discord
from pydantic import ValidationError

from bot.client import create_bot
from bot.settings import Settings

NO_TOKEN = (
    "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in .env "
    "(copy .env.example) or in the environment, then run again."
)
BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN (the token is invalid or was reset): "
    "copy a fresh token from the developer portal into .env."
)
USAGE = ("Usage: python -m bot [sync]. Without arguments, start the bot; with sync, send the "
         "slash commands to Discord now, then exit.")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["sync"]):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings()
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        print(f"Bad setting: {problems}. See .env.example.", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    token = settings.discord_token.get_secret_value()
    if args == ["sync"]:
        return asyncio.run(sync(settings, token))
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
    except OSError as error:
        print(f"Could not reach Discord ({error}). Check the network and run again.",
              file=sys.stderr)
        return 1
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
