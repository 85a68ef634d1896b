"""``goldenlens versions`` and ``goldenlens diff``: the golden set's versions and what changed.

A thin front end over :mod:`goldenlens.jobs.curation.golden_versions` (the rules that make a version
are in :mod:`goldenlens.core.golden.versions`). Output is a table on stdout, or JSON with
``--json`` (stdout) or ``-o FILE.json`` (written whole or not at all). A version is named by
its number (``3``, ``v3``), its name, ``latest``, or ``0`` (the empty set before the first
import). Bad input — an unknown version, a name that reads as a number or that another version
has — is one line on stderr naming the project, exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from goldenlens.cli.command_output import emit, table_lines
from goldenlens.cli.output import check_json_output
from goldenlens.cli.project_argument import add_project_argument
from goldenlens.core.problems import InputError

if TYPE_CHECKING:  # the jobs (and the store behind them) load only when a command runs
    from goldenlens.jobs.curation.golden_versions import RunVersion, VersionDiff, VersionList


def add_version_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``versions`` and ``diff`` sub-commands (run by :func:`cmd_versions`, :func:`cmd_diff`)."""
    versions = sub.add_parser(
        "versions",
        help="list the golden set's versions (every import and editing session makes one); --name names one",
    )
    add_project_argument(versions)
    versions.add_argument("--name", metavar="NAME", help="give the current version (or --version) this name")
    versions.add_argument(
        "--version",
        dest="version_ref",
        default="latest",
        metavar="REF",
        help="the version --name names: a number, v3, a name, or latest (default)",
    )
    _add_output(versions)

    diff = sub.add_parser(
        "diff", help="what changed between two golden-set versions: rows added, removed, edited"
    )
    add_project_argument(diff)
    diff.add_argument(
        "old", metavar="A", help="the older version: a number, v3, a name, latest, or 0 (empty)"
    )
    diff.add_argument("new", metavar="B", help="the newer version (same forms)")
    _add_output(diff)


def _add_output(parser: argparse.ArgumentParser) -> None:
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON instead of the table")
    output.add_argument("-o", "--output", type=Path, metavar="FILE.json", help="write JSON to FILE.json")


def cmd_versions(args: argparse.Namespace) -> int:
    """``goldenlens versions``: name a version (``--name``), then list them all."""
    check_json_output(args.output, "output file")
    from goldenlens.jobs import open_project
    from goldenlens.jobs.curation.golden_versions import list_versions, name_version

    with open_project(args.project) as project:
        if args.name is not None:
            try:
                named = name_version(project, args.name, args.version_ref)
            except ValueError as error:  # UnknownVersionError is one
                raise InputError.fatal(args.project.name, str(error)) from None
            print(f"Named {named.label}", file=sys.stderr)
        listed = list_versions(project)
    data = {"project": str(args.project), **listed.as_dict()}
    emit(args, data, format_versions(listed), f"{len(listed.versions)} versions")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    """``goldenlens diff``: rows added, removed and changed from version A to version B."""
    check_json_output(args.output, "output file")
    from goldenlens.core.golden.versions import UnknownVersionError
    from goldenlens.jobs import open_project
    from goldenlens.jobs.curation.golden_versions import diff_versions

    with open_project(args.project) as project:
        try:
            diff = diff_versions(project, args.old, args.new)
        except UnknownVersionError as error:
            raise InputError.fatal(args.project.name, str(error)) from None
    data = {"project": str(args.project), **diff.as_dict()}
    emit(args, data, format_diff(diff), f"the diff ({diff.diff.summary()})")
    return 0


def format_versions(listed: VersionList) -> str:
    """The versions as a table: number, name, when, who, rows, changes, runs that scored it."""
    from goldenlens.core.golden.versions import short_time

    if not listed.versions:
        return "No golden-set versions yet: import a golden set first."
    rows = [
        [
            f"v{v.number}",
            v.name or "-",
            short_time(v.ended_at),
            v.who,
            str(v.rows),
            str(v.changes),
            ", ".join(_run_text(run) for run in listed.runs_of(v.number)) or "-",
        ]
        for v in listed.versions
    ]
    current = listed.versions[-1]
    lines = [f"Golden-set versions: {len(listed.versions)} (current: {current.label})"]
    lines += table_lines(["version", "name", "when", "who", "rows", "changes", "runs"], rows)
    return "\n".join(lines)


def _run_text(run: RunVersion) -> str:
    """``3``, or ``3 (from v1)`` for a run that edits re-scored in place since it started."""
    moved = run.rescored_version is not None and run.rescored_version != run.version
    return f"{run.run_id} (from v{run.version})" if moved else str(run.run_id)


def _indent(text: str, mark: str) -> list[str]:
    """A field's text under a ``-``/``+`` mark; continuation lines keep their indent."""
    first, *rest = text.split("\n") if text else ["(empty)"]
    return [f"    {mark} {first}", *(f"      {line}" for line in rest)]


def format_diff(diff: VersionDiff) -> str:
    """Added and removed rows by id and question, then each changed field before (-) and after (+)."""
    body = diff.diff
    lines = [f"{diff.old_label} -> {diff.new_label}: {body.summary()}"]
    if body.added:
        lines.append(f"\nadded ({len(body.added)}):")
        lines += [f"  {item.id}  {item.question}" for item in body.added]
    if body.removed:
        lines.append(f"\nremoved ({len(body.removed)}):")
        lines += [f"  {item.id}  {item.question}" for item in body.removed]
    if body.changed:
        lines.append(f"\nchanged ({len(body.changed)}):")
        for row in body.changed:
            for change in row.changes:
                lines.append(f"  {row.question_id}  {change.field}")
                lines += _indent(change.before, "-")
                lines += _indent(change.after, "+")
    return "\n".join(lines)
