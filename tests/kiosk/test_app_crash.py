"""Crash and resume: ``kiosk run`` killed with SIGKILL mid-game reopens the game where it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from kiosk.app.runner import bundled_log
from kiosk.replay import replay_events
from kiosk.store import list_sessions
from kiosk.tablelog import read_table_log


def kiosk(*args: str) -> list[str]:
    # The shipped demo game, replayed: fast and deterministic (the simulated table renders frames).
    return [sys.executable, "-m", "kiosk", "run", "--headless", "--camera", f"replay:{bundled_log()}", *args]


def env() -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def test_sigkill_mid_game_then_resume_finishes_with_the_right_scores(tmp_path: Path) -> None:
    store = tmp_path / "events.sqlite3"
    text_log = tmp_path / "rulings.txt"
    proc = subprocess.Popen(
        kiosk("--pace", "20", "--store", str(store), "--text-log", str(text_log)),
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        # Wait until the second hand is under way, then pull the plug.
        while time.monotonic() < deadline:
            if text_log.exists() and "hand 2: go" in text_log.read_text(encoding="utf-8"):
                break
            assert proc.poll() is None, "the kiosk exited before it was killed"
            time.sleep(0.05)
        else:
            raise AssertionError("the kiosk did not reach hand 2 in time")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    sessions = list_sessions(store)
    assert len(sessions) == 1 and not sessions[0].finished and sessions[0].events > 0
    stored_before = sessions[0].events

    done = subprocess.run(
        kiosk("--pace", "50", "--store", str(store), "--duration", "60"),
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    header, events = read_table_log(bundled_log())
    expected = replay_events(header, events)
    totals = ", ".join(f"{s} {t}" for s, t in expected.totals.items())
    assert f"game over; totals: {totals}" in done.stdout
    sessions = list_sessions(store)
    assert len(sessions) == 1, "the resumed run must continue the same game, not start another"
    assert sessions[0].finished and sessions[0].events == len(events) > stored_before
