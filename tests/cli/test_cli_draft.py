"""``goldenlens draft`` through ``main()``: a PDF and a CSV of chunks written by the test,
drafted by a scripted judge (the real default model: tests/judge/test_draft_judge.py), the
printed drafts, ``--json`` and ``-o``, a rerun, and bad input as one line with exit code 2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.io.pdf_files import write_pdf
from tests.jobs.drafting import FX, OFFICE, SALES, good_reply
from tests.judge.scripted import ScriptedEngine

from goldenlens.cli.main import main
from goldenlens.core.golden.drafts import DraftStatus
from goldenlens.jobs.judging import run_driver
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.store.project import ProjectStore

pytest.importorskip("pypdf")


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> ScriptedEngine:
    """The scripted judge in place of the model the command would open."""
    scripted = ScriptedEngine(responder=good_reply)

    @contextmanager
    def fake_open(*args: Any, **kwargs: Any) -> Iterator[JudgeEngine]:
        yield scripted

    monkeypatch.setattr(run_driver, "open_judge_engine", fake_open)
    return scripted


@pytest.fixture
def sources(tmp_path: Path) -> list[Path]:
    pdf = write_pdf(tmp_path / "report.pdf", [[SALES], [FX]])
    csv = tmp_path / "chunks.csv"
    csv.write_text(f'chunk_id,text\nc_cover,"{OFFICE}"\n', encoding="utf-8")
    return [pdf, csv]


def test_drafts_are_printed_and_wait_in_the_queue(
    tmp_path: Path, sources: list[Path], engine: ScriptedEngine, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "new.goldenlens"
    assert main(["draft", *map(str, sources), "--project", str(project), "-q"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[:4] == [
        "#1 report.pdf, page 1, chunk p1-1",
        "  question: How much were Amazon's total net sales in the second quarter of 2023?",
        "  answer:   Amazon's total net sales were $134,383 million in the second quarter of 2023.",
        "  fact:     $134,383 million",
    ]
    assert "#2 report.pdf, page 2, chunk p2-1" in out
    assert "#3 chunks.csv, chunk c_cover" in out
    variants = out.splitlines()[4]
    assert variants.startswith("  variants: ")
    assert len(variants.split(" | ")) == 5  # four shown, then how many more
    assert variants.endswith("more (--json lists all)")
    assert err.strip().splitlines()[-1] == (
        "new.goldenlens: drafted 3 of 3 chunks. Review queue: 3 pending, 0 accepted, 0 rejected"
    )
    with ProjectStore.open(project) as store:
        assert store.golden.items() == []
        assert store.drafts.counts()[DraftStatus.PENDING] == 3

    # Again: nothing drafted twice, no model call.
    calls = len(engine.calls)
    assert main(["draft", *map(str, sources), "--project", str(project), "-q", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert (data["chunks"], data["already_drafted"], data["drafts"]) == (3, 3, [])
    assert len(engine.calls) == calls
    assert "3 drafted before" in err


def test_limit_and_json_file(
    tmp_path: Path, sources: list[Path], engine: ScriptedEngine, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "drafts.json"
    project = tmp_path / "p.goldenlens"
    args = ["draft", *map(str, sources), "--project", str(project), "--limit", "2", "-o", str(out_file), "-q"]
    assert main(args) == 0
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert [(d["provenance"], d["status"]) for d in data["drafts"]] == [
        ("report.pdf, page 1, chunk p1-1", "pending"),
        ("report.pdf, page 2, chunk p2-1", "pending"),
    ]
    assert data["drafts"][0]["fact"] == "$134,383 million"
    assert "$134.383 billion" in [v["text"] for v in data["drafts"][0]["variants"]]
    assert data["left"] == 1
    assert "1 left (run again to continue)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            "chunk_id,text\nc1,one\nc1,two\n",
            "goldenlens: error: bad.csv, row 3, column 'A': chunk id 'c1' is used again (first in row 2): "
            "ids must be unique",
        ),
        ("chunk,body\n", "goldenlens: error: bad.csv, row 1: the header has no id column"),
    ],
)
def test_a_bad_chunk_file_is_one_line_and_nothing_is_drafted(
    tmp_path: Path, engine: ScriptedEngine, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(content, encoding="utf-8")
    project = tmp_path / "p.goldenlens"
    assert main(["draft", str(bad), "--project", str(project)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(expected)
    assert len(err.strip().splitlines()) == 1
    assert engine.calls == []
    assert not project.exists()


def test_other_bad_input(tmp_path: Path, engine: ScriptedEngine, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "a.txt"
    text.write_text("Net sales were $134,383 million.", encoding="utf-8")
    project = str(tmp_path / "p.goldenlens")
    assert main(["draft", str(tmp_path / "missing.pdf"), "--project", project]) == 2
    assert "missing.pdf: the file does not exist" in capsys.readouterr().err
    assert main(["draft", str(text), "--project", project, "-o", str(tmp_path / "x.csv")]) == 2
    assert "the drafts file must be .json" in capsys.readouterr().err
    assert main(["draft", str(text), "--project", project, "--judge-model", str(tmp_path / "no.gguf")]) == 2
    assert "--judge-model: model file not found" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    assert main(["draft", str(empty), "--project", project]) == 2
    assert "no text to draft from" in capsys.readouterr().err
    assert engine.calls == []


def test_the_queue_from_the_command_line(
    tmp_path: Path, sources: list[Path], engine: ScriptedEngine, capsys: pytest.CaptureFixture[str]
) -> None:
    project = str(tmp_path / "p.goldenlens")
    assert main(["draft", *map(str, sources), "--project", project, "-q"]) == 0
    capsys.readouterr()
    assert main(["drafts", project, "--accept", "1", "--reviewer", "ann"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("p.goldenlens: draft 1 is now golden item draft-1 (fact '$134,383 million<OR>")
    edited = ["--question", "What did exchange rates cost Amazon's International segment in Q2 2023?"]
    assert main(["drafts", project, "--accept", "2", *edited, "--id", "q-fx", "--no-variants"]) == 0
    assert "golden item q-fx (fact '$180 million')" in capsys.readouterr().out
    assert main(["drafts", project, "--reject", "3", "--note", "an address, not a question"]) == 0
    assert capsys.readouterr().out == "p.goldenlens: draft 3 rejected\n"
    with ProjectStore.open(project) as store:
        item = store.golden.item("q-fx")
        assert item is not None
        assert (item.question, item.fact) == (edited[1], "$180 million")
        assert item.notes == "Drafted from report.pdf, page 2, chunk p2-1 (draft 2, edited)"
        history = store.golden.history("draft-1")
        assert [(h.action, h.reviewer) for h in history] == [("add", "ann")]

    assert main(["drafts", project]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "p.goldenlens: 3 of 3 reviewed"
    assert "  status:   accepted as q-fx" in out
    assert main(["drafts", project, "--status", "rejected", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["id"], d["note"]) for d in data["drafts"]] == [(3, "an address, not a question")]

    assert main(["drafts", project, "--reject", "3"]) == 2
    assert capsys.readouterr().err == "goldenlens: error: p.goldenlens: draft 3 is already rejected\n"
    assert main(["drafts", project, "--fact", "x"]) == 2
    assert "go with --accept" in capsys.readouterr().err
