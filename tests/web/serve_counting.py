"""A real server process for the tests that kill it: the app with the counting game added.

python -m tests.web.serve_counting <database-url> <port>
"""

from __future__ import annotations

import sys

import uvicorn

from quarterdeck.web import Settings, create_app
from tests.web.counting_game import CatalogueWithCounting


def main() -> None:
    database_url, port = sys.argv[1], int(sys.argv[2])
    settings = Settings(database_url=database_url, rate_burst=10_000, rate_per_second=10_000)
    app = create_app(settings, CatalogueWithCounting())
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
