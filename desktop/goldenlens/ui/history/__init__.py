"""Run history and golden-set versions dialogs."""
