"""A Discord of our own: see :mod:`localdiscord.server` and README.md here."""

from localdiscord.model import APP_ID, Seed
from localdiscord.server import LocalDiscord

__all__ = ["APP_ID", "LocalDiscord", "Seed"]
