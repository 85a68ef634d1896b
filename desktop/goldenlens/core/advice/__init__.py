"""The curation advisor: diagnoses and their one-click fixes."""
