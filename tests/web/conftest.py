"""Fixtures for the web tests: a database per test (SQLite, and PostgreSQL when one is given),
an in-process app with the counting game added, and real server processes for kill-and-restart.

PostgreSQL runs when QUARTERDECK_TEST_POSTGRES_URL names a server (scripts/ci-services.sh starts
one and prints it). Without it those tests are skipped, unless QUARTERDECK_REQUIRE_SERVICES is set
(as in CI), where a missing service is a failure.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, make_url, text

from quarterdeck.store.models import metadata
from quarterdeck.web import Settings, create_app
from tests.web.counting_game import CatalogueWithCounting

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("QUARTERDECK_TEST_POSTGRES_URL")
REQUIRE_SERVICES = bool(os.environ.get("QUARTERDECK_REQUIRE_SERVICES"))


def missing_service(what: str) -> None:
    """Skip locally; fail where the services are promised (CI)."""
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} is required here (QUARTERDECK_REQUIRE_SERVICES is set) but missing")
    pytest.skip(f"{what} not available")


def reset_postgres(url: str) -> None:
    engine = create_engine(url)
    metadata.drop_all(engine)
    engine.dispose()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A database of this test run's own on the server QUARTERDECK_TEST_POSTGRES_URL names, dropped
    at the end: two runs on one server (or two pytest-xdist workers) never see each other's tables."""
    if not POSTGRES_URL:
        missing_service("PostgreSQL (QUARTERDECK_TEST_POSTGRES_URL)")
    server = make_url(POSTGRES_URL)
    private = f"{server.database}_{os.getpid()}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{private}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{private}"'))
    yield server.set(database=private).render_as_string(hide_password=False)
    with admin.connect() as connection:  # FORCE: a killed server's pool may still hold a connection
        connection.execute(text(f'DROP DATABASE IF EXISTS "{private}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    url = request.getfixturevalue("postgres_url")
    reset_postgres(url)
    return url


def make_app(database_url: str, catalogue: Any = None, **settings: Any) -> Any:
    """The app over the registered games and the counting race (or `catalogue`), rate limits lifted."""
    options = {"rate_burst": 10_000, "rate_per_second": 10_000, **settings}
    return create_app(Settings(database_url=database_url, **options), catalogue or CatalogueWithCounting())


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(database_url)) as test_client:
        yield test_client


def new_game(client: Any, **body: Any) -> dict[str, Any]:
    """Create a game (the counting race, with a friend, unless told otherwise)."""
    response = client.post("/api/games", json={"game": "counting", "opponent": "invite", "seed": 1, **body})
    assert response.status_code == 201, response.text
    return response.json()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_players(client: Any, **body: Any) -> tuple[str, str, str]:
    """A game with a friend: (game id, blue's token, red's token)."""
    created = new_game(client, **body)
    joined = client.post(f"/api/games/{created['id']}/join", json={"invitation": created["invitations"]["red"]})
    assert joined.status_code == 200, joined.text
    return created["id"], created["token"], joined.json()["token"]


class ServerProcess:
    """`python -m tests.web.serve_counting` on a port of its own; killed with SIGKILL, never asked
    nicely. The test binds the listening socket (port 0: the system picks a free one) and the
    server inherits it, so no other process can take the port between choosing and binding it."""

    def __init__(self, database_url: str):
        self.database_url = database_url
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.listener.set_inheritable(True)
        weakref.finalize(self, self.listener.close)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.web.serve_counting", self.database_url, str(self.listener.fileno())],
            cwd=ROOT,
            pass_fds=(self.listener.fileno(),),
            env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))},
            start_new_session=True,  # its own process group: the kill takes its computer workers too
        )
        for _ in range(300):  # up to a minute for a cold start on a busy machine
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                httpx.get(f"{self.url}/api/catalogue", timeout=1).raise_for_status()
                return self
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL to the server and every process it started, as when the machine loses power."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # the server and everything it started are gone already
        self.process.wait()


@pytest.fixture
def servers(database_url: str) -> Iterator[list[ServerProcess]]:
    """Server processes started by the test; every one is killed at the end."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.kill()
