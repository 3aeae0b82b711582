"""`quarterdeck serve`: the browser app on this machine (SQLite by default, PostgreSQL by DATABASE_URL)."""

from __future__ import annotations

import threading
import webbrowser

import typer


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on (loopback unless you mean to share)"),
    port: int = typer.Option(8765, help="port to listen on"),
    no_browser: bool = typer.Option(False, "--no-browser", help="print the address without opening a browser"),
    database: str = typer.Option(
        "", envvar="DATABASE_URL", help="database URL; default: an SQLite file in your data folder"
    ),
    workers: int = typer.Option(1, help="processes that think for the computer"),
) -> None:
    """Play in the browser: against the computer, at one screen, or with a friend online."""
    import uvicorn

    from ...web import Settings, create_app

    settings = Settings(database_url=database, computer_workers=workers)
    url = f"http://{host}:{port}/"
    typer.echo(f"Quarterdeck is at {url} (games stored in {_where(settings.database_url)}); Ctrl+C stops it.")
    if not no_browser:
        # Opened once the server has had a moment to start listening.
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")


def _where(database_url: str) -> str:
    return database_url.split("@")[-1] if "@" in database_url else database_url
