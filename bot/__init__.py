"""The Discord adapter of the Unhex bot: parse, call the engine, store, render."""

from bot.client import UnhexBot, create_bot

__all__ = ["UnhexBot", "create_bot"]
