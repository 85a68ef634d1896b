"""Files in and out: sheets read faithfully, reports written whole."""
