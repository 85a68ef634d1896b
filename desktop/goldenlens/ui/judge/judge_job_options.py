"""The options of a judge job started from the app (drafting, the golden review), read from
the saved judge settings and checked before any worker starts: a model that cannot load, or a
setting out of range, is one error dialog instead of a failed run."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtWidgets import QWidget

from goldenlens.settings.judge_preferences import JudgeSettings, load_judge_settings
from goldenlens.ui.errors import show_error
from goldenlens.ui.judge.judge_settings import judge_model_problems

Options = TypeVar("Options")


def checked_judge_options(
    parent: QWidget, title: str, make: Callable[[JudgeSettings], Options], *, scripted: bool
) -> Options | None:
    """``make(settings)`` for the saved judge settings, or ``None`` after showing why it cannot
    run (``title`` names what could not start). ``scripted``: a test or screenshot brings its
    own judge, so the model files are not checked."""
    settings = load_judge_settings()
    problems = [] if scripted else judge_model_problems(settings)
    if problems:
        show_error(parent, title, ValueError(" ".join(problems)))
        return None
    try:
        return make(settings)
    except ValueError as error:
        show_error(parent, title, error)
        return None
