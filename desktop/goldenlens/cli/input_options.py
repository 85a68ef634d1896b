"""The command line's input options (``--map``, ``--golden-sheet``, ``--responses-sheet``,
``--header-row``, ``--responses-header-row``): added to a command's parser, read back as one
:class:`~goldenlens.core.input_selection.InputSelection`."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from goldenlens.cli.output import counting_number
from goldenlens.core.input_selection import InputSelection
from goldenlens.core.problems import InputError


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """The options that choose the sheets, the columns and the header rows of both inputs."""
    parser.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="FIELD=COLUMN",
        help="use COLUMN for FIELD (id, question, answer, fact, notes, question_id, pipeline, response, "
        "contexts); repeatable; applies to whichever input has that column",
    )
    parser.add_argument(
        "--golden-sheet", metavar="NAME", help="sheet of the golden set (default: first that maps)"
    )
    parser.add_argument(
        "--responses-sheet", metavar="NAME", help="sheet of the responses (default: first that maps)"
    )
    parser.add_argument(
        "--header-row",
        type=counting_number("a row number"),
        metavar="N",
        help="row N (as Excel numbers it) is the header of both inputs (default: the first of the first "
        "20 rows that names a known column)",
    )
    parser.add_argument(
        "--responses-header-row",
        type=counting_number("a row number"),
        metavar="N",
        help="the header row of the responses when it differs from --header-row",
    )


def input_selection(args: argparse.Namespace) -> InputSelection:
    """The input options of ``args`` (those a command does not take read as not given); a
    malformed ``--map`` pair raises :class:`~goldenlens.core.problems.InputError`."""
    return InputSelection(
        golden_sheet=getattr(args, "golden_sheet", None),
        responses_sheet=getattr(args, "responses_sheet", None),
        mapping=parse_mapping(getattr(args, "map", [])),
        header_row=getattr(args, "header_row", None),
        responses_header_row=getattr(args, "responses_header_row", None),
    )


def parse_pairs(pairs: Iterable[str], option: str, form: str) -> list[tuple[str, str]]:
    """Arguments ``KEY=VALUE`` of ``option`` as stripped ``(key, value)`` pairs; one with no ``=``,
    no key or no value is bad input naming the option and the ``form`` it takes."""
    parsed = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError.fatal(option, f"expected {form}, got '{pair}'")
        parsed.append((key.strip(), value.strip()))
    return parsed


def parse_mapping(pairs: Iterable[str]) -> dict[str, str]:
    """``["fact=Key fact", ...]`` → ``{"fact": "Key fact"}``; a malformed pair is bad input."""
    return {field.lower(): column for field, column in parse_pairs(pairs, "--map", "FIELD=COLUMN")}
