"""Score signatures (sacrebleu style): what produced a number."""

from __future__ import annotations

from goldenlens.core.lexical.scorer import LexicalScorer
from goldenlens.core.lexical.signature import FMEVAL_REFERENCE, LEXICAL_VERSION, Signature, lexical_signature


def test_lexical_signature() -> None:
    signature = lexical_signature("f1_score", LexicalScorer().params())
    assert signature == Signature(
        "f1_score",
        LEXICAL_VERSION,
        {"counting": "set", "target_delimiter": "<OR>", "reference": FMEVAL_REFERENCE},
    )
    assert signature.short() == "f1_score|v1|counting=set|reference=fmeval-1.2.3|target_delimiter=<OR>"


def test_multiset_changes_the_signature() -> None:
    a = lexical_signature("f1_score", LexicalScorer().params())
    b = lexical_signature("f1_score", LexicalScorer(multiset=True).params())
    assert a != b
    assert "counting=multiset" in b.short()


def test_json_round_trip_is_stable() -> None:
    signature = Signature(
        "faithfulness", "2", {"model": "qwen.gguf", "sha256": "ab" * 32, "temperature": 0.0}
    )
    text = signature.to_json()
    assert Signature.from_json(text) == signature
    assert text == Signature("faithfulness", "2", dict(reversed(signature.params.items()))).to_json()


def test_short_without_params() -> None:
    assert Signature("bleu", "1").short() == "bleu|v1"
    assert Signature.from_json('{"metric": "bleu", "version": "1"}') == Signature("bleu", "1")


def test_non_ascii_params_are_kept() -> None:
    assert "Ä" in Signature("m", "1", {"name": "Ä"}).to_json()
