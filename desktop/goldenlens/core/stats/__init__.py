"""Deciding between pipelines: bootstrap, McNemar, verdicts, CI gates."""
