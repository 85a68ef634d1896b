"""The advisor pane and its controller."""
