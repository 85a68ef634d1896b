"""Golden-set values: drafts, criteria, versions and their diff, source chunks."""
