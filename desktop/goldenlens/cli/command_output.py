"""What the project commands print: fixed-width tables, and their data as JSON on stdout or
in a file written whole or not at all."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from goldenlens.cli.output import print_result


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A left-aligned table: the header, a rule under it, one line per row (trailing blanks cut)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("-" * len(lines[0]))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return lines


def emit(args: argparse.Namespace, data: dict[str, Any], text: str, what: str) -> None:
    """Write ``data`` as JSON to ``-o FILE`` (saying ``Wrote {what} to FILE`` on stderr), or
    print it with ``--json``, or else print ``text`` (:func:`~goldenlens.cli.output.print_result`
    of the command's ``-o`` and ``--json``)."""
    print_result(data, lambda: text, output=args.output, as_json=args.json, wrote=f"Wrote {what}")
