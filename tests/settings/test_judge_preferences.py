"""The saved judge settings: a file written before the engine spec existed still loads, bad
values fall back one by one to the spec's defaults, and the settings name the engine a job
opens (:meth:`JudgeSettings.engine_spec`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.settings.judge_preferences import JudgeSettings, load_judge_settings, save_judge_settings

#: ``judge_settings.json`` as GoldenLens wrote it before this change (schema 1), with a server
#: chosen and a model file path still remembered from an earlier choice.
SAVED_BEFORE = """{
  "judge_source": "server",
  "judge_model_path": "/models/qwen2.5-7b-instruct-q4_k_m.gguf",
  "judge_url": "http://10.0.0.5:8000/v1",
  "embed_source": "file",
  "embed_model_path": "~/models/e5.gguf",
  "n_ctx": 8192,
  "n_threads": 0,
  "temperature": 0.3,
  "seed": 1234,
  "parallel": 3,
  "metrics": ["faithfulness", "bertscore", "aspect_tone"],
  "metric_params": {"aspect_critique": {"strictness": 5}},
  "custom_aspects": {"tone": "Is the tone neutral?"},
  "schema_version": 1
}"""


@pytest.fixture(autouse=True)
def settings_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "settings"
    monkeypatch.setenv("GOLDENLENS_CONFIG_DIR", str(folder))
    return folder


def test_a_file_saved_before_the_engine_spec_loads_as_it_was(settings_folder: Path) -> None:
    settings_folder.mkdir()
    (settings_folder / "judge_settings.json").write_text(SAVED_BEFORE, encoding="utf-8")
    settings = load_judge_settings()
    assert settings == JudgeSettings(
        judge_source="server",
        judge_model_path="/models/qwen2.5-7b-instruct-q4_k_m.gguf",
        judge_url="http://10.0.0.5:8000/v1",
        embed_source="file",
        embed_model_path="~/models/e5.gguf",
        n_ctx=8192,
        n_threads=0,
        temperature=0.3,
        seed=1234,
        parallel=3,
        metrics=("faithfulness", "bertscore", "aspect_tone"),
        metric_params={"aspect_critique": {"strictness": 5}},
        custom_aspects={"tone": "Is the tone neutral?"},
    )
    assert settings.engine_spec() == JudgeEngineSpec(
        judge_url="http://10.0.0.5:8000/v1",
        embed_model=Path("~/models/e5.gguf").expanduser(),
        n_ctx=8192,
        n_threads=None,
        temperature=0.3,
        seed=1234,
        parallel=3,
    )
    # Saved again, the file keeps its schema: the same keys and values.
    save_judge_settings(settings)
    written = json.loads((settings_folder / "judge_settings.json").read_text(encoding="utf-8"))
    assert written == json.loads(SAVED_BEFORE)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("n_ctx", "big"),
        ("n_ctx", 128),
        ("n_threads", 2000),
        ("n_threads", True),
        ("temperature", 2.5),
        ("temperature", "NaN"),
        ("seed", -3),
        ("parallel", 0),
    ],
)
def test_a_bad_engine_value_falls_back_to_its_default_alone(key: str, value: object) -> None:
    data = json.loads(SAVED_BEFORE)
    data[key] = value
    text = json.dumps(data).replace('"NaN"', "NaN")  # what a hand-edited file may hold
    loaded = JudgeSettings.from_json(text)
    assert getattr(loaded, key) == getattr(JudgeSettings(), key)
    others = {k: v for k, v in json.loads(SAVED_BEFORE).items() if k not in (key, "schema_version")}
    assert {k: getattr(loaded, k) for k in others if k not in ("metrics",)} == {
        k: v for k, v in others.items() if k != "metrics"
    }


def test_the_engine_is_the_one_the_chosen_sources_name() -> None:
    def chosen(source: str) -> JudgeEngineSpec:
        # A path and a URL typed earlier are kept in the file whichever source is chosen.
        return JudgeSettings(
            judge_source=source,
            judge_model_path="~/judge.gguf",
            judge_url=" http://host:8080/v1 ",
            parallel=4,
        ).engine_spec()

    assert chosen("default") == JudgeEngineSpec()
    assert chosen("file") == JudgeEngineSpec(judge_model=Path("~/judge.gguf").expanduser())
    assert chosen("server") == JudgeEngineSpec(judge_url="http://host:8080/v1", parallel=4)
    assert JudgeSettings(n_threads=3).engine_spec().n_threads == 3
    assert JudgeSettings().engine_spec() == JudgeEngineSpec()
