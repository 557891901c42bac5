"""What a fight leaves on a character's sheet when it ends."""

from __future__ import annotations

from engine.character import Character

__all__ = ["after_the_fight"]


def after_the_fight(sheet: Character, fought: Character) -> Character:
    """The sheet as it is now, with what the fight did to the character: level, wounds,
    surrender, and the items destroyed in the fight (matched by name and kind, so items added
    to the sheet during the fight are kept). Hands stay as the sheet has them.

    >>> from engine.character import Item
    >>> kit = Item(name="Kit", kind="first_aid")
    >>> sheet = Character(name="Ana", level=50, max_level=50, items=(kit,), right_hand=0)
    >>> fought = sheet.model_copy(update={"level": 41, "right_hand": None,
    ...     "items": (kit.model_copy(update={"destroyed": True}),)})
    >>> rope = Item(name="Rope", kind="melee_1h")
    >>> now = sheet.model_copy(update={"items": (kit, rope)})  # a rope was added meanwhile
    >>> after = after_the_fight(now, fought)
    >>> after.level, [(it.name, it.destroyed) for it in after.items], after.right_hand
    (41, [('Kit', True), ('Rope', False)], None)
    """
    items = list(sheet.items)
    for lost in (it for it in fought.items if it.destroyed):
        for index, it in enumerate(items):
            if not it.destroyed and (it.name.casefold(), it.kind) == (lost.name.casefold(),
                                                                     lost.kind):
                items[index] = it.model_copy(update={"destroyed": True})
                break

    def still_held(index: int | None) -> int | None:
        return None if index is None or items[index].destroyed else index

    return Character.model_validate(
        {
            **sheet.model_dump(),
            "level": min(fought.level, sheet.max_level),
            "wounds": dict(fought.wounds),
            "surrendered": fought.surrendered,
            "items": [it.model_dump() for it in items],
            "right_hand": still_held(sheet.right_hand),
            "left_hand": still_held(sheet.left_hand),
        }
    )
