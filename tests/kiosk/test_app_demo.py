"""``kiosk demo GAME``: a game's example log refereed through the live app."""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from kiosk.commands.demo import example_log, register, run  # noqa: E402
from kiosk.replay import replay_events  # noqa: E402
from kiosk.tablelog import read_table_log  # noqa: E402


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["demo", *argv])


def test_a_demo_plays_the_example_to_its_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(parse("smear", "--headless", "--pace", "500", "--duration", "30")) == 0
    out = capsys.readouterr().out
    header, events = read_table_log(example_log("smear"))
    report = replay_events(header, events)
    totals = ", ".join(f"{s} {t}" for s, t in report.totals.items())
    assert f"game over; totals: {totals}" in out


def test_an_unknown_game_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(parse("chess", "--headless")) == 2
    assert capsys.readouterr().err.startswith("kiosk demo: unknown game 'chess'")
