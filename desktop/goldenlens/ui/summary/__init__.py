"""The Summary tab: decisions and what reviewers would judge."""
