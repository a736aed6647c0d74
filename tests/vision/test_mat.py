"""The printable table mat: the camera calibrates on what it prints, its PDF is valid and its pages
put back together are the mat, at true scale.

Low dpi keeps these fast; the drawing is the same at any dpi (pixel windows of one raster).
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.calibration import TableMat, calibrate
from vision.layout import layout_for
from vision.mat import BACKGROUNDS, MatArt, MatError, png_bytes, px_per_mm, raster_size, render_mat
from vision.mat_print import MARGIN_MM, OVERLAP_MM, PAPERS, mat_pdf, plan_pages
from vision.pdf_writer import MM_TO_PT

SEATS = ["Ana", "Ben", "Cal", "Dee"]


def nerts_art(mat: TableMat | None = None) -> MatArt:
    return MatArt(mat or TableMat(), layout_for("nerts", SEATS), "nerts", "Nerts")


# -- a small PDF reader, enough to check what a printer's PDF reader relies on ----------------


@dataclass
class PdfImage:
    pixels: NDArray[np.uint8]
    placed_pt: tuple[float, float, float, float]
    """The image's cm matrix: width, height, x, y in points."""


@dataclass
class PdfPageRead:
    media_box: tuple[float, float, float, float]
    content: str
    images: list[PdfImage]


def read_objects(pdf: bytes) -> dict[int, bytes]:
    """Every object by number, through the xref table (checking each offset and startxref)."""
    start = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", pdf).group(1))  # type: ignore[union-attr]
    assert pdf[start : start + 4] == b"xref"
    head = re.match(rb"xref\s+0\s+(\d+)\s+", pdf[start:])
    assert head is not None
    count = int(head.group(1))
    table = pdf[start + head.end() : start + head.end() + 20 * count]
    entries = [table[20 * k : 20 * k + 20] for k in range(count)]
    assert entries[0].startswith(b"0000000000 65535 f")
    objects: dict[int, bytes] = {}
    for number, entry in enumerate(entries[1:], start=1):
        assert len(entry) == 20 and entry.endswith(b" n \n") or entry.endswith(b" n\r\n")
        offset = int(entry[:10])
        assert pdf[offset:].startswith(f"{number} 0 obj".encode()), f"xref offset of object {number} is wrong"
        end = pdf.index(b"endobj", offset)
        objects[number] = pdf[offset:end]
    trailer = pdf[start + head.end() + 20 * count :]
    assert re.search(rb"/Size %d\b" % (count), trailer)
    return objects


def stream_of(obj: bytes) -> bytes:
    length = int(re.search(rb"/Length (\d+)", obj).group(1))  # type: ignore[union-attr]
    begin = obj.index(b"stream\n") + len(b"stream\n")
    data = obj[begin : begin + length]
    assert obj[begin + length :].lstrip().startswith(b"endstream")
    return data


def decode_image(obj: bytes) -> NDArray[np.uint8]:
    w = int(re.search(rb"/Width (\d+)", obj).group(1))  # type: ignore[union-attr]
    h = int(re.search(rb"/Height (\d+)", obj).group(1))  # type: ignore[union-attr]
    assert b"/ColorSpace /DeviceRGB" in obj and b"/BitsPerComponent 8" in obj
    raw = np.frombuffer(zlib.decompress(stream_of(obj)), np.uint8).reshape(h, 1 + 3 * w)
    assert b"/Predictor 15" in obj and (raw[:, 0] == 2).all()  # PNG "Up" on every row
    rows = raw[:, 1:].copy()
    for y in range(1, h):
        rows[y] = rows[y] + rows[y - 1]
    return rows.reshape(h, w, 3)


def read_pdf(pdf: bytes) -> list[PdfPageRead]:
    assert pdf.startswith(b"%PDF-1.4\n")
    objects = read_objects(pdf)
    catalog = next(o for o in objects.values() if b"/Type /Catalog" in o)
    tree = objects[int(re.search(rb"/Pages (\d+) 0 R", catalog).group(1))]  # type: ignore[union-attr]
    kids = [int(k) for k in re.findall(rb"(\d+) 0 R", tree.split(b"/Kids")[1].split(b"]")[0])]
    assert int(re.search(rb"/Count (\d+)", tree).group(1)) == len(kids)  # type: ignore[union-attr]
    pages = []
    for k in kids:
        page = objects[k]
        assert b"/Type /Page " in page
        box = tuple(float(v) for v in re.search(rb"/MediaBox \[([^\]]+)\]", page).group(1).split())  # type: ignore[union-attr]
        content = stream_of(objects[int(re.search(rb"/Contents (\d+) 0 R", page).group(1))]).decode("latin-1")  # type: ignore[union-attr]
        images = []
        for name, number in re.findall(rb"/(\w+) (\d+) 0 R", page.split(b"/XObject <<")[1].split(b">>")[0]):
            cm = re.search(rf"q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm /{name.decode()} Do Q", content)
            assert cm is not None, "every image is drawn"
            w, h, x, y = (float(v) for v in cm.groups())
            images.append(PdfImage(decode_image(objects[int(number)]), (w, h, x, y)))
        pages.append(PdfPageRead(box, content, images))  # type: ignore[arg-type]
    return pages


# -- the tests -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def a2_pdf() -> tuple[bytes, object]:
    return mat_pdf(nerts_art(), "A2", dpi=40.0)


def test_the_pdf_is_valid_pdf_with_one_a2_page_per_tile(a2_pdf: tuple[bytes, object]) -> None:
    pdf, plan = a2_pdf
    pages = read_pdf(pdf)
    assert len(pages) == len(plan.tiles) == 9  # type: ignore[attr-defined]
    w, h = PAPERS["A2"]
    for page in pages:
        assert page.media_box[:2] == (0.0, 0.0)
        assert page.media_box[2:] == pytest.approx((h * MM_TO_PT, w * MM_TO_PT), abs=0.01)  # landscape
        assert "print at 100 %" in page.content.lower()
        assert len(page.images) == 1


def test_the_pages_put_back_by_their_stated_offsets_are_the_whole_mat(a2_pdf: tuple[bytes, object]) -> None:
    pdf, _ = a2_pdf
    dpi = 40.0
    s = px_per_mm(dpi)
    whole = render_mat(nerts_art(), dpi)
    stitched = np.zeros_like(whole)
    covered = np.zeros(whole.shape[:2], bool)
    for page in read_pdf(pdf):
        found = re.search(r"mat x ([\d.]+) to ([\d.]+) mm, y ([\d.]+) to ([\d.]+) mm", page.content)
        assert found is not None, "each page states which part of the mat it carries"
        x0, x1, y0, y1 = (float(v) for v in found.groups())
        (img,) = page.images
        tile = img.pixels
        px, py = int(round(x0 * s)), int(round(y0 * s))
        assert tile.shape[1] == pytest.approx((x1 - x0) * s, abs=1) and tile.shape[0] == pytest.approx(
            (y1 - y0) * s, abs=1
        )
        # True scale: the image is printed at 25.4 / dpi mm per pixel, whatever the page.
        w_pt, h_pt, x_pt, y_pt = img.placed_pt
        assert w_pt / MM_TO_PT == pytest.approx(tile.shape[1] / s, abs=0.01)
        assert h_pt / MM_TO_PT == pytest.approx(tile.shape[0] / s, abs=0.01)
        assert x_pt >= MARGIN_MM * MM_TO_PT - 0.01 and y_pt >= MARGIN_MM * MM_TO_PT - 0.01
        # Where tiles overlap they carry the same pixels.
        here = stitched[py : py + tile.shape[0], px : px + tile.shape[1]]
        seen = covered[py : py + tile.shape[0], px : px + tile.shape[1]]
        assert np.abs(here[seen].astype(int) - tile[seen].astype(int)).max(initial=0) <= 2
        here[...] = tile
        seen[...] = True
    assert covered.all(), "the pages cover the whole mat"
    diff = np.abs(stitched.astype(int) - whole.astype(int))
    assert diff.max() <= 2 and (diff > 0).mean() < 0.001


def test_tiles_overlap_enough_and_each_marker_lies_whole_on_one_sheet() -> None:
    mat = TableMat()
    for paper, pages in (("A2", 9), ("A3", 20)):
        plan = plan_pages(mat, paper, 150.0)
        assert len(plan.tiles) == pages
        s = px_per_mm(150.0)
        for r in range(plan.rows):
            for c in range(plan.cols - 1):
                a, b = plan.tile(r, c), plan.tile(r, c + 1)
                assert (a.x + a.w - b.x) / s >= OVERLAP_MM
        assert plan.tile(plan.rows - 1, plan.cols - 1).x + plan.tiles[-1].w == raster_size(mat, 150.0)[0]
        for x0, y0, x1, y1 in mat.marker_boxes_mm():
            assert any(
                t.x <= x0 * s and t.y <= y0 * s and x1 * s <= t.x + t.w and y1 * s <= t.y + t.h
                for t in plan.tiles
            )


def test_a_mat_that_fits_on_one_sheet_is_one_centred_page() -> None:
    mat = TableMat(500.0, 350.0)
    plan = plan_pages(mat, "A2", 30.0)
    assert (plan.rows, plan.cols) == (1, 1)
    assert plan.tiles[0].w == raster_size(mat, 30.0)[0]


def test_unknown_paper_names_the_choices() -> None:
    with pytest.raises(MatError, match=r"unknown paper 'B4' \(choose A2, A3, A4\)"):
        plan_pages(TableMat(), "B4", 100.0)


def test_the_printed_markers_are_exactly_their_size() -> None:
    dpi = 50.0
    s = px_per_mm(dpi)
    mat = TableMat()
    img = render_mat(nerts_art(mat), dpi)
    for k in range(4):
        (x0, y0), _, (x1, y1), _ = mat.marker_corners_mm(k)
        # A pixel row inside the marker's black top border: its darkness adds up to the side.
        row = int((y0 + mat.marker_mm / 12) * s)
        dark = (255.0 - img[row, int(x0 * s) - 5 : int(x1 * s) + 6, 1].astype(float)) / 255.0
        assert dark.sum() / s == pytest.approx(mat.marker_mm, abs=0.15)
        col = int((x0 + mat.marker_mm / 12) * s)
        dark = (255.0 - img[int(y0 * s) - 5 : int(y1 * s) + 6, col, 1].astype(float)) / 255.0
        assert dark.sum() / s == pytest.approx(mat.marker_mm, abs=0.15)


def test_zones_are_drawn_where_the_layout_says() -> None:
    dpi = 60.0
    s = px_per_mm(dpi)
    art = nerts_art()
    img = render_mat(art, dpi)
    ground = np.array(BACKGROUNDS["green"].ground)
    seat = next(z for z in art.zones if z.kind == "seat" and z.label.endswith("Ana"))
    card = next(z for z in art.zones if z.kind == "card" and z.label == "WORK 1")
    for zone in (seat, card):
        for (ax, ay), (bx, by) in zip(zone.polygon, zone.polygon[1:], strict=False):
            mx, my = (ax + bx) / 2, (ay + by) / 2  # the middle of each side is line, not ground
            around = img[int(my * s) - 1 : int(my * s) + 2, int(mx * s) - 1 : int(mx * s) + 2].astype(int)
            assert np.abs(around - ground).sum(axis=2).max() > 200, (zone.label, mx, my)
    inside = img[int(card.label_at[1] * s) - 20, int(card.label_at[0] * s)].astype(int)
    assert np.abs(inside - ground).sum() == 0  # and the ground between the lines


def test_the_camera_calibrates_on_the_printed_mat_to_within_2_mm() -> None:
    """The key promise: a camera that sees the printed mat (in perspective, smaller, blurred and
    noisy) gets table millimetres right, at the markers and at the layout's zones."""
    dpi = 30.0
    s = px_per_mm(dpi)
    art = nerts_art()
    mat = art.mat
    printed = cv2.cvtColor(render_mat(art, dpi), cv2.COLOR_RGB2BGR)
    # The raster's pixel i covers [i, i + 1) / s mm, so OpenCV's pixel-centre coordinate is x s - 1/2.
    mm_to_print = np.array([[s, 0, -0.5], [0, s, -0.5], [0, 0, 1]])
    h_px, w_px = printed.shape[:2]
    src = np.array([[0, 0], [w_px, 0], [w_px, h_px], [0, h_px]], np.float32)
    dst = np.array([[130, 70], [1180, 40], [1250, 690], [60, 660]], np.float32)  # tilted camera, 1280x720
    print_to_camera = cv2.getPerspectiveTransform(src, dst)
    camera = cv2.warpPerspective(
        printed, print_to_camera, (1280, 720), flags=cv2.INTER_AREA, borderValue=(40, 45, 50)
    )
    rng = np.random.default_rng(5)
    camera = cv2.GaussianBlur(camera, (3, 3), 0.7)
    camera = np.clip(camera + rng.normal(0, 3, camera.shape), 0, 255).astype(np.uint8)
    cal = calibrate(np.asarray(camera, np.uint8), mat)
    assert cal.markers == (0, 1, 2, 3)
    seat = next(z for z in art.zones if z.kind == "seat")
    card = next(z for z in art.zones if z.kind == "card")
    points = [p for k in range(4) for p in mat.marker_corners_mm(k)]
    points += [seat.polygon[0], card.polygon[0], (mat.width_mm / 2, mat.height_mm / 2)]
    truth = np.array(points)
    homog = np.hstack([truth, np.ones((len(truth), 1))]) @ (print_to_camera @ mm_to_print).T
    seen = homog[:, :2] / homog[:, 2:]
    found = np.array(cal.to_table(seen))
    errors = np.hypot(*(found - truth).T)
    assert errors.max() < 2.0, errors


def test_the_png_states_its_dpi() -> None:
    data = png_bytes(np.zeros((4, 6, 3), np.uint8), 150.0)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert (ppm_x, ppm_y, unit) == (5906, 5906, 1)  # 150 dpi in pixels per metre
    assert zlib.crc32(data[at : at + 13]) == struct.unpack(">I", data[at + 13 : at + 17])[0]
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert img is not None and img.shape == (4, 6, 3)


@pytest.mark.parametrize("game, seats", [("kierki", 4), ("smear", 4), ("rummy_3_13", 3), ("gnoming", 2)])
def test_every_game_has_a_mat_with_its_seats_zones(game: str, seats: int) -> None:
    art = MatArt(TableMat(), layout_for(game, SEATS[:seats]), game, game)
    labels = [z.label for z in art.zones if z.kind == "seat"]
    assert labels == [f"Seat {k + 1} - {name}" for k, name in enumerate(SEATS[:seats])]
    assert any(z.kind == "card" for z in art.zones)
    assert render_mat(art, 10.0).shape[:2] == raster_size(art.mat, 10.0)[::-1]


def test_a_mat_too_small_for_the_layout_is_refused() -> None:
    with pytest.raises(MatError, match="does not fit a 900 x 700 mm mat"):
        nerts_art(TableMat(900.0, 700.0))
