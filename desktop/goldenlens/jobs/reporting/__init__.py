"""A stored run loaded and exported; run history, regressions."""
