"""Ctrl-C in any command: status 130 and "interrupted" on a line of its own, never a traceback
(it was glued to the progress counter: "500/677 framesinterrupted")."""

from __future__ import annotations

import argparse
import sys

import pytest

import kiosk.commands.replay
from kiosk.__main__ import main


def test_ctrl_c_is_status_130_and_a_line_of_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def counting_then_ctrl_c(args: argparse.Namespace) -> int:
        print("\r500/677 frames", end="", file=sys.stderr, flush=True)
        raise KeyboardInterrupt

    monkeypatch.setattr(kiosk.commands.replay, "run", counting_then_ctrl_c)
    assert main(["replay", "log.jsonl"]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == "interrupted"
