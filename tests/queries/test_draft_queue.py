"""The drafts review queue as the desktop app reads it, and its decisions through
``jobs.drafting.draft_review`` on the same open project."""

from __future__ import annotations

from pathlib import Path

from tests.jobs.drafting import CHUNKS, GOOD, SALES, good_reply
from tests.judge.scripted import ScriptedEngine

from goldenlens.core.golden.drafts import DraftStatus, DraftText
from goldenlens.jobs import open_project
from goldenlens.jobs.drafting import draft_review
from goldenlens.jobs.drafting.draft_job import DraftOptions, draft_chunks
from goldenlens.queries.project import ProjectQueries


def test_the_queue_lists_drafts_with_status_and_provenance(tmp_path: Path) -> None:
    with open_project(tmp_path / "p.goldenlens", create=True) as handle:
        project = ProjectQueries(handle)
        draft_chunks(handle, CHUNKS, DraftOptions(), engine=ScriptedEngine(responder=good_reply))
        queue = project.draft_queue()
        assert queue.progress() == "0 of 3 reviewed"
        assert [(d.id, d.provenance(), d.status) for d in queue.drafts] == [
            (1, "report.pdf, page 1, chunk p1-1", DraftStatus.PENDING),
            (2, "report.pdf, page 1, chunk p1-2", DraftStatus.PENDING),
            (3, "report.pdf, page 2, chunk p2-1", DraftStatus.PENDING),
        ]

        edit = DraftText("What were Amazon's Q2 2023 net sales?", GOOD[SALES][2], GOOD[SALES][1])
        accepted = draft_review.accept_draft(handle, 1, reviewer="ann", edit=edit)
        draft_review.reject_draft(handle, 2, reviewer="ann", note="duplicate")

        queue = project.draft_queue()
        assert queue.progress() == "2 of 3 reviewed"
        assert [(d.id, d.status, d.golden_id) for d in queue.drafts] == [
            (1, DraftStatus.ACCEPTED, "draft-1"),
            (2, DraftStatus.REJECTED, None),
            (3, DraftStatus.PENDING, None),
        ]
        assert [d.id for d in project.draft_queue(DraftStatus.PENDING).drafts] == [3]
        data = project.draft_queue(DraftStatus.REJECTED).as_dict()
        assert data["counts"] == {"pending": 1, "accepted": 1, "rejected": 1}
        (row,) = data["drafts"]
        assert (row["provenance"], row["note"], row["chunk_id"], row["page"]) == (
            "report.pdf, page 1, chunk p1-2", "duplicate", "p1-2", 1
        )  # fmt: skip

        assert project.golden_item("draft-1") == accepted.item
        origin = project.draft_provenance("draft-1")
        assert origin is not None
        assert (origin.document, origin.page, origin.chunk_id) == ("report.pdf", 1, "p1-1")
        assert project.draft_provenance("q-unknown") is None
        assert project.draft(3) is not None
        assert project.draft(4) is None
