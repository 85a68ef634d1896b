"""llama.cpp's own log lines go to Python logging, never straight to stderr.

llama.cpp reports through one process-wide callback; llama-cpp-python's default callback
prints to stderr whatever reaches its threshold, so a warning such as
``llama_init_from_model: model default pooling_type is [1], but [0] was specified`` showed up
even under ``goldenlens -q``. :func:`route_llama_logs` replaces that callback with one that
hands each line to the ``goldenlens.llama_cpp`` logger, which does not propagate: the lines
are seen only by a handler attached to it on purpose (a developer chasing a load problem),
never by a user's terminal. The ctypes callback is kept alive for the life of the process.
"""

from __future__ import annotations

import ctypes
import logging
import threading
from typing import Any

__all__ = ["LOGGER_NAME", "route_llama_logs"]

LOGGER_NAME = "goldenlens.llama_cpp"
_logger = logging.getLogger(LOGGER_NAME)
_logger.propagate = False
_logger.addHandler(logging.NullHandler())
# ggml_log_level: NONE 0, INFO 1, WARN 2, ERROR 3, DEBUG 4, CONT 5 (continues the last line).
_LEVELS = {0: logging.CRITICAL, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR, 4: logging.DEBUG}
_lock = threading.Lock()
# The installed ctypes callback (kept referenced) and the level of the last line, which a
# CONT line continues.
_state: dict[str, Any] = {"callback": None, "level": logging.DEBUG}


def _log(level: int, text: bytes, _user_data: ctypes.c_void_p) -> None:
    _state["level"] = _LEVELS.get(level, _state["level"])
    line = text.decode("utf-8", errors="replace").rstrip("\n")
    if line:
        _logger.log(_state["level"], "%s", line)


def route_llama_logs() -> None:
    """Install the routing callback once (later calls do nothing); needs ``llama_cpp``."""
    import llama_cpp

    with _lock:
        if _state["callback"] is None:
            _state["callback"] = llama_cpp.llama_log_callback(_log)
            llama_cpp.llama_log_set(_state["callback"], ctypes.c_void_p(0))
