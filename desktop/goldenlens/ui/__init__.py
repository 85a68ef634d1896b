"""The desktop app, the only PySide6 importer: window, session, workers."""
