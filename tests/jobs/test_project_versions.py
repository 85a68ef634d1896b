"""Golden-set versions of a real project: imports, editing sessions, runs, names, diffs, log."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from goldenlens.core.golden.versions import UnknownVersionError
from goldenlens.core.inputs import GoldenItem
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.curation.golden_versions import (
    diff_versions,
    golden_change_log,
    list_versions,
    name_version,
    run_version_label,
)
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.reporting.report_job import export_golden, export_report
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.store.project import ProjectStore


def _item(store: ProjectStore, question_id: str) -> GoldenItem:
    item = store.golden.item(question_id)
    assert item is not None
    return item


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    """The sample project as imported: version 1, ten rows."""
    with ProjectStore.open(tmp_path / "sample.goldenlens", create=True) as opened:
        import_inputs(opened, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        yield opened


def _golden_v2(tmp_path: Path) -> Path:
    """The sample's golden set with q10 dropped, q02's answer reworded and a new q11."""
    with (sample_dir() / "golden.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    answer = header.index("answer") if "answer" in header else 2
    kept = [row for row in body if row[0] != "q10"]
    for row in kept:
        if row[0] == "q02":
            row[answer] = "Reworded answer."
    extra = ["q11", "What was the operating margin?", "The operating margin was 5.7%.", "5.7%"]
    kept.append(extra + [""] * (len(header) - len(extra)))
    path = tmp_path / "golden-v2.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, *kept])
    return path


def test_import_sessions_and_runs_make_versions(store: ProjectStore, tmp_path: Path) -> None:
    q03 = _item(store, "q03")
    curation.edit_golden_item(store, replace(q03, fact=q03.fact + "<OR>410 Terry Ave. N."), reviewer="Ana")
    curation.edit_golden_item(store, replace(_item(store, "q06"), notes="ambiguous"), reviewer="Ana")
    run_id = score_project(store)  # ends Ana's session: the run scored version 2
    curation.edit_golden_item(store, replace(_item(store, "q06"), notes="reframe it"), reviewer="Ana")
    curation.edit_golden_item(
        store, replace(_item(store, "q01"), question="Net sales, Q2 2023?"), reviewer="Ben"
    )

    listed = list_versions(store)
    assert [(v.number, v.kind, v.who, v.rows, v.changes) for v in listed.versions] == [
        (1, "import", "import golden.csv", 10, 10),
        (2, "edit", "Ana", 10, 2),
        (3, "edit", "Ana", 10, 1),
        (4, "edit", "Ben", 10, 1),
    ]
    (run,) = listed.runs
    assert (run.run_id, run.version, run.rescored_version, run.recorded) == (run_id, 2, None, True)
    assert listed.runs_of(2) == [run]

    # A re-import that drops a row, rewords one and adds one is a version of its own (6 rows
    # changed: q10 removed, q11 added, q02 reworded, and the three curated rows put back).
    import_inputs(store, _golden_v2(tmp_path), sample_dir() / "responses.csv")
    listed = list_versions(store)
    assert [(v.number, v.kind, v.rows, v.changes) for v in listed.versions][4:] == [(5, "import", 10, 6)]
    diff = diff_versions(store, "4", "5")
    assert [i.id for i in diff.diff.added] == ["q11"]
    assert [i.id for i in diff.diff.removed] == ["q10"]
    # The import file has none of the curation edits (q03's variant, q06's and q01's): they
    # come back as changes, with q02's reworded answer.
    assert {r.question_id: [c.field for c in r.changes] for r in diff.diff.changed} == {
        "q01": ["question"],
        "q02": ["answer"],
        "q03": ["fact"],
        "q06": ["notes"],
    }


def test_an_edit_rescored_into_a_run_moves_the_run_to_that_version(store: ProjectStore) -> None:
    run_id = score_project(store)
    q03 = _item(store, "q03")
    result = curation.edit_golden_item(
        store, replace(q03, fact=q03.fact + "<OR>410 Terry Ave. N."), reviewer="Ana"
    )
    assert result.run_id == run_id
    run = store.runs.get(run_id)
    assert run is not None
    assert run.golden_history_id == 10
    assert run.golden_rescored_id == 11
    (listed,) = list_versions(store).runs
    assert (listed.version, listed.rescored_version, listed.scored_version) == (1, 2, 2)
    # A notes-only edit re-scores nothing, so the run stays where it was.
    curation.edit_golden_item(store, replace(_item(store, "q06"), notes="x"), reviewer="Ana")
    assert list_versions(store).runs[0].scored_version == 2
    assert "golden_rescored_id" not in run.params
    assert "golden_history_id" not in run.params


def test_naming_a_version_freezes_it_and_ends_the_session(store: ProjectStore) -> None:
    curation.edit_golden_item(store, replace(_item(store, "q06"), notes="first"), reviewer="Ana")
    named = name_version(store, "  first pass ")
    assert (named.number, named.name, named.label) == (2, "first pass", 'v2 "first pass"')
    curation.edit_golden_item(store, replace(_item(store, "q06"), notes="second"), reviewer="Ana")
    listed = list_versions(store)
    assert [(v.number, v.name) for v in listed.versions] == [(1, ""), (2, "first pass"), (3, "")]
    assert name_version(store, "as imported", "1").name == "as imported"
    assert name_version(store, "imported", "as imported").name == "imported"  # renamed by its name
    assert [v.name for v in store.golden.versions()] == ["first pass", "imported"]
    frozen = store.golden.version_items(store.golden.versions()[0].id)
    assert {i.id: i.notes for i in frozen}["q06"] == "first"
    diff = diff_versions(store, "first pass", "latest")
    assert [
        (r.question_id, [(c.field, c.before, c.after) for c in r.changes]) for r in diff.diff.changed
    ] == [("q06", [("notes", "first", "second")])]
    with pytest.raises(ValueError, match="already has the name"):
        name_version(store, "first pass", "3")
    with pytest.raises(ValueError, match="reads as a version number"):
        name_version(store, "v7")
    with pytest.raises(UnknownVersionError, match="versions: 1 to 3"):
        diff_versions(store, "1", "9")


def test_diff_against_the_empty_set_and_backwards(store: ProjectStore) -> None:
    curation.edit_golden_item(store, replace(_item(store, "q02"), fact="Brian T. Olsavsky"), reviewer="Ana")
    everything = diff_versions(store, "0", "2")
    assert (everything.old_label, everything.new_label) == ("v0 (empty)", "v2")
    assert len(everything.diff.added) == 10
    assert not everything.diff.changed
    backwards = diff_versions(store, "2", "1")
    assert [(r.question_id, r.changes[0].before, r.changes[0].after) for r in backwards.diff.changed] == [
        ("q02", "Brian T. Olsavsky", _item_at_import(store, "q02").fact)
    ]


def _item_at_import(store: ProjectStore, question_id: str) -> GoldenItem:
    return next(h.item for h in store.golden.history(question_id) if h.action == "import")


def test_change_log_of_a_project(store: ProjectStore) -> None:
    old = _item(store, "q02")
    curation.edit_golden_item(store, replace(old, fact="Brian T. Olsavsky", notes="title"), reviewer="Ana")
    rows = [(r.version, r.who, r.question_id, r.field, r.before, r.after) for r in golden_change_log(store)]
    assert rows == [
        ("v1", "import golden.csv", "", "set created", "", "10 rows"),
        ("v2", "Ana", "q02", "fact", old.fact, "Brian T. Olsavsky"),
        ("v2", "Ana", "q02", "notes", old.notes, "title"),
    ]


def test_old_projects_get_versions_from_their_history(tmp_path: Path) -> None:
    """Format-1 and format-2 fixtures: an import, a named snapshot, an edit by ana, then a
    lexical and a judge run recorded before runs named their golden version."""
    fixtures = Path(__file__).parents[1] / "store" / "fixtures"
    for name in ("format1.goldenlens", "format2.goldenlens"):
        copy = tmp_path / name
        copy.write_bytes((fixtures / name).read_bytes())
        with ProjectStore.open(copy) as opened:
            listed = list_versions(opened)
            assert [(v.number, v.kind, v.who, v.name, v.rows) for v in listed.versions] == [
                (1, "import", "import golden.xlsx", "v1", 3),
                (2, "edit", "ana", "", 3),
            ]
            assert [(r.kind, r.version, r.recorded) for r in listed.runs] == [
                ("lexical", 2, False),
                ("judge", 2, False),
            ]
            changed = diff_versions(opened, "1", "2").diff.changed
            assert [(r.question_id, [c.field for c in r.changes]) for r in changed] == [("q2", ["answer"])]


def test_golden_export_has_the_change_log_and_imports_back_unchanged(
    store: ProjectStore, tmp_path: Path
) -> None:
    old = _item(store, "q06")
    curation.edit_golden_item(store, replace(old, question="What challenge did AWS name?"), reviewer="Ana")
    out = tmp_path / "golden.xlsx"
    assert export_golden(store, out) == 10
    log = openpyxl.load_workbook(out)["Change log"]
    rows = [[c.value for c in row] for row in log.iter_rows()]
    assert rows[0] == ["version", "when", "who", "question id", "field", "before", "after"]
    assert [r[0] for r in rows[1:]] == ["v1", "v2"]
    assert rows[2][2:] == ["Ana", "q06", "question", old.question, "What challenge did AWS name?"]
    # Importing the export back reads the golden sheet, finds nothing changed: no new version.
    before = list_versions(store).versions
    import_inputs(store, out, sample_dir() / "responses.csv")
    assert list_versions(store).versions == before


def test_the_report_names_the_golden_version_its_run_scored(store: ProjectStore, tmp_path: Path) -> None:
    run_id = score_project(store)
    assert run_version_label(store, run_id) == "v1"
    name_version(store, "as imported")
    q03 = _item(store, "q03")
    curation.edit_golden_item(store, replace(q03, fact=q03.fact + "<OR>410 Terry Ave. N."), reviewer="Ana")
    assert run_version_label(store, run_id) == "v2 (re-scored in place from v1)"
    curation.edit_golden_item(store, replace(_item(store, "q06"), notes="reframe"), reviewer="Ben")
    assert run_version_label(store, run_id) == "v2 (re-scored in place from v1); the golden set is at v3 now"
    out = tmp_path / "report.xlsx"
    export_report(store, out)
    about = {
        row[0]: row[1] for row in openpyxl.load_workbook(out)["About"].iter_rows(values_only=True) if row
    }
    assert about["Golden-set version"] == "v2 (re-scored in place from v1); the golden set is at v3 now"


def test_an_old_run_is_labelled_with_the_version_current_at_its_start(tmp_path: Path) -> None:
    copy = tmp_path / "format2.goldenlens"
    copy.write_bytes((Path(__file__).parents[1] / "store" / "fixtures" / "format2.goldenlens").read_bytes())
    with ProjectStore.open(copy) as opened:
        assert run_version_label(opened, 1) == "v2 (the version current when the run started)"
        assert run_version_label(opened, 99) == ""


def test_a_golden_set_leaving_questions_out_says_which(tmp_path: Path) -> None:
    """Importing a 3-question golden set into a 10-question project dropped 7 questions from
    its current set with no word (only their responses' "not in the golden set" lines, cut off
    after twenty). The import says how many leave and which; the history keeps them."""
    project = tmp_path / "p.goldenlens"
    lines = (sample_dir() / "golden.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    three = tmp_path / "three.csv"
    three.write_text("".join(lines[:4]), encoding="utf-8")
    with ProjectStore.open(project, create=True) as store:
        first = import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        assert not [p for p in first.problems if "not in this golden set" in p.message]
        fewer = import_inputs(store, three, sample_dir() / "responses.csv")
        (said,) = [p for p in fewer.problems if "not in this golden set" in p.message]
        assert fewer.problems[0] is said  # first, before the responses' own lines
        assert (said.file, said.severity.value) == ("three.csv", "warning")
        assert said.message == (
            "7 questions of the 10 the project had are not in this golden set (q04, q05, q06, q07, "
            "q08, q09, q10): they leave the project's questions; the history keeps them "
            "(goldenlens versions p.goldenlens)."
        )
        assert store.golden.ids() == ["q01", "q02", "q03"]
        again = import_inputs(store, three, sample_dir() / "responses.csv")
        assert not [p for p in again.problems if "not in this golden set" in p.message]
