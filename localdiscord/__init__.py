"""A Discord of our own: see :mod:`localdiscord.server` and README.md here."""

from localdiscord.server import APP_ID, LocalDiscord

__all__ = ["APP_ID", "LocalDiscord"]
