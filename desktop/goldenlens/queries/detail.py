"""One question's detail as the detail pane shows it (scores, flags, judge notes, spans).

The loader lives in :mod:`goldenlens.queries.detail_data` for now; this module is the name the
GUI imports, and :class:`~goldenlens.queries.project.ProjectQueries` reads a detail through it.
"""

from goldenlens.queries.detail_data import FlagNote, JudgeNote, PipelineDetail, QuestionDetail

__all__ = ["FlagNote", "JudgeNote", "PipelineDetail", "QuestionDetail"]
