"""The drafts queue: review drafted golden rows."""
