"""Benchmark: GoldenLens lexical scoring against the literal FMEval 1.2.3 port, row by row.

    python tests/bench/bench_lexical.py [--rows 100000] [--pipelines 50] [--seed 1234]

Generates ``--rows`` response rows deterministically (``random.Random(seed)``): golden items with
10-60 word answers (numbers with thousands separators, ``<OR>`` targets now and then) and facts
with ``<OR>`` variants (a few with ``<AND>``), each answered by ``--pipelines`` pipelines whose
responses copy, drop, reorder, re-case and pad the golden words, hallucinate the number, refuse or
say nothing. Every row is scored with all seven scores by

* the reference: ``tests/fmeval_reference.py``, one row at a time, as FMEval does;
* GoldenLens: one ``LexicalScorer`` for the run, ``score(..., with_alignment=False)``;
* GoldenLens with the alignment and fact spans (reported separately).

The three paths run interleaved, 1,000 rows at a time, so a busy machine slows them alike.
Both GoldenLens paths must give the reference's numbers exactly (``==``) for every row and score,
else the script prints the first differences and exits 1. The target is a speed-up of at least
5x for the no-alignment path; the script exits 2 if it is missed.

Not a pytest test (the name is ``bench_*.py``, outside pytest's ``test_*.py`` pattern).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
for _path in (TESTS.parent / "desktop", TESTS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import fmeval_reference as ref  # noqa: E402
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, LexicalScorer  # noqa: E402

TARGET_RATIO = 5.0

WORDS = (
    "amazon", "company", "total", "net", "sales", "revenue", "quarter", "second", "first", "third",
    "fourth", "year", "ended", "june", "july", "march", "september", "december", "operating", "income",
    "cash", "equivalents", "restricted", "shares", "common", "stock", "outstanding", "held", "class",
    "segment", "international", "north", "america", "aws", "services", "growth", "increase", "decrease",
    "compared", "with", "period", "prior", "million", "billion", "percent", "approximately", "acquired",
    "acquisition", "consideration", "office", "located", "principal", "executive", "officer",
    "president", "board", "directors", "report", "filing", "form", "quarterly", "annual", "results",
    "primarily", "due", "foreign", "exchange", "rates", "changes", "customers", "products",
    "fulfillment", "costs", "expenses", "investments", "rivian", "medical", "inventory", "advertising",
    "subscription", "stores", "physical", "third-party", "seller", "unit"
)  # fmt: skip
FILLER = (
    "the", "a", "an", "of", "in", "for", "and", "to", "as", "was", "were", "is", "are", "by", "on",
    "with", "at", "from", "its", "their", "this", "that"
)  # fmt: skip
OPENERS = (
    "Based on the documents provided,",
    "According to the report,",
    "The filing states that",
    "In summary,",
    "",
    "",
    "",
)
REFUSALS = (
    "Sorry, the provided context does not include that information.",
    "I don't know the answer based on the documents.",
    "The context does not mention this figure. Would you like to ask another question?",
)
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"
)  # fmt: skip


@dataclass(frozen=True)
class Item:
    answer: str
    fact: str


@dataclass(frozen=True)
class Row:
    response: str
    item: Item


def _number(rng: random.Random) -> tuple[str, list[str]]:
    """A quantity as written in a sentence, and the fact variants an analyst would list."""
    kind = rng.randrange(4)
    if kind == 0:  # big integer with thousands separators
        n = rng.randrange(10**6, 10**11)
        return f"{n:,}", [str(n), f"{n:,}"]
    if kind == 1:  # $134.4 billion / 134,383 million
        millions = rng.randrange(1_000, 200_000)
        billions = f"{millions / 1000:.1f}"
        return f"${billions} billion", [f"{billions} billion", f"{millions:,} million", f"{millions} million"]
    if kind == 2:  # a date
        month, day, year = rng.choice(MONTHS), rng.randrange(1, 29), rng.randrange(2015, 2025)
        return f"{month} {day}, {year}", [f"{month} {day}, {year}", f"{month[:3]} {day} {year}"]
    percent = rng.randrange(1, 99)
    return f"{percent}%", [f"{percent}%", f"{percent} percent"]


def _sentence(rng: random.Random, length: int) -> list[str]:
    return [rng.choice(FILLER) if rng.random() < 0.3 else rng.choice(WORDS) for _ in range(length)]


def make_item(rng: random.Random) -> Item:
    words = _sentence(rng, rng.randrange(10, 61))
    number, variants = _number(rng)
    words.insert(rng.randrange(len(words)), number)
    words[0] = words[0].capitalize()
    answer = " ".join(words) + "."
    if rng.random() < 0.1:  # alternative golden answers
        answer += "<OR>" + " ".join(_sentence(rng, rng.randrange(5, 20))) + f" {number}."
    if rng.random() < 0.05:
        fact = "<AND>".join(variants[:1] + rng.sample(words, 1))
    else:
        fact = "<OR>".join(rng.sample(variants, rng.randrange(1, len(variants) + 1)))
    return Item(answer, fact)


def make_response(rng: random.Random, item: Item) -> str:
    roll = rng.random()
    if roll < 0.01:
        return rng.choice(("", "   ", "\n"))
    if roll < 0.04:
        return rng.choice(REFUSALS)
    if roll < 0.06:
        return item.answer.split("<OR>")[0]  # word for word
    golden = item.answer.split("<OR>")[0].rstrip(".").split(" ")
    keep = rng.uniform(0.3, 1.0)
    words = [w for w in golden if rng.random() < keep]
    words += _sentence(rng, rng.randrange(0, 30))
    if rng.random() < 0.3:
        rng.shuffle(words)
    if rng.random() < 0.2:  # hallucinated number
        words.append(_number(rng)[0])
    if rng.random() < 0.2:
        words = [w.upper() if rng.random() < 0.1 else w for w in words]
    words = words[:60] or _sentence(rng, 10)
    separators = (" ",) * 30 + ("  ", "\n", " \n", "\t", ", ")
    text = "".join(w + rng.choice(separators) for w in words).strip()
    return f"{rng.choice(OPENERS)} {text}.".strip()


def generate(rows: int, pipelines: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    items = [make_item(rng) for _ in range(-(-rows // pipelines))]
    out = [Row(make_response(rng, item), item) for item in items for _ in range(pipelines)]
    return out[:rows]


Scores = tuple[float, ...]


def reference_scores(row: Row) -> Scores:
    scores = ref.all_scores(row.response, row.item.answer, row.item.fact)
    return tuple(scores[name] for name in LEXICAL_SCORE_NAMES)


def goldenlens_scores(scorer: LexicalScorer, row: Row, *, with_alignment: bool) -> Scores:
    result = scorer.score(row.response, row.item.answer, row.item.fact, with_alignment=with_alignment)
    return tuple(result.scores[name] for name in LEXICAL_SCORE_NAMES)


@dataclass
class Run:
    """One scoring path: its scores in row order and the seconds it spent."""

    score: Callable[[Row], Scores]
    scores: list[Scores] = field(default_factory=list)
    seconds: float = 0.0

    def chunk(self, rows: Sequence[Row]) -> None:
        score = self.score
        start = time.perf_counter()
        out = [score(row) for row in rows]
        self.seconds += time.perf_counter() - start
        self.scores.extend(out)


def run_all(rows: Sequence[Row], chunk: int = 1000) -> tuple[Run, Run, Run]:
    """Score every row three ways, interleaved by chunks so machine load hits all three alike.

    Each GoldenLens path keeps one scorer for the whole run, as the batch job does.
    """
    fast_scorer, full_scorer = LexicalScorer(), LexicalScorer()
    reference = Run(reference_scores)
    fast = Run(lambda row: goldenlens_scores(fast_scorer, row, with_alignment=False))
    full = Run(lambda row: goldenlens_scores(full_scorer, row, with_alignment=True))
    for start in range(0, len(rows), chunk):
        part = rows[start : start + chunk]
        for run in (reference, fast, full):
            run.chunk(part)
    return reference, fast, full


def differences(rows: Sequence[Row], expected: Sequence[Scores], got: Sequence[Scores]) -> list[str]:
    out = []
    for index, (row, e, g) in enumerate(zip(rows, expected, got, strict=True)):
        for name, a, b in zip(LEXICAL_SCORE_NAMES, e, g, strict=True):
            if a != b or type(a) is not type(b):
                out.append(f"row {index} {name}: reference {a!r}, goldenlens {b!r} ({row!r})")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--pipelines", type=int, default=50, help="responses per golden item")
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    rows = generate(args.rows, args.pipelines, args.seed)
    items = len({id(r.item) for r in rows})
    words = sum(len(r.response.split()) for r in rows) / max(len(rows), 1)
    print(
        f"generated {len(rows)} rows ({items} golden items x {args.pipelines} pipelines, "
        f"{words:.1f} words per response) in {time.perf_counter() - start:.1f} s"
    )

    reference, fast_run, full_run = run_all(rows)
    expected, fast, full = reference.scores, fast_run.scores, full_run.scores
    t_ref, t_fast, t_full = reference.seconds, fast_run.seconds, full_run.seconds
    print(f"reference (fmeval_reference, per row):     {t_ref:7.2f} s  {len(rows) / t_ref:10,.0f} rows/s")
    print(f"goldenlens (with_alignment=False):         {t_fast:7.2f} s  {len(rows) / t_fast:10,.0f} rows/s")
    print(f"goldenlens (with alignment + fact spans):  {t_full:7.2f} s  {len(rows) / t_full:10,.0f} rows/s")

    failed = False
    for label, got in (("with_alignment=False", fast), ("with alignment", full)):
        diffs = differences(rows, expected, got)
        if diffs:
            failed = True
            print(f"MISMATCH ({label}): {len(diffs)} scores differ from the reference", file=sys.stderr)
            for line in diffs[:10]:
                print("  " + line, file=sys.stderr)
    if not failed:
        print(
            f"identical: all {len(rows) * len(LEXICAL_SCORE_NAMES)} scores of both paths equal the reference"
        )

    ratio = t_ref / t_fast
    ok = ratio >= TARGET_RATIO
    print(f"with alignment: ratio {t_ref / t_full:.1f}x (reported only)")
    print(
        f"lexical: {len(rows)} rows, reference {t_ref:.1f} s, goldenlens {t_fast:.1f} s, "
        f"ratio {ratio:.1f}x (target >= {TARGET_RATIO:.0f}x) "
        + ("MISMATCH" if failed else "OK" if ok else "TOO SLOW")
    )
    if failed:
        return 1
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
