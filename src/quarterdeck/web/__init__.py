"""The browser app: an HTTP + WebSocket server over the game protocol, and its static client.

The server stores each game as its record (setup plus moves in notation) and rebuilds the state by
replay; the browser only draws what the server sends and posts notation text back.
"""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
