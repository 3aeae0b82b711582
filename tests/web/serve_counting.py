"""A real server process for the tests that kill it: the app with the counting game added.

python -m tests.web.serve_counting <database-url> <listening-socket-fd>

The test binds the socket (tests/web/conftest.py's ServerProcess) and passes it down.
"""

from __future__ import annotations

import socket
import sys

import uvicorn

from quarterdeck.web import UVICORN_OPTIONS, Settings, create_app
from tests.web.counting_game import CatalogueWithCounting


def main() -> None:
    database_url, listener = sys.argv[1], socket.socket(fileno=int(sys.argv[2]))
    settings = Settings(database_url=database_url, rate_burst=10_000, rate_per_second=10_000)
    app = create_app(settings, CatalogueWithCounting())
    uvicorn.Server(uvicorn.Config(app, **UVICORN_OPTIONS)).run(sockets=[listener])


if __name__ == "__main__":
    main()
