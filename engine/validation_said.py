"""Pydantic's validation errors said as phrases, for a player who pasted or typed something that
does not fit (a character's JSON, an item, a GM's correction): each problem after the field it
is in, as the JSON's keys name it ("level: Field required"), in the reader's language.

>>> from pydantic import BaseModel, Field, ValidationError
>>> class Sheet(BaseModel):
...     level: int = Field(le=99)
...     name: str
>>> try:
...     Sheet.model_validate_json('{"level": 100}')
... except ValidationError as error:
...     validation_sentence(error).english()
'`level`: Input should be less than or equal to 99; `name`: Field required'
>>> try:
...     Sheet.model_validate_json('{"level": 1,')
... except ValidationError as error:
...     validation_sentence(error).english()
'Invalid JSON: it ends too early, at line 1, column 12'

A problem of a type not known here is said in pydantic's own (English) words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from engine.listing import chained
from engine.phrases import Phrase, Said, phrase, plural_phrase

__all__ = ["validation_sentence"]

#: Where serde_json (which pydantic parses JSON with) says a JSON text broke.
_JSON_WHERE = re.compile(r"(?P<what>.*) at line (?P<line>\d+) column (?P<column>\d+)$")


def _json_problem(context: Mapping[str, Any]) -> Said | None:
    found = _JSON_WHERE.match(str(context.get("error", "")))
    if found is None:
        return None
    line, column = int(found["line"]), int(found["column"])
    if found["what"].startswith("EOF while parsing"):
        return phrase("Invalid JSON: it ends too early, at line {line}, column {column}",
                      line=line, column=column)
    return phrase("Invalid JSON at line {line}, column {column}", line=line, column=column)


def _value_problem(context: Mapping[str, Any]) -> Said | None:
    """A validator's own refusal: the engine's raise a :class:`RuleError`, which says it."""
    said = getattr(context.get("error"), "said", None)
    return said if isinstance(said, Phrase | str) else None


def _said(said: Phrase) -> Callable[[Mapping[str, Any]], Said]:
    return lambda context: said


#: What each kind of problem says, from its context (None: say pydantic's own words).
_PROBLEMS: dict[str, Callable[[Mapping[str, Any]], Said | None]] = {
    "json_invalid": _json_problem,
    "value_error": _value_problem,
    "missing": _said(phrase("Field required")),
    "extra_forbidden": _said(phrase("Extra inputs are not permitted")),
    "model_type": _said(phrase("Input should be an object")),
    "dict_type": _said(phrase("Input should be an object")),
    "tuple_type": _said(phrase("Input should be a valid array")),
    "list_type": _said(phrase("Input should be a valid array")),
    "string_type": _said(phrase("Input should be a valid string")),
    "bool_type": _said(phrase("Input should be a valid boolean")),
    "bool_parsing": _said(phrase("Input should be a valid boolean")),
    "int_type": _said(phrase("Input should be a valid integer")),
    "int_parsing": _said(phrase("Input should be a valid integer")),
    "int_from_float": _said(phrase("Input should be a valid integer")),
    "int_parsing_size": _said(phrase("Input should be a smaller integer")),
    "literal_error": lambda context: phrase("Input should be {expected}",
                                            expected=str(context["expected"])),
    "greater_than_equal": lambda context: phrase(
        "Input should be greater than or equal to {least}", least=str(context["ge"])),
    "less_than_equal": lambda context: phrase(
        "Input should be less than or equal to {most}", most=str(context["le"])),
    "greater_than": lambda context: phrase("Input should be greater than {least}",
                                           least=str(context["gt"])),
    "less_than": lambda context: phrase("Input should be less than {most}",
                                        most=str(context["lt"])),
    "string_too_short": lambda context: plural_phrase(
        "String should have at least {count} character",
        "String should have at least {count} characters", "count",
        count=int(context["min_length"])),
    "string_too_long": lambda context: plural_phrase(
        "String should have at most {count} character",
        "String should have at most {count} characters", "count",
        count=int(context["max_length"])),
    "too_long": lambda context: phrase("Too long: at most {most}, not {length}",
                                       most=int(context["max_length"]),
                                       length=int(context["actual_length"])),
    "too_short": lambda context: phrase("Too short: at least {least}, not {length}",
                                        least=int(context["min_length"]),
                                        length=int(context["actual_length"])),
}


def _problem(detail: ErrorDetails) -> Said:
    """One problem, without its field."""
    said_by = _PROBLEMS.get(detail["type"])
    try:
        said = None if said_by is None else said_by(detail.get("ctx") or {})
    except (KeyError, TypeError, ValueError):  # (a context not as expected)
        said = None
    return said if said is not None else str(detail["msg"]).removeprefix("Value error, ")


def _with_field(detail: ErrorDetails) -> Said:
    where = ".".join(str(part) for part in detail["loc"])
    problem = _problem(detail)
    if not where:
        return problem
    # Translators: a field of a pasted JSON text (its key, as typed, in code) and what is
    # wrong there.
    return phrase("`{field}`: {problem}", field=where, problem=problem)


def validation_sentence(error: ValidationError) -> Said:
    """Pydantic's validation errors as one sentence a player can read: "field: problem; ..."
    (the fields as the JSON's keys, which a player types, never translated)."""
    problems = [_with_field(detail) for detail in error.errors()]
    # Translators: two problems of a pasted or typed value, one after the other.
    return chained(problems, lambda first, rest: phrase("{first}; {rest}", first=first,
                                                        rest=rest))
