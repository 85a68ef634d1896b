"""Golden-set edits, reviewer decisions, the project's advice."""
