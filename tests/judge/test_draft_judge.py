"""Drafting on the real default model (SmolLM2-135M-Instruct), a chunk or two: the reply goes
through the schema and the checks, whatever the tiny model writes. The expectations are
worked out here from the texts (is the fact in the chunk? how many words?), not taken from
the code under test."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from goldenlens.cli.main import main
from goldenlens.core.golden.drafts import ProblemCode
from goldenlens.io.importing.sample import sample_dir
from goldenlens.io.importing.source_documents import read_source
from goldenlens.jobs.drafting.draft_job import DraftOptions, draft_chunks
from goldenlens.judge.engines.llama import LlamaCppEngine
from goldenlens.judge.engines.protocol import CancelCheck, ChatMessage, JudgeEngine, JudgeReply
from goldenlens.store.project import ProjectStore

pytest.importorskip("llama_cpp", reason="the llama.cpp judge needs the [judge] extra")

SAMPLE_CHUNKS = sample_dir() / "source_chunks.csv"


class CountingEngine:
    """Delegates to the real engine and counts the calls."""

    def __init__(self, inner: JudgeEngine) -> None:
        self.inner = inner
        self.calls = 0

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def model_sha256(self) -> str:
        return self.inner.model_sha256

    def complete_json(
        self,
        messages: Sequence[ChatMessage],
        schema: Mapping[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int = 42,
        cancel: CancelCheck | None = None,
    ) -> JudgeReply:
        self.calls += 1
        return self.inner.complete_json(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed, cancel=cancel
        )


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def test_two_sample_chunks_drafted_and_checked(judge_engine: LlamaCppEngine, tmp_path: Path) -> None:
    chunks = read_source(SAMPLE_CHUNKS).chunks[1:3]
    counting = CountingEngine(judge_engine)
    with ProjectStore.open(tmp_path / "p.goldenlens", create=True) as store:
        result = draft_chunks(store, chunks, DraftOptions(), engine=counting)
        assert counting.calls == 2
        drafts = store.drafts.all()
        assert [d.chunk_id for d in drafts] == ["c_cover", "c_sales"]
        for draft, chunk in zip(drafts, chunks, strict=True):
            assert draft.chunk_text == chunk.text
            assert draft.detail["model"] == "SmolLM2-135M-Instruct.Q4_1.gguf"
            codes = {p.code for p in draft.problems}
            if ProblemCode.NO_REPLY in codes:
                assert draft.detail["reply_error"]  # the reason is kept with the raw reply
                continue
            assert draft.detail["finish_reason"] in ("stop", "length")
            text = draft.text
            fact_in_chunk = bool(text.fact.strip()) and _squeezed(text.fact) in _squeezed(chunk.text)
            assert (ProblemCode.FACT_NOT_IN_CHUNK in codes) == (bool(text.fact.strip()) and not fact_in_chunk)
            assert (ProblemCode.ANSWER_TOO_LONG in codes) == (len(text.answer.split()) > 40)
            assert (ProblemCode.EMPTY_QUESTION in codes) == (not text.question.strip())
        # The same call again: every reply is in the project, no model call.
        again = CountingEngine(judge_engine)
        rerun = draft_chunks(store, chunks, DraftOptions(), engine=again)
        assert again.calls == 0
        assert (rerun.draft_ids, rerun.already_drafted, rerun.run_id) == ((), 2, None)
        assert [(r.id, r.status) for r in store.runs.unfinished("draft")] == []
        finished = store.runs.get(result.run_id)
        assert finished is not None
        assert finished.status == "finished"


def test_the_command_drafts_one_chunk_with_the_default_model(
    judge_model_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p.goldenlens"
    args = ["draft", str(SAMPLE_CHUNKS), "--project", str(project), "--limit", "1", "--threads", "1"]
    assert main([*args, "--n-ctx", "2048", "-q"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("#1 source_chunks.csv, chunk c_officers\n")
    assert "drafted 1 of 10 chunks; 9 left" in err
    with ProjectStore.open(project) as store:
        (draft,) = store.drafts.all()
        assert draft.detail["model_sha256"] != ""
        assert store.golden.items() == []
