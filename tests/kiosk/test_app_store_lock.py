"""Two kiosks on one event store: the second says so and does not start. It used to run, append
its table's events to the first one's game under the same numbers, and die on a UNIQUE constraint
with a traceback."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import fcntl  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import IO  # noqa: E402

import pytest  # noqa: E402

from kiosk.__main__ import main  # noqa: E402
from kiosk.app.runner import KioskStartError, _store_lock  # noqa: E402


def _first_kiosk(store: Path) -> IO[str]:
    """The lock a running kiosk holds on ``store``."""
    lock = open(store.with_name(store.name + ".lock"), "a")  # noqa: SIM115 - held until closed
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return lock


def test_a_second_kiosk_on_the_same_store_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "k.sqlite3"
    argv = ["run", "--headless", "--frames", "2", "--store", str(store)]
    first = _first_kiosk(store)
    assert main(argv) == 2
    assert "another kiosk is running on this event store" in capsys.readouterr().err
    assert not store.exists(), "the second kiosk wrote nothing"
    first.close()
    assert main(argv) == 0, "once the first has quit, the store is free"


def test_the_lock_is_the_operating_systems_so_a_crash_leaves_none(tmp_path: Path) -> None:
    store = tmp_path / "k.sqlite3"
    lock = _first_kiosk(store)
    with pytest.raises(KioskStartError), _store_lock(store):
        pass
    lock.close()  # what the kernel does for a process that dies
    with _store_lock(store):
        pass
