"""Keeps pytest's doctest collection out of the MicroPython firmware and its Node.js harness."""

collect_ignore_glob = ["firmware/*"]
