"""The config and data folders by each system's convention (platformdirs): on Linux exactly
the XDG folders GoldenLens used before, so preferences saved by an earlier version are found;
the GOLDENLENS_* variables override them; on macOS a preferences file left in the folder an
earlier version used there (~/.config/goldenlens) is still read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from goldenlens.settings.folders import config_dir, config_file, data_dir
from goldenlens.settings.judge_preferences import JudgeSettings, load_judge_settings, save_judge_settings
from goldenlens.settings.preferences import Preferences, load_preferences, save_preferences

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the Linux folders")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder with no XDG variables and no GOLDENLENS_* overrides."""
    for name in ("GOLDENLENS_CONFIG_DIR", "GOLDENLENS_DATA_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_linux_folders_are_the_xdg_ones_goldenlens_always_used(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert config_dir() == home / ".config" / "goldenlens"
    assert data_dir() == home / ".local" / "share" / "goldenlens"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))
    assert config_dir() == home / "xdg-config" / "goldenlens"
    assert data_dir() == home / "xdg-data" / "goldenlens"
    monkeypatch.setenv("GOLDENLENS_CONFIG_DIR", str(home / "mine"))
    monkeypatch.setenv("GOLDENLENS_DATA_DIR", str(home / "data"))
    assert config_dir() == home / "mine"
    assert data_dir() == home / "data"


def test_preferences_saved_by_an_earlier_version_are_found_and_saved_in_place(home: Path) -> None:
    saved = home / ".config" / "goldenlens" / "preferences.json"
    saved.parent.mkdir(parents=True)
    saved.write_text(json.dumps({"schema_version": 1, "reviewer": "Ana", "recent_projects": ["/p/a"]}))
    loaded = load_preferences()
    assert (loaded.reviewer, loaded.recent_projects) == ("Ana", ("/p/a",))
    save_preferences(loaded.with_recent(Path("/p/b")))
    assert json.loads(saved.read_text(encoding="utf-8"))["recent_projects"] == ["/p/b", "/p/a"]
    assert sorted(p.name for p in saved.parent.iterdir()) == ["preferences.json"]  # no temporary file left
    save_judge_settings(JudgeSettings(seed=7))
    assert load_judge_settings().seed == 7
    assert (saved.parent / "judge_settings.json").is_file()


def test_macos_reads_preferences_left_in_the_folder_an_earlier_version_used(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    earlier = home / ".config" / "goldenlens"
    earlier.mkdir(parents=True)
    (earlier / "preferences.json").write_text(json.dumps({"reviewer": "Ana"}), encoding="utf-8")
    (earlier / "judge_settings.json").write_text(json.dumps({"seed": 9}), encoding="utf-8")
    monkeypatch.setattr(sys, "platform", "darwin")
    # platformdirs' Unix rules run here: the macOS folder name is the title, as on a Mac.
    assert config_dir().name == "GoldenLens"
    assert config_file("preferences.json") == earlier / "preferences.json"
    assert load_preferences().reviewer == "Ana"
    assert load_judge_settings().seed == 9
    save_preferences(Preferences(reviewer="Ben"))  # saving writes to the new folder...
    assert (config_dir() / "preferences.json").is_file()
    assert load_preferences().reviewer == "Ben"  # ...which is read from then on
    assert json.loads((earlier / "preferences.json").read_text(encoding="utf-8")) == {"reviewer": "Ana"}
