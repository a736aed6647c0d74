"""The printed table mat as a camera sees it: how well the calibration finds table millimetres on it,
and how long ``kiosk mat`` takes to write it.

For each game's mat (``vision/mat.py``, default 1560 × 878 mm, four seats, smear and kierki four,
3-13 and Gnoming as well) the whole-mat raster is rendered at ``--dpi`` (what the printer puts on
paper), then seen by random overhead cameras: the mat filling 70-95 % of a 1280×720 or 1920×1080
frame (whole: a view that cuts it is drawn again), turned up to ±8°, with perspective (a camera
up to 15° off vertical), defocus blur, sensor noise and a dim, uneven light. ``calibrate()``
fits the homography from the markers, and the error is measured at every marker corner, every
zone corner of the layout and a 9×5 grid over the mat (table millimetres, against the exact
projection used to make the picture).

Then the time to write the PDF (A2, 150 dpi) and the PNG (150 dpi) of the Nerts mat, as
``kiosk mat`` does, and their sizes.

Usage::

    python bench/bench_mat_calibration.py --views 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from vision.calibration import CalibrationError, TableMat, calibrate  # noqa: E402
from vision.layout import layout_for  # noqa: E402
from vision.mat import MatArt, px_per_mm, render_mat  # noqa: E402
from vision.mat_print import write_mat_files  # noqa: E402

GAMES = (("nerts", 4), ("kierki", 4), ("smear", 4), ("rummy_3_13", 4), ("gnoming", 3))
SEATS = ["Ana", "Ben", "Cal", "Dee"]


def random_view(
    rng: np.random.Generator, w_px: int, h_px: int
) -> tuple[NDArray[np.float64], tuple[int, int]]:
    """A homography from the printed raster to a random camera picture that shows the whole mat,
    and the picture's size."""
    while True:
        h, size = _any_view(rng, w_px, h_px)
        corners = np.array([[0, 0, 1], [w_px, 0, 1], [w_px, h_px, 1], [0, h_px, 1]], np.float64) @ h.T
        xy = corners[:, :2] / corners[:, 2:]
        if (xy >= 4).all() and (xy[:, 0] <= size[0] - 4).all() and (xy[:, 1] <= size[1] - 4).all():
            return h, size


def _any_view(rng: np.random.Generator, w_px: int, h_px: int) -> tuple[NDArray[np.float64], tuple[int, int]]:
    size = (1280, 720) if rng.random() < 0.5 else (1920, 1080)
    fill = rng.uniform(0.70, 0.95)
    scale = min(size[0] / w_px, size[1] / h_px) * fill
    angle = np.radians(rng.uniform(-8, 8))
    c, s = np.cos(angle), np.sin(angle)
    corners = np.array([[0, 0], [w_px, 0], [w_px, h_px], [0, h_px]], np.float64) - (w_px / 2, h_px / 2)
    placed = corners @ np.array([[c, s], [-s, c]]) * scale
    # Perspective: the far side of the mat looks shorter (a camera up to ~15° off vertical).
    tilt = rng.uniform(-0.12, 0.12, 2)
    depth = 1 + placed @ tilt / max(size)
    placed = placed / depth[:, None]
    placed += np.array(size) / 2 + rng.uniform(-0.03, 0.03, 2) * size
    h = cv2.getPerspectiveTransform(
        (corners + (w_px / 2, h_px / 2)).astype(np.float32), placed.astype(np.float32)
    )
    return np.asarray(h, np.float64), size


def camera_picture(
    printed: NDArray[np.uint8], h: NDArray[np.float64], size: tuple[int, int], rng: np.random.Generator
) -> NDArray[np.uint8]:
    warped = cv2.warpPerspective(printed, h, size, flags=cv2.INTER_AREA, borderValue=(40, 45, 50))
    img = cv2.GaussianBlur(np.asarray(warped), (5, 5), rng.uniform(0.4, 1.2)).astype(np.float32)
    yy, xx = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
    light = rng.uniform(0.55, 0.9) + rng.uniform(0.0, 0.25) * xx / size[0]
    img = img * light[:, :, None] + rng.normal(0, rng.uniform(2, 6), img.shape)
    out: NDArray[np.uint8] = np.clip(img, 0, 255).astype(np.uint8)
    return out


def probe_points(art: MatArt) -> NDArray[np.float64]:
    mat = art.mat
    pts = [p for k in range(4) for p in mat.marker_corners_mm(k)]
    pts += [p for z in art.zones if z.kind in ("seat", "shared") for p in z.polygon]
    xs, ys = np.linspace(60, mat.width_mm - 60, 9), np.linspace(60, mat.height_mm - 60, 5)
    pts += [(float(x), float(y)) for x in xs for y in ys]
    return np.array(pts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--views", type=int, default=20, help="camera views per game")
    ap.add_argument("--dpi", type=float, default=60.0, help="resolution of the printed raster")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    s = px_per_mm(args.dpi)
    mm_to_print = np.array([[s, 0, -0.5], [0, s, -0.5], [0, 0, 1]])
    print(
        f"command: python bench/bench_mat_calibration.py --views {args.views} --dpi {args.dpi:g} "
        f"--seed {args.seed}"
    )
    every: list[float] = []
    failed = 0
    for game, n in GAMES:
        art = MatArt(TableMat(), layout_for(game, SEATS[:n]), game, game)
        printed = np.asarray(cv2.cvtColor(render_mat(art, args.dpi), cv2.COLOR_RGB2BGR), np.uint8)
        truth = probe_points(art)
        errors: list[float] = []
        rms: list[float] = []
        for _ in range(args.views):
            h, size = random_view(rng, printed.shape[1], printed.shape[0])
            picture = camera_picture(printed, h, size, rng)
            try:
                cal = calibrate(picture, art.mat)
            except CalibrationError:
                failed += 1
                continue
            if len(cal.markers) < 4:
                failed += 1
                continue
            homog = np.hstack([truth, np.ones((len(truth), 1))]) @ (h @ mm_to_print).T
            seen = homog[:, :2] / homog[:, 2:]
            found = np.array(cal.to_table(seen))
            errors.extend(np.hypot(*(found - truth).T).tolist())
            rms.append(cal.rms_px)
        every.extend(errors)
        if errors:
            print(
                f"{game:11s} {len(rms)}/{args.views} views calibrated: error median "
                f"{statistics.median(errors):.2f} mm, p95 {np.percentile(errors, 95):.2f} mm, max "
                f"{max(errors):.2f} mm over {len(truth)} points; marker rms median "
                f"{statistics.median(rms):.2f} px"
            )
    if every:
        print(
            f"all games: median {statistics.median(every):.2f} mm, p95 {np.percentile(every, 95):.2f} mm, "
            f"max {max(every):.2f} mm; views without all four markers found: {failed}"
        )
    art = MatArt(TableMat(), layout_for("nerts", SEATS), "nerts", "Nerts")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        files = write_mat_files(art, Path(tmp), paper="A2", dpi=150.0)
        took = time.perf_counter() - t0
        print(
            f"kiosk mat --game nerts --paper A2 --dpi 150: {took:.1f} s; PDF {len(files.plan.tiles)} pages "
            f"{files.pdf.stat().st_size / 1e6:.2f} MB, PNG {files.png_size[0]}x{files.png_size[1]} "
            f"{files.png.stat().st_size / 1e6:.2f} MB"
        )


if __name__ == "__main__":
    main()
