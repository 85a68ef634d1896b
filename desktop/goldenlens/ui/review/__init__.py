"""Detail pane, response cards, overrides, golden editor, review queue."""
