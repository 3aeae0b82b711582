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


def test_an_address_this_machine_cannot_listen_on_names_the_host(tmp_path):
    database = f"sqlite:///{tmp_path}/games.db"
    for host in ("999.1.1.1", "192.0.2.1"):  # no such address; a documentation address no machine here has
        result = command("serve", "--no-browser", "--host", host, "--port", "8765", "--database", database)
        said = " ".join(result.output.split())
        assert result.exit_code == 2 and f"--host: cannot listen on {host}:8765" in said, said


def test_no_process_to_think_for_the_computer_is_refused(tmp_path):
    database = f"sqlite:///{tmp_path}/games.db"
    with socket.create_server(("127.0.0.1", 0)) as taken:  # were it let through, the server would stop at the port
        port = str(taken.getsockname()[1])
        result = command("serve", "--no-browser", "--workers", "0", "--port", port, "--database", database)
    assert result.exit_code == 2 and "--workers" in result.output and "Quarterdeck is at" not in result.output
