"""A small JSON Schema checker for the subset of keywords judge schemas use.

Grammar-constrained output from llama.cpp always follows the schema, but an OpenAI-compatible
server may ignore it, and recovered fields of a truncated reply need checking too. Supported:
``type`` (one name or a list), ``enum``, ``const``, ``properties``, ``required``,
``additionalProperties: false``, ``items``, ``minItems``/``maxItems``,
``minLength``/``maxLength`` and ``minimum``/``maximum``. Other keywords are ignored, so a
schema using them is checked less strictly, never rejected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["schema_errors"]

_TYPE_CHECKS: dict[str, type | tuple[type, ...]] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _has_type(value: Any, name: str) -> bool:
    # bool is an int in Python but not a JSON number.
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    expected = _TYPE_CHECKS.get(name)
    return expected is None or isinstance(value, expected)


def _same_json(left: Any, right: Any) -> bool:
    # 1 == True in Python; JSON keeps them apart.
    if _has_type(left, "number") and _has_type(right, "number"):
        return bool(left == right)
    return type(left) is type(right) and bool(left == right)


def schema_errors(value: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (within the supported subset); empty when valid."""
    errors: list[str] = []
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        if not any(_has_type(value, name) for name in names):
            return [f"{path}: expected {' or '.join(names)}, got {type(value).__name__}"]
    if "enum" in schema and not any(_same_json(value, option) for option in schema["enum"]):
        errors.append(f"{path}: {value!r} is not one of {schema['enum']!r}")
    if "const" in schema and not _same_json(value, schema["const"]):
        errors.append(f"{path}: {value!r} is not {schema['const']!r}")
    if isinstance(value, str):
        errors.extend(_string_errors(value, schema, path))
    elif _has_type(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} is above the maximum {schema['maximum']}")
    elif isinstance(value, list):
        errors.extend(_array_errors(value, schema, path))
    elif isinstance(value, dict):
        errors.extend(_object_errors(value, schema, path))
    return errors


def _string_errors(value: str, schema: Mapping[str, Any], path: str) -> list[str]:
    errors = []
    if "minLength" in schema and len(value) < schema["minLength"]:
        errors.append(f"{path}: shorter than {schema['minLength']} characters")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        errors.append(f"{path}: longer than {schema['maxLength']} characters")
    return errors


def _array_errors(value: list[Any], schema: Mapping[str, Any], path: str) -> list[str]:
    errors = []
    if "minItems" in schema and len(value) < schema["minItems"]:
        errors.append(f"{path}: fewer than {schema['minItems']} items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append(f"{path}: more than {schema['maxItems']} items")
    items = schema.get("items")
    if isinstance(items, Mapping):
        for index, item in enumerate(value):
            errors.extend(schema_errors(item, items, f"{path}[{index}]"))
    return errors


def _object_errors(value: dict[str, Any], schema: Mapping[str, Any], path: str) -> list[str]:
    properties: Mapping[str, Any] = schema.get("properties", {})
    errors = [
        f"{path}: missing required field {name!r}" for name in schema.get("required", ()) if name not in value
    ]
    for name, item in value.items():
        if name in properties:
            errors.extend(schema_errors(item, properties[name], f"{path}.{name}"))
        elif schema.get("additionalProperties") is False:
            errors.append(f"{path}: unexpected field {name!r}")
    return errors


def trim_to_max_items(value: Any, schema: Mapping[str, Any]) -> Any:
    """``value`` with every array cut to its schema's ``maxItems`` (the first items kept).

    A server that ignores the schema's bounds returns more statements than asked for, where
    llama.cpp's grammar stops at the bound; cutting the list makes both engines give the same
    capped list (which the metric then reports as a cap reached)."""
    kind = schema.get("type")
    if kind == "array" and isinstance(value, list):
        items = schema.get("items", {})
        limit = schema.get("maxItems")
        kept = value if limit is None else value[: int(limit)]
        return [trim_to_max_items(item, items) for item in kept]
    if kind == "object" and isinstance(value, dict):
        properties: Mapping[str, Mapping[str, Any]] = schema.get("properties", {})
        return {k: trim_to_max_items(v, properties[k]) if k in properties else v for k, v in value.items()}
    return value
