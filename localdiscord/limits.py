"""Discord's limits on what a bot sends, in one place: a message (``resources/message``), its
components (``components/reference``), a modal and autocomplete choices
(``interactions/receiving-and-responding``). Each check returns the ``errors`` of Discord's
50035 Invalid Form Body (field path -> ``{"_errors": [{"code", "message"}]}``), or ``None``
when Discord takes the body. The local Discord and the in-process test harness both ask here,
so they refuse the same bodies.

The bot sends no embeds, so their limits are not checked.
"""

from __future__ import annotations

from typing import Any

from localdiscord.enums import MessageFlag

__all__ = [
    "ACTION_ROWS", "AUTOCOMPLETE_CHOICES", "BUTTON_LABEL", "CHOICE_TEXT", "CUSTOM_ID",
    "INPUT_LABEL", "INPUT_PLACEHOLDER", "INPUT_VALUE", "LABEL_DESCRIPTION",
    "MESSAGE_CONTENT", "MODAL_ROWS", "MODAL_TITLE", "OPTION_TEXT", "ROW_COMPONENTS",
    "SELECT_OPTIONS", "SELECT_PLACEHOLDER", "Errors", "autocomplete_errors", "message_errors",
    "modal_errors",
]

MESSAGE_CONTENT = 2000
ACTION_ROWS = 5
ROW_COMPONENTS = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_PLACEHOLDER = 150
SELECT_OPTIONS = 25
#: An option's label, value and description alike.
OPTION_TEXT = 100
MODAL_TITLE = 45
MODAL_ROWS = 5
#: A text input's label, and a label component's (the newer modal row).
INPUT_LABEL = 45
LABEL_DESCRIPTION = 100
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000
AUTOCOMPLETE_CHOICES = 25
#: A choice's name and (string) value alike.
CHOICE_TEXT = 100

BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 2, 3, 4, 18
SELECTS = (3, 5, 6, 7, 8)

Errors = dict[str, dict[str, list[dict[str, str]]]]


def _longer(errors: Errors, path: str, text: Any, most: int) -> None:
    if isinstance(text, str) and len(text) > most:
        errors[path] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                     "message": f"Must be {most} or fewer in length."}]}


def _more(errors: Errors, path: str, items: Any, most: int) -> None:
    if isinstance(items, list) and len(items) > most:
        errors[path] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                     "message": f"Must be {most} or fewer in length."}]}


def _join(at: str, field: str) -> str:
    return f"{at}.{field}" if at else field


def message_errors(body: dict[str, Any], *, at: str = "") -> Errors | None:
    """What Discord refuses in a message's ``body`` (sent, edited, or an interaction's answer:
    then ``at="data"``)."""
    errors: Errors = {}
    _longer(errors, _join(at, "content"), body.get("content"), MESSAGE_CONTENT)
    if not int(body.get("flags") or 0) & MessageFlag.IS_COMPONENTS_V2:
        rows = body.get("components") or []
        _more(errors, _join(at, "components"), rows, ACTION_ROWS)
        for index, row in enumerate(rows):
            _row(errors, _join(at, f"components.{index}.components"), row.get("components"))
    return errors or None


def _row(errors: Errors, path: str, parts: Any) -> None:
    """An action row: 5 buttons, or one select menu alone."""
    parts = parts if isinstance(parts, list) else []
    _more(errors, path, parts, ROW_COMPONENTS)
    if len(parts) > 1 and any(p.get("type") in SELECTS for p in parts):
        errors[path] = {"_errors": [{"code": "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                     "message": "The specified component exceeds the maximum "
                                                "width"}]}
    for index, part in enumerate(parts):
        _component(errors, f"{path}.{index}", part)


def _component(errors: Errors, path: str, part: dict[str, Any]) -> None:
    """A button, a select menu or a text input, wherever it sits."""
    _longer(errors, f"{path}.custom_id", part.get("custom_id"), CUSTOM_ID)
    kind = part.get("type")
    if kind == BUTTON:
        _longer(errors, f"{path}.label", part.get("label"), BUTTON_LABEL)
    elif kind in SELECTS:
        _longer(errors, f"{path}.placeholder", part.get("placeholder"), SELECT_PLACEHOLDER)
        options = part.get("options") or []
        _more(errors, f"{path}.options", options, SELECT_OPTIONS)
        for index, option in enumerate(options if kind == STRING_SELECT else []):
            for field in ("label", "value", "description"):
                _longer(errors, f"{path}.options.{index}.{field}", option.get(field),
                        OPTION_TEXT)
    elif kind == TEXT_INPUT:
        _longer(errors, f"{path}.label", part.get("label"), INPUT_LABEL)
        _longer(errors, f"{path}.placeholder", part.get("placeholder"), INPUT_PLACEHOLDER)
        _longer(errors, f"{path}.value", part.get("value"), INPUT_VALUE)


def modal_errors(data: dict[str, Any], *, at: str = "data") -> Errors | None:
    """What Discord refuses in a modal (an interaction's answer of type 9, its ``data``):
    rows of one text input, or label rows holding a text input or a select menu."""
    errors: Errors = {}
    _longer(errors, _join(at, "custom_id"), data.get("custom_id"), CUSTOM_ID)
    _longer(errors, _join(at, "title"), data.get("title"), MODAL_TITLE)
    rows = data.get("components") or []
    _more(errors, _join(at, "components"), rows, MODAL_ROWS)
    for index, row in enumerate(rows):
        path = _join(at, f"components.{index}")
        if row.get("type") == LABEL:
            _longer(errors, f"{path}.label", row.get("label"), INPUT_LABEL)
            _longer(errors, f"{path}.description", row.get("description"), LABEL_DESCRIPTION)
            _component(errors, f"{path}.component", row.get("component") or {})
        else:
            _row(errors, f"{path}.components", row.get("components"))
    return errors or None


def autocomplete_errors(data: dict[str, Any], *, at: str = "data") -> Errors | None:
    """What Discord refuses in autocomplete choices (an answer of type 8, its ``data``)."""
    errors: Errors = {}
    choices = data.get("choices") or []
    _more(errors, _join(at, "choices"), choices, AUTOCOMPLETE_CHOICES)
    for index, choice in enumerate(choices):
        for field in ("name", "value"):
            _longer(errors, _join(at, f"choices.{index}.{field}"), choice.get(field),
                    CHOICE_TEXT)
    return errors or None
