"""Command-line options the benchmarks share (imported from the scripts' own folder)."""

from __future__ import annotations

import argparse


def add_detector_side(parser: argparse.ArgumentParser) -> None:
    """``--detector-side PX``: the recognizer's detector long side for its first look at a frame
    (:attr:`vision.recognizer.Recognizer.detector_side`)."""
    parser.add_argument(
        "--detector-side",
        type=int,
        default=None,
        metavar="PX",
        help="the recognizer's detector long side for its first look at a frame (default: half the "
        "frame's, 640; 960 finds more small cards for about twice the time)",
    )
