"""`quarterdeck serve`: the browser app on this machine (SQLite by default, PostgreSQL by DATABASE_URL)."""

from __future__ import annotations

import errno
import gc
import socket
import threading
import webbrowser

import typer

from ...core.errors import ScenarioError


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on (loopback unless you mean to share)"),
    port: int = typer.Option(8765, min=1, max=65535, help="port to listen on"),
    no_browser: bool = typer.Option(False, "--no-browser", help="print the address without opening a browser"),
    database: str = typer.Option(
        "", envvar="DATABASE_URL", help="database URL; default: an SQLite file in your data folder"
    ),
    workers: int = typer.Option(1, min=1, help="processes that think for the computer"),
) -> None:
    """Play in the browser: against the computer, at one screen, or with a friend online."""
    import uvicorn

    from ...web import UVICORN_OPTIONS, Settings, create_app

    settings = Settings(database_url=database, computer_workers=workers)
    _check_database(settings.database_url)
    _check_address(host, port)
    url = f"http://{host}:{port}/"
    typer.echo(f"Quarterdeck is at {url} (games stored in {_where(settings.database_url)}); Ctrl+C stops it.")
    if not no_browser:
        # Opened once the server has had a moment to start listening.
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    app = create_app(settings)
    steady_collector()
    uvicorn.run(app, host=host, port=port, **UVICORN_OPTIONS)


# Python's default (700, 10, 10) ran a full collection every ~700 moves under load, each walking
# every live game, 0.1 to 0.3 s with the server stopped; with these, one in a whole load test
# (docs/performance.md). Most of a move's garbage is freed by reference counting, not the collector.
GC_THRESHOLDS = (50_000, 50, 50)


def steady_collector() -> None:
    """Freeze what is loaded at start (code, tables: never garbage) out of the collector's sight,
    and collect young objects far less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _check_database(database_url: str) -> None:
    """Open the database (making its tables if new) before saying where the server is: a URL that
    names no database, or a file it cannot make, is the player's to fix, not a traceback."""
    from sqlalchemy.exc import SQLAlchemyError

    from ...store import GameStore

    try:
        GameStore(database_url).close()
    except (SQLAlchemyError, ValueError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise ScenarioError("--database", f"cannot open {_where(database_url)}: {reason}") from None


def _check_address(host: str, port: int) -> None:
    """Whether the server can listen there, asked before it says it is there."""
    try:
        socket.getaddrinfo(host, port)
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        # a name that does not resolve, or an address this machine does not have, is the host's fault
        at_fault = "--host" if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL else "--port"
        raise ScenarioError(at_fault, f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _where(database_url: str) -> str:
    return database_url.split("@")[-1] if "@" in database_url else database_url
