"""The `quarterdeck` command."""
