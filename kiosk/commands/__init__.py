"""Subcommands of the ``kiosk`` command line, one module each."""
