"""`python -m bot` (what `make run` runs): start the bot, or say in one line why not."""

from __future__ import annotations

import logging
import sys

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


def main() -> int:
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
    bot = create_bot(settings)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
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


if __name__ == "__main__":
    sys.exit(main())
