"""The Labels tab: a reviewer's verdicts on the current question's answers, one key each, and
what reviewers would judge, updated as they label (issue 21)."""
