"""Importing inputs into a project (and the sample project)."""
