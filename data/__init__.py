"""The rules data shipped with the bot (TOML), and the one place that reads it from disk.

>>> rules = load_rules()
>>> rules.body.for_die(9).name, rules.items.kind("shield").hands
('Head', 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from types import MappingProxyType

from engine.catalog import Rules, parse_rules

__all__ = ["builtin_maps", "load_rules", "read_text"]


def read_text(name: str) -> str:
    """The text of a data file shipped next to this module, e.g. ``read_text("items.toml")``."""
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


@cache  # the files ship with the code and never change while the bot runs
def load_rules() -> Rules:
    """Items, abilities and hit locations, parsed and cross-checked once."""
    return parse_rules(
        items=read_text("items.toml"),
        abilities=read_text("abilities.toml"),
        body=read_text("body.toml"),
    )


@cache  # like the rules, the built-in maps ship with the code
def builtin_maps() -> Mapping[str, str]:
    """The built-in maps in ``data/maps/``: name (the file name less ``.map``) -> map text, by name.

    >>> sorted(builtin_maps())
    ['manor', 'nightclub', 'warehouse']
    """
    folder = files(__package__).joinpath("maps")
    found = sorted((f for f in folder.iterdir() if f.name.endswith(".map")), key=lambda f: f.name)
    return MappingProxyType(
        {f.name.removesuffix(".map"): f.read_text(encoding="utf-8") for f in found}
    )
