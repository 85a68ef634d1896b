"""The drafting job with a scripted judge: drafts with provenance into the review queue,
botched replies kept with their reasons, reruns from the cache, cancel and resume, the
limit, and the stop on engine errors. (The real default model: test_draft_model.py.)"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.jobs.drafting import CHUNKS, FX, GOOD, OFFICE, SALES, chunk, good_reply
from tests.judge.scripted import Reply, ScriptedEngine

from goldenlens.core.golden.drafts import DraftStatus, DraftText, ProblemCode
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.runs.run_kinds import DRAFT_RUN
from goldenlens.core.variants.generator import suggest_variants
from goldenlens.io.importing.sample import sample_dir
from goldenlens.io.importing.source_documents import read_source
from goldenlens.jobs.drafting.draft_job import DraftOptions, DraftRunError, draft_chunks
from goldenlens.jobs.progress import Cancelled, CancelToken, Progress
from goldenlens.judge.engines.protocol import ChatMessage, JudgeReply
from goldenlens.store.project import ProjectStore


@pytest.fixture
def store(tmp_path: Path) -> ProjectStore:
    opened = ProjectStore.open(tmp_path / "p.goldenlens", create=True)
    yield opened  # type: ignore[misc]
    opened.close()


def test_drafts_enter_the_queue_with_provenance_and_variants(store: ProjectStore) -> None:
    engine = ScriptedEngine(responder=good_reply)
    seen: list[Progress] = []
    result = draft_chunks(store, CHUNKS, DraftOptions(), engine=engine, progress=seen.append)
    assert len(engine.calls) == 3
    assert len(result.draft_ids) == 3
    assert (result.already_drafted, result.left) == (0, 0)
    drafts = store.drafts.all()
    assert [(d.document, d.page, d.chunk_id, d.status) for d in drafts] == [
        ("report.pdf", 1, "p1-1", DraftStatus.PENDING),
        ("report.pdf", 1, "p1-2", DraftStatus.PENDING),
        ("report.pdf", 2, "p2-1", DraftStatus.PENDING),
    ]
    first = drafts[0]
    assert first.text == DraftText(GOOD[SALES][0], GOOD[SALES][2], GOOD[SALES][1])
    assert first.chunk_text == SALES
    assert first.problems == ()
    assert first.provenance() == "report.pdf, page 1, chunk p1-1"
    # The variants are the deterministic generator's, not the model's.
    assert [v["text"] for v in first.variants] == [
        v.text for v in suggest_variants("$134,383 million").variants
    ]
    assert "$134.383 billion" in [v["text"] for v in first.variants]
    assert first.detail["model_sha256"] == engine.model_sha256
    assert first.detail["prompt_version"] == "draft-1"
    # The guardrail is in the instructions; the chunk comes last.
    assert "At most 40 words" in engine.calls[0].messages[0]["content"]
    assert engine.calls[0].row == f"Passage:\n{SALES}"
    # Nothing enters the golden set without acceptance.
    assert store.golden.items() == []
    run = store.runs.get(result.run_id)
    assert run is not None
    assert (run.kind, run.status) == (DRAFT_RUN, "finished")
    assert seen[-1] == Progress("draft", 3, 3, "drafted 3/3 chunks")


@pytest.mark.parametrize(
    ("reply", "codes", "fields"),
    [
        ("I think the question is about sales.", [ProblemCode.NO_REPLY], ("", "", "")),
        # Cut off before the answer: nothing guessed.
        (('{"question": "What were net sales?", "fact": "$134,383 million", "answer": "Net', "length"),
         [ProblemCode.NO_REPLY], ("", "", "")),
        ('{"question": "", "fact": "$134,383 million", "answer": "It was $134,383 million."}',
         [ProblemCode.EMPTY_QUESTION], ("", "It was $134,383 million.", "$134,383 million")),
        ('{"question": "Net sales?", "fact": "$134.4 billion", "answer": "They were $134.4 billion."}',
         [ProblemCode.FACT_NOT_IN_CHUNK], ("Net sales?", "They were $134.4 billion.", "$134.4 billion")),
    ],
)  # fmt: skip
def test_a_botched_draft_is_kept_with_its_reasons(
    store: ProjectStore, reply: Reply, codes: list[ProblemCode], fields: tuple[str, str, str]
) -> None:
    engine = ScriptedEngine(reply)
    draft_chunks(store, CHUNKS[:1], DraftOptions(), engine=engine)
    (draft,) = store.drafts.all()
    assert [p.code for p in draft.problems] == codes
    assert (draft.text.question, draft.text.answer, draft.text.fact) == fields
    assert draft.detail["reply"] == (reply if isinstance(reply, str) else reply[0])
    assert draft.status is DraftStatus.PENDING
    if ProblemCode.FACT_NOT_IN_CHUNK in codes:
        assert draft.variants == ()  # no respellings of a fact that is not in the chunk


def test_the_answer_guardrail_flags_a_long_answer(store: ProjectStore) -> None:
    draft_chunks(
        store, CHUNKS[:1], DraftOptions(max_answer_words=8), engine=ScriptedEngine(responder=good_reply)
    )
    (draft,) = store.drafts.all()
    assert [p.message for p in draft.problems] == ["the answer has 13 words, more than the guardrail of 8"]
    assert draft.detail["max_answer_words"] == 8


def test_a_rerun_drafts_nothing_twice_and_the_cache_answers_a_copied_chunk(store: ProjectStore) -> None:
    draft_chunks(store, CHUNKS, DraftOptions(), engine=ScriptedEngine(responder=good_reply))
    again = ScriptedEngine()  # any call would fail the test
    result = draft_chunks(store, CHUNKS, DraftOptions(), engine=again)
    assert (result.run_id, result.draft_ids, result.already_drafted) == (None, (), 3)
    assert [run.kind for run in store.runs.unfinished()] == []
    # The same text in another document: a draft of its own, its reply from the judge cache.
    copy = chunk(SALES, "c1", document="notes.txt", page=None)
    result = draft_chunks(store, [*CHUNKS, copy], DraftOptions(), engine=again)
    assert again.calls == []
    assert len(result.draft_ids) == 1
    drafted = store.drafts.get(result.draft_ids[0])
    assert drafted is not None
    assert drafted.provenance() == "notes.txt, chunk c1"
    assert drafted.detail["cached"] is True
    assert drafted.text.fact == "$134,383 million"
    # Another guardrail is another prompt: drafted anew.
    other = ScriptedEngine(responder=good_reply)
    assert (
        len(draft_chunks(store, CHUNKS[:1], DraftOptions(max_answer_words=30), engine=other).draft_ids) == 1
    )
    assert len(other.calls) == 1


def test_cancel_keeps_finished_drafts_and_the_same_call_resumes_the_run(store: ProjectStore) -> None:
    token = CancelToken()

    def cancel_after_first(messages: Sequence[ChatMessage], schema: Mapping[str, Any]) -> Reply:
        token.cancel()  # the user cancels while the first chunk is drafted
        return good_reply(messages, schema)

    with pytest.raises(Cancelled):
        draft_chunks(
            store, CHUNKS, DraftOptions(), engine=ScriptedEngine(responder=cancel_after_first), cancel=token
        )
    assert [d.chunk_id for d in store.drafts.all()] == ["p1-1"]
    (run,) = store.runs.unfinished(DRAFT_RUN)
    assert run.status == "cancelled"
    engine = ScriptedEngine(responder=good_reply)
    result = draft_chunks(store, CHUNKS, DraftOptions(), engine=engine)
    assert result.run_id == run.id
    assert result.already_drafted == 1
    assert [call.row for call in engine.calls] == [f"Passage:\n{FX}", f"Passage:\n{OFFICE}"]
    assert [d.chunk_id for d in store.drafts.all()] == ["p1-1", "p1-2", "p2-1"]
    assert {d.run_id for d in store.drafts.all()} == {run.id}
    finished = store.runs.get(run.id)
    assert finished is not None
    assert finished.status == "finished"


def test_a_model_cancelled_mid_reply_saves_nothing_for_that_chunk(store: ProjectStore) -> None:
    cut = JudgeReply(text='{"question": "Wh', data=None, finish_reason="cancelled", error="cancelled")
    with pytest.raises(Cancelled):
        draft_chunks(store, CHUNKS, DraftOptions(), engine=ScriptedEngine(cut))
    assert store.drafts.all() == []


def test_the_limit_drafts_that_many_and_the_next_call_goes_on(store: ProjectStore) -> None:
    first = draft_chunks(store, CHUNKS, DraftOptions(limit=2), engine=ScriptedEngine(responder=good_reply))
    assert (len(first.draft_ids), first.left) == (2, 1)
    second = draft_chunks(store, CHUNKS, DraftOptions(limit=2), engine=ScriptedEngine(responder=good_reply))
    assert (len(second.draft_ids), second.already_drafted, second.left) == (1, 2, 0)
    assert second.run_id == first.run_id
    assert [d.chunk_id for d in store.drafts.all()] == ["p1-1", "p1-2", "p2-1"]


def test_engine_errors_stop_the_run_and_save_nothing_for_those_chunks(store: ProjectStore) -> None:
    down = JudgeReply(text="", data=None, finish_reason="error", error="connection refused")
    with pytest.raises(DraftRunError, match=r"2 consecutive chunks failed.*connection refused"):
        draft_chunks(store, CHUNKS, DraftOptions(), engine=ScriptedEngine(down, down), max_engine_errors=2)
    assert store.drafts.all() == []
    (run,) = store.runs.unfinished(DRAFT_RUN)
    assert run.status == "failed"
    # A later call, with the engine working again, drafts everything in the same run.
    result = draft_chunks(store, CHUNKS, DraftOptions(), engine=ScriptedEngine(responder=good_reply))
    assert result.run_id == run.id
    assert len(result.draft_ids) == 3


def test_the_sample_source_chunks_draft_with_their_ids(store: ProjectStore) -> None:
    chunks = read_source(sample_dir() / "source_chunks.csv").chunks
    reply = json.dumps({"question": "Q?", "fact": "Amazon.com, Inc.", "answer": "It is Amazon.com, Inc."})
    draft_chunks(store, chunks, DraftOptions(limit=2), engine=ScriptedEngine(reply, reply))
    drafts = store.drafts.all()
    assert [d.provenance() for d in drafts] == [
        "source_chunks.csv, chunk c_officers",
        "source_chunks.csv, chunk c_cover",
    ]
    assert drafts[0].chunk_text == chunks[0].text


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="either a judge model file or a judge server"):
        DraftOptions(engine=JudgeEngineSpec(judge_model=Path("m.gguf"), judge_url="http://localhost:8080"))
    with pytest.raises(ValueError, match="guardrail"):
        DraftOptions(max_answer_words=0)


def test_chunk_ids_must_be_unique(store: ProjectStore) -> None:
    with pytest.raises(ValueError, match="same document and chunk id"):
        draft_chunks(store, [CHUNKS[0], CHUNKS[0]], DraftOptions(), engine=ScriptedEngine())
