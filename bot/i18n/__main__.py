"""``python -m bot.i18n pseudo TEMPLATE OUTPUT``: write the pseudo-locale's catalogue from the
template (the Makefile's step; :mod:`bot.i18n.pseudo`)."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.i18n.pseudo import write_pseudo

if __name__ == "__main__":
    match sys.argv[1:]:
        case ["pseudo", template, output]:
            write_pseudo(Path(template), Path(output))
        case _:
            sys.exit(__doc__)
