"""Labelling: reviewer verdicts on responses, the plans that choose which to label, and the
human-calibrated estimates built on them (issue 21)."""
