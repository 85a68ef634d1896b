"""The score grid's column widths as the settings keep them: by column key, so a width follows
its column when metrics or pipelines come and go."""

from __future__ import annotations

import json

_WIDTHS_VERSION = 1


def encode_widths(widths: dict[str, int]) -> bytes:
    """Column widths by column key, as saved in the settings (:func:`decode_widths`)."""
    return json.dumps({"version": _WIDTHS_VERSION, "widths": widths}).encode()


def decode_widths(state: bytes) -> dict[str, int] | None:
    """Widths saved by :func:`encode_widths`; ``None`` when unreadable or of another version."""
    try:
        saved = json.loads(bytes(state).decode())
        widths = {str(k): int(v) for k, v in saved["widths"].items() if int(v) > 0}
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return widths if saved.get("version") == _WIDTHS_VERSION else None
