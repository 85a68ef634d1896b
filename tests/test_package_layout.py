"""The package's rooms (issue 20): every folder is a room the README's Design tree names with
what it holds, no folder holds more than 16 modules directly, no module is over 500 lines, and
every room's ``__init__`` says in its first line what it is for.

The expected tree is read from the README a newcomer reads, not from the code: a folder added
without a line there, or a line left behind by a folder moved away, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "desktop" / "goldenlens"
MAX_MODULES = 16
MAX_LINES = 500


def _rooms_on_disk() -> set[str]:
    return {
        init.parent.relative_to(PACKAGE).as_posix()
        for init in PACKAGE.rglob("__init__.py")
        if init.parent != PACKAGE and "__pycache__" not in init.parts
    }


def _rooms_in_readme() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```text\ndesktop/goldenlens/\n", 1)[1].split("```", 1)[0]
    rooms: set[str] = set()
    path: list[str] = []
    for line in block.splitlines():
        found = re.match(r"( +)([a-z_]+)/ ", line)
        if found is None:
            continue
        depth = len(found.group(1)) // 4
        path = [*path[: depth - 1], found.group(2)]
        rooms.add("/".join(path))
    return rooms


def test_the_readme_tree_names_every_room_and_only_those() -> None:
    on_disk, in_readme = _rooms_on_disk(), _rooms_in_readme()
    assert on_disk - in_readme == set(), "rooms the README's Design tree does not name"
    assert in_readme - on_disk == set(), "rooms in the README's Design tree that no longer exist"


@pytest.mark.parametrize("room", sorted(_rooms_on_disk()))
def test_each_room_says_what_it_is_for(room: str) -> None:
    first = (PACKAGE / room / "__init__.py").read_text(encoding="utf-8").split("\n", 1)[0]
    assert first.startswith('"""'), f"{room}/__init__.py has no docstring"
    assert len(first) > 20, f"{room}/__init__.py: its docstring's first line says too little"


def test_no_folder_is_crowded_and_no_module_is_long() -> None:
    crowded = {
        folder.relative_to(PACKAGE).as_posix() or ".": count
        for folder in [PACKAGE, *(PACKAGE / room for room in _rooms_on_disk())]
        if (count := len(list(folder.glob("*.py")))) > MAX_MODULES
    }
    long = {
        module.relative_to(PACKAGE).as_posix(): lines
        for module in PACKAGE.rglob("*.py")
        if (lines := len(module.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert crowded == {}
    assert long == {}
