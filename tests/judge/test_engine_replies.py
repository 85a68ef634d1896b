"""Pure tests of the engine seam: truncated-JSON recovery, reply building, the schema checker."""

from __future__ import annotations

from typing import Any

import pytest

from goldenlens.judge.engines.protocol import CancelCheck, JudgeReply, make_reply, recover_json
from goldenlens.judge.engines.schema_check import schema_errors

VERDICT = {"type": "integer", "enum": [0, 1]}
REASON = {"type": "string", "maxLength": 80}
VERDICT_ONLY = {
    "type": "object",
    "properties": {"verdict": VERDICT, "reason": REASON},
    "required": ["verdict"],
}
BOTH = {**VERDICT_ONLY, "required": ["verdict", "reason"]}
STATEMENTS = {
    "type": "object",
    "properties": {
        "statements": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
        "verdicts": {"type": "array", "items": VERDICT},
    },
    "required": ["statements"],
}


def _one_field(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {name: schema}, "required": [name]}


RECOVERY_TABLE: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = [
    # The example of MODELS.md: the looping reason is cut, the verdict before it is whole.
    ('{"verdict": 1, "reason": "1.1.1.1', VERDICT_ONLY, {"verdict": 1}),
    ('{"verdict": 1, "reason": "1.1.1.1', BOTH, None),
    ('{"verdict":0,"reason', VERDICT_ONLY, {"verdict": 0}),
    ('{"verdict":0,"', VERDICT_ONLY, {"verdict": 0}),
    ('{"verdict":0,', VERDICT_ONLY, {"verdict": 0}),
    ('{\n  "verdict" : 0 ,\n  "reason": "he said \\"no', VERDICT_ONLY, {"verdict": 0}),
    # A string closed by its last character is complete.
    ('{"verdict": 1, "reason": "ok"', BOTH, {"verdict": 1, "reason": "ok"}),
    ('{"verdict": 1, "reason": "ok"}', BOTH, {"verdict": 1, "reason": "ok"}),
    # A number ending the text is whole only when the schema allows no longer number.
    ('{"verdict":1', VERDICT_ONLY, {"verdict": 1}),
    ('{"verdict":1', _one_field("verdict", {"type": "integer", "enum": [1, 10]}), None),
    ('{"verdict":1', _one_field("verdict", {"type": "integer", "const": 1}), {"verdict": 1}),
    ('{"score": 7', _one_field("score", {"type": "integer", "minimum": 0, "maximum": 9}), {"score": 7}),
    ('{"score": 1', _one_field("score", {"type": "integer", "minimum": 0, "maximum": 10}), None),
    ('{"score": 2', _one_field("score", {"type": "integer", "minimum": 0, "maximum": 10}), {"score": 2}),
    ('{"score": 0.7', _one_field("score", {"type": "number"}), None),
    ('{"score": 0.7,', _one_field("score", {"type": "number"}), {"score": 0.7}),
    ('{"score": -1', _one_field("score", {"type": "integer", "maximum": 5}), None),
    # Literals are whole once spelled out.
    ('{"ok": tr', _one_field("ok", {"type": "boolean"}), None),
    ('{"ok": true', _one_field("ok", {"type": "boolean"}), {"ok": True}),
    # Arrays and objects count only when closed.
    ('{"statements": ["a", "b"', STATEMENTS, None),
    ('{"statements": ["a", "b"], "verdicts": [1', STATEMENTS, {"statements": ["a", "b"]}),
    # Never a value the schema forbids, never an unexpected field, never a guess.
    ('{"verdict": 2, "reason": "', VERDICT_ONLY, None),
    ('{"verdict": true, "reason": "', VERDICT_ONLY, None),
    ('{"extra": 1, "verdict": 1, "r', {**VERDICT_ONLY, "additionalProperties": False}, None),
    ('{"extra": 1, "verdict": 1, "r', VERDICT_ONLY, {"extra": 1, "verdict": 1}),
    ('{"verdict": 1 x', VERDICT_ONLY, None),
    ('{"verd', VERDICT_ONLY, None),
    ("{", VERDICT_ONLY, None),
    ("", VERDICT_ONLY, None),
    ("[1, 2", VERDICT_ONLY, None),
    ('{"reason": "fine", "verdict', VERDICT_ONLY, None),
    # Without required fields, any complete leading field is kept; nothing at all is None.
    ('{"a": 1, "b": "x', {"type": "object"}, {"a": 1}),
    ('{"a": "x', {"type": "object"}, None),
]


@pytest.mark.parametrize(("text", "schema", "expected"), RECOVERY_TABLE)
def test_recover_json(text: str, schema: dict[str, Any], expected: dict[str, Any] | None) -> None:
    assert recover_json(text, schema) == expected


def test_recover_json_keeps_booleans_apart_from_numbers() -> None:
    recovered = recover_json('{"verdict": 1, "r', VERDICT_ONLY)
    assert recovered == {"verdict": 1}
    assert recovered is not None
    assert type(recovered["verdict"]) is int


def test_make_reply_valid_json() -> None:
    reply = make_reply('{"verdict": 1, "reason": "ok"}', "stop", BOTH, prompt_tokens=9, completion_tokens=4)
    assert reply == JudgeReply('{"verdict": 1, "reason": "ok"}', {"verdict": 1, "reason": "ok"}, "stop", 9, 4)
    assert reply.ok
    assert reply.error == ""


@pytest.mark.parametrize(
    ("text", "finish", "fragment"),
    [
        ('{"verdict": 1, "reason', "stop", "invalid JSON"),
        ('{"verdict": 3, "reason": "ok"}', "stop", "is not one of"),
        ('{"verdict": 1}', "stop", "missing required field 'reason'"),
        ('{"verdict": 1, "reason": "' + "x" * 81 + '"}', "stop", "longer than 80"),
        ("[1]", "stop", "expected a JSON object"),
        ('{"verdict": 1, "reason": "1.1.1', "length", "the required fields are incomplete"),
    ],
)
def test_make_reply_rejects(text: str, finish: Any, fragment: str) -> None:
    reply = make_reply(text, finish, BOTH, completion_tokens=7)
    assert reply.data is None
    assert not reply.ok
    assert fragment in reply.error


def test_make_reply_recovers_a_cut_verdict_and_says_so() -> None:
    reply = make_reply('{"verdict": 0, "reason": "1.1.1', "length", VERDICT_ONLY, completion_tokens=12)
    assert reply.data == {"verdict": 0}
    assert reply.finish_reason == "length"
    assert "max_tokens (12 tokens)" in reply.error
    assert "recovered the complete fields verdict" in reply.error


def test_make_reply_cancelled_and_error_carry_no_data() -> None:
    cancelled = make_reply('{"verdict": 1, "reason": "ok"}', "cancelled", BOTH)
    assert cancelled.data is None
    assert cancelled.error == "cancelled"
    failed = make_reply("", "error", BOTH, error="HTTP 500")
    assert failed.data is None
    assert failed.error == "HTTP 500"


def test_jobs_cancel_token_is_a_cancel_check() -> None:
    # The judge layer cannot import jobs; the jobs' token fits the judge's protocol by shape.
    from goldenlens.jobs.progress import CancelToken

    token = CancelToken()
    assert isinstance(token, CancelCheck)
    token.cancel()
    assert token.cancelled


SCHEMA_TABLE: list[tuple[Any, dict[str, Any], int]] = [
    (1, VERDICT, 0),
    (True, VERDICT, 1),  # a boolean is not a JSON integer
    (1.0, {"type": "number"}, 0),
    ("x" * 80, REASON, 0),
    ("x" * 81, REASON, 1),
    (["a"] * 6, STATEMENTS["properties"]["statements"], 1),
    ([1, 2], STATEMENTS["properties"]["verdicts"], 1),
    ({"statements": []}, STATEMENTS, 0),
    ({}, STATEMENTS, 1),
    (None, {"type": ["string", "null"]}, 0),
    (5, {"type": "integer", "minimum": 1, "maximum": 4}, 1),
    ({"a": 1}, {"type": "object", "additionalProperties": False}, 1),
]


@pytest.mark.parametrize(("value", "schema", "errors"), SCHEMA_TABLE)
def test_schema_errors(value: Any, schema: dict[str, Any], errors: int) -> None:
    assert len(schema_errors(value, schema)) == errors
