"""What the project commands print: fixed-width tables, and their data as JSON on stdout or
in a file written whole or not at all."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from goldenlens.io.atomic_files import write_atomically


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A left-aligned table: the header, a rule under it, one line per row (trailing blanks cut)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("-" * len(lines[0]))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return lines


def json_text(data: dict[str, Any]) -> str:
    """``data`` as the commands write JSON: indented, non-ASCII kept, a final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def emit(args: argparse.Namespace, data: dict[str, Any], text: str, what: str) -> None:
    """Write ``data`` as JSON to ``-o FILE`` (saying ``Wrote {what} to FILE`` on stderr), or
    print it with ``--json``, or else print ``text``."""
    out: Path | None = args.output
    if out is not None:

        def write(path: Path) -> None:
            path.write_text(json_text(data), encoding="utf-8")

        write_atomically(out, write)
        print(f"Wrote {what} to {out}", file=sys.stderr)
    elif args.json:
        sys.stdout.write(json_text(data))
    else:
        print(text)
