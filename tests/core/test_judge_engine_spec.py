"""The judge engine spec: its defaults, the range of every setting, and the run parameters it
records (in the order and form judge runs, golden reviews and drafts stored them before the
spec existed, so their interrupted runs still resume)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from goldenlens.core.judge_engine_spec import JudgeEngineSpec, setting_problem


def test_the_defaults_are_the_bundled_models_at_temperature_0_and_seed_42() -> None:
    spec = JudgeEngineSpec()
    assert (spec.judge_model, spec.judge_url, spec.embed_model) == (None, None, None)
    assert (spec.n_ctx, spec.n_threads, spec.temperature, spec.seed, spec.parallel) == (
        4096,
        None,
        0.0,
        42,
        1,
    )


@pytest.mark.parametrize(
    ("name", "low", "high", "below", "above"),
    [
        ("n_ctx", 256, 1 << 20, 255, (1 << 20) + 1),
        ("n_threads", 0, 1024, -1, 1025),
        ("temperature", 0.0, 2.0, -0.01, 2.01),
        ("seed", 0, 2**31 - 1, -1, 2**31),
        ("parallel", 1, 64, 0, 65),
    ],
)
def test_every_setting_is_held_to_its_range(name: str, low: Any, high: Any, below: Any, above: Any) -> None:
    assert getattr(JudgeEngineSpec(**{name: low}), name) == low
    assert getattr(JudgeEngineSpec(**{name: high}), name) == high
    for wrong in (below, above):
        with pytest.raises(ValueError, match=f"must be between .* got {wrong!r}"):
            JudgeEngineSpec(**{name: wrong})


def test_a_setting_of_the_wrong_kind_is_refused() -> None:
    assert setting_problem("n_ctx", 2048) is None
    assert (
        setting_problem("n_ctx", True)
        == "the context size (tokens) must be between 256 and 1048576, got True"
    )
    assert setting_problem("seed", 1.5) == "the seed must be between 0 and 2147483647, got 1.5"
    assert setting_problem("temperature", float("nan")) == "the temperature must be between 0 and 2, got nan"
    assert setting_problem("temperature", 1) is None  # a whole number is a temperature too
    assert (
        setting_problem("parallel", "4")
        == "the number of parallel requests must be between 1 and 64, got '4'"
    )


def test_a_model_file_and_a_server_are_not_both_chosen() -> None:
    with pytest.raises(ValueError, match="choose either a judge model file or a judge server URL, not both"):
        JudgeEngineSpec(judge_model=Path("m.gguf"), judge_url="http://localhost:8080/v1")


def test_parallel_requests_go_to_a_server_only() -> None:
    assert JudgeEngineSpec(parallel=4).workers == 1
    assert JudgeEngineSpec(judge_url="http://localhost:8080/v1", parallel=4).workers == 4


def test_the_run_parameters_keep_their_stored_form_and_order() -> None:
    spec = JudgeEngineSpec(
        judge_model=Path("/models/qwen.gguf"), embed_model=Path("/models/e5.gguf"), n_threads=2, seed=7
    )
    assert list(spec.params().items()) == [
        ("judge_model", "/models/qwen.gguf"),
        ("judge_url", None),
        ("embed_model", "/models/e5.gguf"),
        ("n_ctx", 4096),
        ("n_threads", 2),
        ("temperature", 0.0),
        ("seed", 7),
        ("parallel", 1),
    ]
    assert list(spec.judge_params().items()) == [
        ("judge_model", "/models/qwen.gguf"),
        ("judge_url", None),
        ("n_ctx", 4096),
        ("n_threads", 2),
        ("temperature", 0.0),
        ("seed", 7),
    ]
    assert JudgeEngineSpec.from_params(spec.params()) == spec


def test_a_stored_run_without_every_key_takes_the_defaults() -> None:
    # The parameters of a golden review as stored: the judge's keys and the review's own.
    stored = {
        "judge_model": None,
        "judge_url": "http://10.0.0.5:8000/v1",
        "n_ctx": 8192,
        "n_threads": None,
        "temperature": 0.2,
        "seed": 3,
        "criteria": ["fact_minimal"],
        "max_answer_words": 40,
        "reason_chars": 160,
    }
    assert JudgeEngineSpec.from_params(stored) == JudgeEngineSpec(
        judge_url="http://10.0.0.5:8000/v1", n_ctx=8192, temperature=0.2, seed=3
    )
    assert JudgeEngineSpec.from_params({}) == JudgeEngineSpec()
