"""Subcommands of `quarterdeck`: each module here defines `register(app)` and is found automatically."""
