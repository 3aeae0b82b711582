"""`quarterdeck serve` with a database or an address it cannot use: one line naming the flag, before
it claims to be anywhere, never a traceback."""

from __future__ import annotations

import socket

from .helpers import command


def test_a_database_it_cannot_open_is_named_before_the_server_says_where_it_is(tmp_path):
    for url, reason in (
        ("nosuch://x", "cannot open nosuch://x: Can't load plugin"),
        (f"sqlite:///{tmp_path}/no/such/folder/games.db", "unable to open database file"),
    ):
        result = command("serve", "--no-browser", "--port", "8765", "--database", url)
        said = " ".join(result.output.split())  # the message wraps at the terminal's width
        assert result.exit_code == 2, said
        assert "--database: " in said and reason in said and "Quarterdeck is at" not in said


def test_a_port_in_use_or_out_of_range_is_refused(tmp_path):
    database = f"sqlite:///{tmp_path}/games.db"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = command("serve", "--no-browser", "--port", str(port), "--database", database)
    assert result.exit_code == 2 and f"--port: cannot listen on 127.0.0.1:{port}" in result.output
    assert "Quarterdeck is at" not in result.output
    result = command("serve", "--no-browser", "--port", "99999", "--database", database)
    assert result.exit_code == 2 and "65535" in result.output
