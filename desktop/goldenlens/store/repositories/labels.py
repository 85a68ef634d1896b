"""The labels repository (``store.labels``): reviewers' verdicts on responses (append-only, the
latest record of a response in force) and the rounds of labelling plans GoldenLens drew.

A label record keeps the answer key and the golden item's version key it was given on, so a
later edit of either makes it stale instead of silently carrying it over. A round keeps exactly
what its estimator reads back: every response that was in its frame (no verdict when it was
planned) with its unit and stratum, and the plan position of each sampled unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goldenlens.core.calibration.labels import (
    LabelKind,
    LabelledResponses,
    LabelRecord,
    LabelTarget,
    Verdict,
    labelled_responses,
)
from goldenlens.store.base import RecordRows, Repository
from goldenlens.store.keys import item_keys, name_keys
from goldenlens.store.values import utc_now

_TARGETS = (
    "SELECT r.question_id, r.pipeline, r.response, g.question, g.answer, g.fact FROM responses AS r"
    " JOIN golden_items AS g ON g.id = r.question_id JOIN pipelines AS p ON p.name = r.pipeline"
)


@dataclass(frozen=True)
class StoredRound:
    """A labelling round as written: its settings and its frame."""

    run_id: int | None
    mode: str
    seed: int
    budget: int
    #: SHA-256 of every response the round was planned on (question, pipeline, answer key).
    population: str
    strata: int
    #: Per frame response: ``(question_id, pipeline, unit, stratum, position)``; ``position``
    #: is the sampled unit's place in the plan (``None``: not sampled).
    frame: Sequence[tuple[str, str, int, int, int | None]]


@dataclass(frozen=True)
class RoundInfo:
    """A stored labelling round (without its frame)."""

    id: int
    run_id: int | None
    mode: str
    seed: int
    budget: int
    population: str
    units: int
    sampled: int
    strata: int
    created_at: str


_LABELS = RecordRows(
    LabelRecord,
    (
        "id",
        "question_id",
        "pipeline",
        "kind",
        "verdict",
        "answer_key",
        "golden_key",
        "reviewer",
        "note",
        "created_at",
        "source",
    ),
    convert={"kind": LabelKind, "verdict": Verdict},
)


class LabelRepository(Repository):
    """Labels and labelling rounds: ``store.labels`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    def add(self, labels: Sequence[LabelRecord], *, what: str = "save the labels") -> list[int]:
        """Write ``labels`` in one transaction (all or none) and return their ids in order (the
        store gives each its id and time)."""
        now = utc_now()
        ids: list[int] = []
        with self._write(what) as conn:
            for label in labels:
                cursor = conn.execute(
                    "INSERT INTO labels (question_id, pipeline, kind, verdict, answer_key, golden_key,"
                    " reviewer, note, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        label.question_id,
                        label.pipeline,
                        label.kind.value,
                        None if label.verdict is None else label.verdict.value,
                        label.answer_key,
                        label.golden_key,
                        label.reviewer,
                        label.note,
                        label.source,
                        now,
                    ),
                )
                ids.append(self._inserted_id(cursor))
        return ids

    def records(self, question_id: str | None = None) -> list[LabelRecord]:
        """Every label record (of one question), oldest first."""
        if question_id is None:
            rows = self._fetch(f"SELECT {_LABELS.select('labels')} FROM labels ORDER BY id")  # noqa: S608
        else:
            rows = self._fetch(
                f"SELECT {_LABELS.select('labels')} FROM labels WHERE question_id = ? ORDER BY id",  # noqa: S608
                [question_id],
            )
        return _LABELS.records(rows)

    def targets(self, question_id: str | None = None) -> list[LabelTarget]:
        """What a label is given on: every response (of one question) with its golden item's
        texts, in golden then pipeline order."""
        if question_id is None:
            rows = self._fetch(_TARGETS + " ORDER BY g.position, p.position")
        else:
            rows = self._fetch(_TARGETS + " WHERE r.question_id = ? ORDER BY p.position", [question_id])
        return [LabelTarget(*row) for row in rows]

    def in_force(self, question_id: str | None = None) -> LabelledResponses:
        """Every response (of one question) with the verdict in force on it: an index look-up per
        question, so a label in the app costs what its question holds."""
        return labelled_responses(self.targets(question_id), self.records(question_id))

    def sample(self, round_id: int) -> list[tuple[str, str, int]]:
        """A round's sampled responses in plan order: ``(question_id, pipeline, position)``."""
        rows = self._fetch(
            "SELECT i.question_id, p.name, f.position FROM label_round_frame AS f"
            " JOIN item_keys AS i ON i.key = f.item JOIN pipeline_keys AS p ON p.key = f.pipeline"
            " WHERE f.round_id = ? AND f.position IS NOT NULL ORDER BY f.position, i.key, p.key",
            [round_id],
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def count(self) -> int:
        """How many label records there are (every kind)."""
        row = self._fetch_one("SELECT COUNT(*) FROM labels")
        return int(row[0]) if row else 0

    def add_round(self, stored: StoredRound, *, replacing: Sequence[int] = ()) -> int:
        """Write a labelling round and its frame in one transaction; its id. ``replacing``:
        rounds forgotten in the same transaction (the round drawn anew in their place)."""
        units = len({unit for _q, _p, unit, _s, _pos in stored.frame})
        sampled = len({unit for _q, _p, unit, _s, position in stored.frame if position is not None})
        with self._write("save the labelling plan") as conn:
            for old in replacing:
                conn.execute("DELETE FROM label_round_frame WHERE round_id = ?", (old,))
                conn.execute("DELETE FROM label_rounds WHERE id = ?", (old,))
            cursor = conn.execute(
                "INSERT INTO label_rounds (run_id, mode, seed, budget, population, units, sampled, strata,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    stored.run_id,
                    stored.mode,
                    stored.seed,
                    stored.budget,
                    stored.population,
                    units,
                    sampled,
                    stored.strata,
                    utc_now(),
                ),
            )
            round_id = self._inserted_id(cursor)
            items = item_keys(conn, (q for q, *_rest in stored.frame), where="save the labelling plan")
            pipelines = name_keys(conn, "pipeline_keys", (p for _q, p, *_rest in stored.frame), add=True)
            conn.executemany(
                "INSERT INTO label_round_frame (round_id, item, pipeline, unit, stratum, position)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    (round_id, items[q], pipelines[p], unit, stratum, position)
                    for q, p, unit, stratum, position in stored.frame
                ),
            )
        return round_id

    def rounds(self) -> list[RoundInfo]:
        """Every labelling round, oldest first."""
        rows = self._fetch(
            "SELECT id, run_id, mode, seed, budget, population, units, sampled, strata, created_at"
            " FROM label_rounds ORDER BY id"
        )
        return [RoundInfo(*row) for row in rows]

    def round_frame(self, round_id: int) -> list[tuple[str, str, int, int, int | None]]:
        """A round's frame: ``(question_id, pipeline, unit, stratum, position)`` per response."""
        rows = self._fetch(
            "SELECT i.question_id, p.name, f.unit, f.stratum, f.position FROM label_round_frame AS f"
            " JOIN item_keys AS i ON i.key = f.item JOIN pipeline_keys AS p ON p.key = f.pipeline"
            " WHERE f.round_id = ? ORDER BY f.unit, i.key, p.key",
            [round_id],
        )
        return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]
