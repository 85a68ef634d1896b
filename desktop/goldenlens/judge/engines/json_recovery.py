"""Recover the complete leading fields of a JSON object that was cut off at ``max_tokens``.

A judge reply that hit ``max_tokens`` ends mid-value: ``{"verdict": 1, "reason": "1.1.1.1``.
The fields before the cut are whole and can be used if they include every field the schema
requires; the cut field is dropped, never completed or guessed. Only the top-level object is
recovered: a nested object or array counts only when it is closed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from goldenlens.judge.engines.schema_check import schema_errors

__all__ = ["recover_json"]

_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\n\r"


def _skip_whitespace(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WHITESPACE:
        pos += 1
    return pos


def _number_is_final(literal: str, value: Any, schema: Mapping[str, Any]) -> bool:
    """Whether a number that ends the text cannot go on (``1`` might be the start of ``10``).

    Only the schema can tell: the literal is final when it spells one allowed value of an
    ``enum``/``const`` and no other allowed value starts with it, or when it is a non-negative
    ``integer`` whose next digit would pass the ``maximum``.
    """
    options: list[Any] | None = None
    if "const" in schema:
        options = [schema["const"]]
    elif "enum" in schema:
        options = list(schema["enum"])
    if options is not None:
        spelled = [json.dumps(option) for option in options]
        return literal in spelled and not any(
            other != literal and other.startswith(literal) for other in spelled
        )
    maximum = schema.get("maximum")
    return (
        schema.get("type") == "integer"
        and isinstance(value, int)
        and isinstance(maximum, int | float)
        and literal.isdigit()
        and value * 10 > maximum
    )


def _next_field(text: str, pos: int) -> tuple[str, Any, int, int] | None:
    """The key, value, value start and value end of the field at ``pos``; None if cut short."""
    try:
        key, pos = _DECODER.raw_decode(text, _skip_whitespace(text, pos))
        pos = _skip_whitespace(text, pos)
        if not isinstance(key, str) or not text.startswith(":", pos):
            return None
        start = _skip_whitespace(text, pos + 1)
        value, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    return key, value, start, end


def _leading_fields(text: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """The key/value pairs of the top-level object that are complete in ``text``."""
    fields: dict[str, Any] = {}
    pos = _skip_whitespace(text, 0)
    if not text.startswith("{", pos):
        return fields
    pos += 1
    while (found := _next_field(text, pos)) is not None:
        key, value, start, end = found
        after = _skip_whitespace(text, end)
        if after == len(text):
            # The text stops right after the value: strings, arrays, objects and literals are
            # closed by their last character, a number may still have had digits to come.
            literal = text[start:end]
            is_number = not literal.startswith(('"', "[", "{", "t", "f", "n"))
            if not is_number or _number_is_final(literal, value, properties.get(key, {})):
                fields[key] = value
            break
        if text[after] not in ",}":
            break
        fields[key] = value
        if text[after] == "}":
            break
        pos = after + 1
    return fields


def recover_json(text: str, schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """The complete leading fields of a truncated JSON object, or None.

    Returns the fields when every field in ``schema["required"]`` is among them and each
    recovered value satisfies its property's schema; otherwise None. A field cut short is left
    out, never completed: ``{"verdict": 1, "reason": "1.1.`` gives ``{"verdict": 1}`` when
    only ``verdict`` is required and None when ``reason`` is required too. A complete object
    is returned whole.
    """
    if schema.get("type", "object") != "object":
        return None
    properties: Mapping[str, Any] = schema.get("properties", {})
    fields = _leading_fields(text, properties)
    if not fields or any(name not in fields for name in schema.get("required", ())):
        return None
    for name, value in fields.items():
        if name in properties:
            if schema_errors(value, properties[name], f"$.{name}"):
                return None
        elif schema.get("additionalProperties") is False:
            return None
    return fields
