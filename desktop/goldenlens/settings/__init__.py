"""User preferences and the per-OS folders they live in."""
