"""Reports are written whole or not at all, through symbolic links, never into a link loop.

The real full-disk cases (a tiny tmpfs, and a file-size limit) run the CLI in
tests/cli/test_cli_disk_full.py; these check the writer's rules on an ordinary folder.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from goldenlens.io.atomic_files import ExportError, write_atomically


def _write_json(path: Path) -> None:
    path.write_text(json.dumps({"rows": [1, 2, 3]}), encoding="utf-8")


def test_a_report_replaces_the_old_one_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    out.write_text("old", encoding="utf-8")
    write_atomically(out, _write_json)
    assert json.loads(out.read_text(encoding="utf-8")) == {"rows": [1, 2, 3]}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_failing_write_keeps_the_old_report_and_removes_the_partial_file(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    out.write_text("old", encoding="utf-8")

    def half_then_full(path: Path) -> None:
        path.write_text('{"rows": [1,', encoding="utf-8")  # a partial file really is on disk
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(ExportError) as caught:
        write_atomically(out, half_then_full)
    assert (
        str(caught.value) == f"Cannot write {out}: No space left on device (the existing file is unchanged)."
    )
    assert out.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_symbolic_link_is_written_through_and_kept(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    target = tmp_path / "reports" / "2023-q2.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "latest.json"
    link.symlink_to("reports/2023-q2.json")
    write_atomically(link, _write_json)
    assert link.is_symlink()
    assert json.loads(target.read_text(encoding="utf-8")) == {"rows": [1, 2, 3]}
    broken = tmp_path / "next.json"
    broken.symlink_to("reports/2023-q3.json")  # a broken link: writing creates its target
    write_atomically(broken, _write_json)
    assert broken.is_symlink()
    assert (tmp_path / "reports" / "2023-q3.json").exists()


def test_link_loops_folders_and_missing_folders_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    (tmp_path / "folder.json").mkdir()
    loop = tmp_path / "a.json"
    expected = {
        loop: f"Cannot write {loop}: it is a symbolic link loop (a.json → b.json → a.json).",
        tmp_path / "folder.json": f"Cannot write {tmp_path / 'folder.json'}: it is a folder.",
        tmp_path / "nowhere" / "r.json": (
            f"Cannot export to {tmp_path / 'nowhere' / 'r.json'}: the folder {tmp_path / 'nowhere'} "
            "does not exist."
        ),
    }
    for path, message in expected.items():
        with pytest.raises(ExportError) as caught:
            write_atomically(path, _write_json)
        assert str(caught.value) == message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "folder.json"]
