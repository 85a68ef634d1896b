"""The import wizard."""
