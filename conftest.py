"""Test-suite setup shared by ``tests/`` and the doctests of ``kiosk/``, ``vision/``, ``firmware_bridge/``."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from vision.cardart import debian

# Property tests check behaviour, not speed: on a shared, loaded machine an example can take longer than
# Hypothesis's default 200 ms deadline and fail a test that is right (seen with the table log's
# round-trip test). Speed is measured in bench/.
settings.register_profile("kiosk", deadline=None)
settings.load_profile("kiosk")


def pytest_configure(config: pytest.Config) -> None:
    # The simulator draws its held-out designs from whatever is installed: the Debian decks where the
    # training pipeline put them, the procedural designs alone on a bare machine. Tests compare
    # recognizer and tracker figures with floors, so they run on the procedural designs everywhere
    # (set in the environment, so the kiosk commands tests start as subprocesses see it too).
    os.environ[debian.DISABLE_ENV] = "off"
