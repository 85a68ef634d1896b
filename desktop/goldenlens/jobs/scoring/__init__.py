"""Lexical scoring: in a project, straight from files, resumed."""
