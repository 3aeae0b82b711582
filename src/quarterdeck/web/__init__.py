"""The browser app: an HTTP + WebSocket server over the game protocol, and its static client.

The server stores each game as its record (setup plus moves in notation) and rebuilds the state by
replay; the browser only draws what the server sends and posts notation text back.
"""

from typing import Any

from .app import create_app
from .settings import Settings
from .sockets import MAX_FRAME_BYTES

# How `quarterdeck serve` runs uvicorn (and the tests' real server processes with it).
UVICORN_OPTIONS: dict[str, Any] = {"log_level": "warning", "access_log": False, "ws_max_size": MAX_FRAME_BYTES}

__all__ = ["UVICORN_OPTIONS", "Settings", "create_app"]
