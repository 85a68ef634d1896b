"""A golden-set table (already read as text) → :class:`GoldenSet` plus problems.

Rules: the question is required (an empty one drops the row); an empty fact or fact part is
an error that keeps the row, whose Factual Knowledge is then not scored; ids are stripped of
surrounding spaces and must be unique ignoring case (responses are joined case-insensitively,
so ``Q01`` and ``q01`` would be ambiguous); without an id column the analyst's own numbering
is the id (a ``#``, ``No.`` … column of distinct whole numbers), else each question gets
``row-<Excel row>``. Every other cell is kept verbatim: scoring depends on exact whitespace.
The row's other columns (a category, an owner …) are kept as :attr:`GoldenItem.extra`, so
they survive to the golden-set export.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

from goldenlens.core.bulk_records import bulk_records
from goldenlens.core.inputs import GoldenItem, GoldenSet
from goldenlens.core.lexical.factual_knowledge import AND, OR, fact_not_scored_reason, quasi_not_scored_reason
from goldenlens.core.lexical.normalise import normalise
from goldenlens.core.problems import InputError, Problem, Severity
from goldenlens.io.importing.columns import GOLDEN_SYNONYMS, ColumnMap, column_key, detect_response_layout
from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.visible_text import ODD_SPACES, visible

MISSING_ID_PREFIX = "row-"
# What an empty cell of a row means: the row is skipped (question, id) or kept (answer).
_EMPTY_QUESTION = "the question is empty; the row is skipped."
_EMPTY_ID = "the id is empty; the row is skipped (every question needs an id)."
_EMPTY_ANSWER = "the answer is empty; answer-based metrics will not be meaningful for this question."
#: Columns the golden-set export writes from the project's review decisions: read back, they are
#: not the analyst's own (the next export writes them afresh).
_EXPORTED_REVIEW_COLUMNS = frozenset({"reviewstatus", "reviewnote"})

#: A fact part that could strip or normalise to nothing, found from the start of the fact, a
#: NUL or an operator up to the next (a NUL stands between facts joined into one text): one
#: made only of whitespace, ASCII punctuation and the articles (``a``, ``an``, ``the``, in any
#: case, with punctuation between their letters, which normalisation deletes). It may find more
#: than those (``thethe``, ``the<TAB>the``: whitespace other than the space splits no word), never
#: fewer: every other character keeps something through normalisation in a piece that is no
#: article (a test checks every code point). A fact it does not find has nothing to report;
#: only the facts it finds go through the full check.
_PUNCTUATION = f"[{re.escape(string.punctuation)}]"
_BOUNDARY = f"\\x00|{re.escape(OR)}|{re.escape(AND)}"
_MAYBE_HOLLOW_PART = re.compile(
    f"(?:\\A|{_BOUNDARY})"
    f"(?:\\s|{_PUNCTUATION}|[aA](?:{_PUNCTUATION}*[nN])?|[tT]{_PUNCTUATION}*[hH]{_PUNCTUATION}*[eE])*"
    f"(?=\\Z|{_BOUNDARY})"
)


def golden_from_table(table: RawTable, columns: ColumnMap) -> tuple[GoldenSet, list[Problem]]:
    """Build the golden set; problems include the table's own. Raises :class:`InputError`."""
    problems = list(table.problems)
    _check_columns(table, columns, problems)
    if columns.numbered_id:
        problems.append(
            table.problem(
                f"there is no id column ({_names('id')}); column '{columns.id}' numbers the questions "
                "(distinct whole numbers), so its numbers are their ids. Map another column as the id "
                "to use that instead.",
                Severity.INFO,
                column=columns.id,
            )
        )
    elif columns.id is None:
        problems.append(
            table.problem(
                f"there is no id column ({_names('id')}); each question gets the id "
                f"'{MISSING_ID_PREFIX}<row number>', so responses can only be matched by question text.",
                Severity.INFO,
            )
        )
    items = _items_at_once(table, columns)
    if items is None:
        items = _items_row_by_row(table, columns, problems)
    if not items:
        raise InputError(
            table.problem(f"{table.where()} has no usable rows: every row was skipped.", Severity.FATAL),
            tuple(problems),
        )
    return GoldenSet(tuple(items), source=table.file, sheet=table.sheet), problems


def _items_row_by_row(table: RawTable, columns: ColumnMap, problems: list[Problem]) -> list[GoldenItem]:
    """The golden items, row by row, adding each row's problems to ``problems`` in row order.
    Raises :class:`InputError` when an id repeats."""
    questions = table.values(columns.question) if columns.question else []
    ids = table.values(columns.id) if columns.id else None
    answers = table.values(columns.answer) if columns.answer else None
    facts = table.values(columns.fact) if columns.fact else None
    notes = table.values(columns.notes) if columns.notes else None

    extras = _extras(table, columns)
    kept: list[tuple[str, str, str, str, str, int, tuple[tuple[str, str], ...]]] = []  # made at once below
    first_row: dict[str, tuple[str, int]] = {}
    duplicates: list[Problem] = []
    any_unreadable = bool(table.unreadable)  # only workbooks have unreadable cells
    suspect_facts = _suspect_facts(facts) if facts is not None else set()
    for i, row in enumerate(table.row_numbers):
        if any_unreadable:
            unreadable = _unreadable_cells(table, columns, row)
            if unreadable is not None:
                problems.append(unreadable)
                continue
        if not questions[i].strip():
            problems.append(table.problem(_EMPTY_QUESTION, Severity.ERROR, row=row, column=columns.question))
            continue
        item_id = ids[i].strip() if ids is not None else f"{MISSING_ID_PREFIX}{row}"
        if not item_id:
            problems.append(table.problem(_EMPTY_ID, Severity.ERROR, row=row, column=columns.id))
            continue
        earlier = first_row.setdefault(item_id.casefold(), (item_id, row))
        if earlier[1] != row:
            duplicates.append(_repeated_id(table, columns, item_id, row, earlier))
            continue
        answer = answers[i] if answers is not None else ""
        fact = facts[i] if facts is not None else ""
        if answers is not None and not answer.strip():
            problems.append(table.problem(_EMPTY_ANSWER, Severity.WARNING, row=row, column=columns.answer))
        # An unreadable fact cell (an error value) was reported by the table already.
        if i in suspect_facts and not (any_unreadable and table.is_unreadable(row, columns.fact)):
            for message, severity in _fact_problems(fact):
                problems.append(table.problem(message, severity, row=row, column=columns.fact))
        kept.append((item_id, questions[i], answer, fact, notes[i] if notes else "", row, extras[i]))

    if duplicates:
        raise InputError(duplicates[0], (*duplicates[1:], *problems))
    return bulk_records(GoldenItem, *map(list, zip(*kept, strict=True))) if kept else []


def _items_at_once(table: RawTable, columns: ColumnMap) -> list[GoldenItem] | None:
    """The golden items of a table whose rows have nothing to report, made column by column;
    ``None`` when a row has (the row-by-row loop then reports it).

    Nothing to report: no unreadable cell, no empty question, id or answer, no id repeated
    (ignoring case) and no fact :func:`_suspect_facts` finds. The loop would then keep every
    row as it is, ids stripped, and report nothing."""
    count = len(table.rows)
    if table.unreadable or not count or columns.question is None:
        return None
    questions = table.values(columns.question)
    if not all(map(str.strip, questions)):
        return None
    numbers = list(table.row_numbers)
    if columns.id is None:
        ids = [f"{MISSING_ID_PREFIX}{row}" for row in numbers]
    else:
        ids = list(map(str.strip, table.values(columns.id)))
        if not all(ids) or len(set(map(str.casefold, ids))) != count:
            return None
    answers = table.values(columns.answer) if columns.answer else [""] * count
    if columns.answer and not all(map(str.strip, answers)):
        return None
    facts = table.values(columns.fact) if columns.fact else [""] * count
    if columns.fact and _suspect_facts(facts):
        return None
    notes = table.values(columns.notes) if columns.notes else [""] * count
    return bulk_records(GoldenItem, ids, questions, answers, facts, notes, numbers, _extras(table, columns))


def extra_columns(header: Sequence[str], columns: ColumnMap) -> list[str]:
    """The columns of ``header`` kept as each question's other columns: not a field's, not the
    golden-set export's review columns, each name once, in file order."""
    used = {name for name in columns.as_dict().values() if name}
    names: list[str] = []
    for name in header:
        review_column = column_key(name) in _EXPORTED_REVIEW_COLUMNS
        if name and name not in used and not review_column:
            used.add(name)  # each name once (a set: a sheet may have thousands of columns)
            names.append(name)
    return names


def _extras(table: RawTable, columns: ColumnMap) -> list[tuple[tuple[str, str], ...]]:
    """Each row's :func:`extra_columns`, ``(column, text)`` in file order, empty cells left out."""
    names = extra_columns(table.header, columns)
    if not names:
        return [()] * len(table.rows)
    cells = zip(*(table.values(name) for name in names), strict=True)
    return [
        tuple((name, text) for name, text in zip(names, row, strict=True) if text.strip()) for row in cells
    ]


def _suspect_facts(facts: Sequence[str]) -> set[int]:
    """The positions of the facts :func:`_fact_problems` may find a problem in: those with a
    part :data:`_MAYBE_HOLLOW_PART` matches, or text :data:`_UNLIKE_MEANT` finds (one search of
    all facts, each pattern, settles the usual file)."""
    joined = "\x00".join(facts)
    found: set[int] = set()
    if _MAYBE_HOLLOW_PART.search(joined) is not None:
        found.update(i for i, fact in enumerate(facts) if _MAYBE_HOLLOW_PART.search(fact) is not None)
    if _maybe_unlike_meant(joined):
        found.update(i for i, fact in enumerate(facts) if _maybe_unlike_meant(fact))
    return found


def _fact_problems(fact: str) -> list[tuple[str, Severity]]:
    """An empty fact or fact part is an error (its Factual Knowledge is not scored, where FMEval
    would score it 1.0); a part that only quasi-exact normalisation empties is a warning (the
    exact score stands); so is text FMEval takes literally that was hardly meant so
    (:func:`_unlike_meant`)."""
    found = _unlike_meant(fact)
    parts = [part.strip() for group in fact.split(OR) for part in group.split(AND)]
    if all(parts) and all(map(normalise, parts)):  # the usual fact: nothing else to report
        return found
    reason = fact_not_scored_reason(fact)
    if reason:
        return [
            (
                f"{reason}; Factual Knowledge (exact and quasi-exact) is not scored for this question "
                "until the fact is fixed.",
                Severity.ERROR,
            ),
            *found,
        ]
    reason = quasi_not_scored_reason(fact)
    if reason:
        message = f"{reason}; quasi-exact Factual Knowledge is not scored for this question."
        return [(message, Severity.WARNING), *found]
    return found


#: What a fact may hold that FMEval takes literally and the analyst hardly meant: a space-like
#: character that is no space (a no-break space, as Excel and web pages put into "134.4 billion"),
#: a delimiter in the wrong case or with spaces inside (``<or>``, ``< OR >``: no delimiter, so
#: the fact is one text), a space beside a delimiter (kept in the part it touches) and a space
#: at the fact's ends (a typing slip, or the padding of an accounting format: `` $1,234.50 ``).
_ODD_SPACE = re.compile(f"[{ODD_SPACES}]")
_LOOKALIKE = re.compile(r"<(?!OR>|AND>)\s*(?:[oO][rR]|[aA][nN][dD])\s*>")
_SPACED = re.compile(r"\s(?:<OR>|<AND>)|(?:<OR>|<AND>)\s")
_ENDS = re.compile(r"(?:\A|\x00)\s|\s(?:\x00|\Z)")  # a fact's ends, alone or joined by NULs
_UNLIKE_MEANT = re.compile(f"{_ODD_SPACE.pattern}|{_LOOKALIKE.pattern}|{_SPACED.pattern}|{_ENDS.pattern}")
#: A space beside a delimiter or beside the NUL that joins two facts (at a fact's end): with
#: the text's own ends, :data:`_SPACED` and :data:`_ENDS` in one search.
_SPACE_BESIDE = re.compile(r"\x00\s|\s\x00|\s<(?:OR|AND)>|<(?:OR|AND)>\s")


def _maybe_unlike_meant(text: str) -> bool:
    """Whether :data:`_UNLIKE_MEANT` finds something in ``text`` (facts joined by NULs, or one):
    two quick searches of an ASCII text where the one pattern took five times as long."""
    if not text.isascii():
        return _UNLIKE_MEANT.search(text) is not None  # odd spaces: not worth a shortcut
    if text[:1].isspace() or text[-1:].isspace():
        return True
    return _LOOKALIKE.search(text) is not None or _SPACE_BESIDE.search(text) is not None


def _unlike_meant(fact: str) -> list[tuple[str, Severity]]:
    """Warnings for what :data:`_UNLIKE_MEANT` finds in ``fact``: each counts in Factual
    Knowledge as FMEval scores it, so the fact is kept as it is and the analyst told."""
    shown = visible(fact)
    found: list[tuple[str, Severity]] = []
    odd = _ODD_SPACE.findall(fact)
    if odd:
        names = ", ".join(dict.fromkeys(visible(char) for char in odd))
        found.append(
            (
                f"the fact '{shown}' holds a space-like character that is not a space ({names}): "
                "a response with a plain space there does not contain the fact. Replace it with a "
                "space unless it is meant.",
                Severity.WARNING,
            )
        )
    lookalike = _LOOKALIKE.search(fact)
    if lookalike is not None:
        found.append(
            (
                f"'{lookalike.group()}' in the fact '{shown}' is not a delimiter: FMEval splits a fact "
                f"at '{OR}' and '{AND}' exactly (upper case, no spaces inside), so this fact is one text "
                "a response must hold whole. Write it so if alternatives or parts are meant.",
                Severity.WARNING,
            )
        )
    if fact.strip() and _ENDS.search(fact) is not None:
        found.append(
            (
                f"the fact '{shown}' begins or ends with a space: FMEval keeps it, so only a response "
                "with the space there contains the fact. A number format's padding (_( and _) of an "
                "accounting format) shows as such a space: format the cell as a plain number, or remove "
                "the space, unless it is meant.",
                Severity.WARNING,
            )
        )
    if _SPACED.search(fact) is not None:
        found.append(
            (
                f"the fact '{shown}' has a space beside '{OR}' or '{AND}': FMEval keeps it in the part "
                "it touches, so that part is found only with the space (' Seattle' is not in "
                "'Seattle, WA'). Remove the spaces unless they are meant.",
                Severity.WARNING,
            )
        )
    return found


def _repeated_id(
    table: RawTable, columns: ColumnMap, item_id: str, row: int, earlier: tuple[str, int]
) -> Problem:
    if earlier[0] == item_id:
        message = f"id '{visible(item_id)}' is used twice (rows {earlier[1]} and {row}); ids must be unique."
    else:
        message = (
            f"id '{visible(item_id)}' (row {row}) repeats id '{visible(earlier[0])}' (row {earlier[1]}): "
            "ids ignore case, so they must be unique regardless of case."
        )
    return table.problem(message, Severity.FATAL, row=row, column=columns.id)


def _unreadable_cells(table: RawTable, columns: ColumnMap, row: int) -> Problem | None:
    """The row-skipping problem of a row whose question, answer or id cell has no text."""
    unreadable = [c for c in (columns.question, columns.answer, columns.id) if table.is_unreadable(row, c)]
    if not unreadable:
        return None
    return table.problem(
        f"the {', '.join(repr(c) for c in unreadable)} cell has no readable text (see the error above); "
        "the row is skipped.",
        Severity.ERROR,
        row=row,
        column=unreadable[0],
    )


#: What names a column the synonyms do not: the mapping, on the command line or in the app.
_MAP_HINT = (
    " If one of them holds it, map it: --map {field}=COLUMN on the command line, the column "
    "mapping in the app's import."
)


def golden_column_problem(table: RawTable, columns: ColumnMap) -> Problem | None:
    """Why ``columns`` cannot make a golden set of ``table`` (a fatal problem), or ``None``."""
    found = ", ".join(table.header) or "(none)"
    if columns.question is None:
        layout = detect_response_layout(table.header)
        swapped = (
            " It holds a pipeline and a response column, as a responses file does: were the golden set "
            "and the responses given the other way round? The golden set comes first."
            if layout.layout == "long"
            else ""
        )
        return table.problem(
            f"{table.where()} has no question column (looked for {_names('question')}); "
            f"columns found: {found}.{swapped}{_taken_by_mapping(table, columns)}"
            + ("" if swapped else _MAP_HINT.format(field="question")),
            Severity.FATAL,
        )
    if columns.answer is None and columns.fact is None:
        return table.problem(
            f"{table.where()} has a question column but no answer column ({_names('answer')}) "
            f"and no fact column ({_names('fact')}); columns found: {found}."
            + _MAP_HINT.format(field="answer"),
            Severity.FATAL,
        )
    return None


def _taken_by_mapping(table: RawTable, columns: ColumnMap) -> str:
    """`` Column 'question' is mapped to answer …`` when the question's own column was given to
    another field by the mapping (``--map answer=question``), else ``""``."""
    names = {column_key(name) for name in GOLDEN_SYNONYMS["question"]}
    claimed = {
        getattr(columns, field): field for field in sorted(columns.mapped) if getattr(columns, field, None)
    }
    taken = [name for name in table.header if column_key(name) in names and name in claimed]
    if not taken:
        return ""
    name = taken[0]
    return (
        f" Column '{name}' is mapped to {claimed[name]}, so no column is left for the question: map "
        f"{claimed[name]} to another column."
    )


def _check_columns(table: RawTable, columns: ColumnMap, problems: list[Problem]) -> None:
    fatal = golden_column_problem(table, columns)
    if fatal is not None:
        raise InputError(fatal, tuple(problems))
    if columns.answer is None:
        problems.append(
            table.problem(
                f"there is no answer column ({_names('answer')}); answer-based metrics cannot be scored.",
                Severity.WARNING,
            )
        )
    if columns.fact is None:
        problems.append(
            table.problem(
                f"there is no fact column ({_names('fact')}); Factual Knowledge cannot be scored.",
                Severity.WARNING,
            )
        )


def _names(field: str) -> str:
    return ", ".join(f"'{name}'" for name in GOLDEN_SYNONYMS[field][:5])
