"""`/character …` and `/sheet`, as a package: :mod:`.common` (limits, finding a character,
who may change it), :mod:`.choices` (autocomplete), :mod:`.listing` (`/character list`, a
page at a time), :mod:`.transfer` (the sheet block, export and the import form), :mod:`.delete`
(the delete confirmation) and :mod:`.cog` (the commands).
"""

from bot.cogs.characters.cog import setup
from bot.cogs.characters.common import PASTE_LABEL, find_character, may_change, require_change
from bot.cogs.characters.transfer import export_text

__all__ = ["PASTE_LABEL", "export_text", "find_character", "may_change", "require_change",
           "setup"]
