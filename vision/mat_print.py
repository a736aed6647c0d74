"""Printing the table mat: its PDF tiled at 1:1 over paper sheets, and its whole-mat PNG.

Glossary:

- **paper**: an ISO sheet (:data:`PAPERS`), used in the orientation that needs fewer sheets.
- **margin**: the white border of each sheet (:data:`MARGIN_MM`), which most printers cannot
  print anyway; it holds the cut marks, the page label, the assembly map and a 50 mm check bar.
- **tile**: the part of the mat one sheet carries, a window of the whole-mat raster
  (:func:`vision.mat.render_mat`) at whole pixels, printed at exactly ``25.4 / dpi`` mm per
  pixel, so the pages show the very pixels of the PNG and the markers come out at true size.
- **overlap**: neighbouring tiles share at least :data:`OVERLAP_MM` of the mat. A sheet is laid
  over its left and upper neighbours: trim its margin along the cut marks on those sides and put
  its edge on the dashed line the neighbour carries where this sheet begins.

A mat that fits on one sheet is one page, centred.

>>> plan = plan_pages(TableMat(), "A2", 150.0)
>>> plan.landscape, plan.rows, plan.cols, len(plan.tiles)
(True, 3, 3, 9)
>>> plan_pages(TableMat(600.0, 400.0), "A2", 100.0).rows
1
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from vision.calibration import TableMat
from vision.mat import MatArt, MatError, png_bytes, px_per_mm, raster_size, render_mat
from vision.pdf_writer import MM_TO_PT, Content, PdfPage, pdf_bytes

__all__ = [
    "PAPERS",
    "MARGIN_MM",
    "OVERLAP_MM",
    "Tile",
    "PrintPlan",
    "MatFiles",
    "plan_pages",
    "mat_pdf",
    "write_mat_files",
]

PAPERS: dict[str, tuple[float, float]] = {
    "A2": (420.0, 594.0),
    "A3": (297.0, 420.0),
    "A4": (210.0, 297.0),
}
"""ISO paper sizes (portrait width, height) in millimetres."""

MARGIN_MM = 12.0
"""White border of each sheet."""
OVERLAP_MM = 20.0
"""The least overlap of neighbouring tiles."""
TILE_PAD_PX = 8
"""Extra pixels drawn around a tile and cut off, so lines clipped at its edge match the whole mat."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One sheet's part of the mat: row and column (from 0), and its window of the whole-mat
    raster in pixels."""

    row: int
    col: int
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True, slots=True)
class PrintPlan:
    """How the mat goes onto sheets."""

    paper: str
    landscape: bool
    page_mm: tuple[float, float]
    """The sheet (width, height) as used, millimetres."""
    dpi: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]
    """Row by row, left to right."""

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]

    def tile_mm(self, tile: Tile) -> tuple[float, float, float, float]:
        """The tile's part of the mat ``(x0, y0, x1, y1)`` in millimetres."""
        s = px_per_mm(self.dpi)
        return (tile.x / s, tile.y / s, (tile.x + tile.w) / s, (tile.y + tile.h) / s)


def _spans(total: int, room: int, overlap: int) -> list[tuple[int, int]]:
    """Starts and lengths (pixels) of the tiles along one axis: as few as fit with ``overlap``,
    spread evenly so the last ends at the mat's edge."""
    if total <= room:
        return [(0, total)]
    n = math.ceil((total - overlap) / (room - overlap))
    return [(int(round(k * (total - room) / (n - 1))), room) for k in range(n)]


def plan_pages(mat: TableMat, paper: str, dpi: float) -> PrintPlan:
    """The sheets of ``paper`` that carry ``mat`` at 1:1, in the orientation needing fewer.

    Raises :class:`MatError` for an unknown paper size.
    """
    key = paper.upper()
    if key not in PAPERS:
        raise MatError(f"unknown paper {paper!r} (choose {', '.join(PAPERS)})")
    s = px_per_mm(dpi)
    full_w, full_h = raster_size(mat, dpi)
    overlap = int(math.ceil(OVERLAP_MM * s))
    best: PrintPlan | None = None
    pw, ph = PAPERS[key]
    for landscape, (w_mm, h_mm) in ((True, (ph, pw)), (False, (pw, ph))):
        room_w = int(math.floor((w_mm - 2 * MARGIN_MM) * s))
        room_h = int(math.floor((h_mm - 2 * MARGIN_MM) * s))
        xs, ys = _spans(full_w, room_w, overlap), _spans(full_h, room_h, overlap)
        tiles = tuple(Tile(r, c, x, y, w, h) for r, (y, h) in enumerate(ys) for c, (x, w) in enumerate(xs))
        plan = PrintPlan(key, landscape, (w_mm, h_mm), dpi, len(ys), len(xs), tiles)
        if best is None or len(tiles) < len(best.tiles):
            best = plan
    assert best is not None
    _check_markers_whole(mat, best)
    return best


def _check_markers_whole(mat: TableMat, plan: PrintPlan) -> None:
    """Each marker (with its quiet zone) must show whole on the sheet that lies on top there: a
    marker cut between sheets would be only as exact as the assembly."""
    s = px_per_mm(plan.dpi)
    for k, (x0, y0, x1, y1) in enumerate(mat.marker_boxes_mm()):

        def on_top(x: float, y: float) -> Tile:
            col = max(c for c in range(plan.cols) if plan.tile(0, c).x <= x * s or c == 0)
            row = max(r for r in range(plan.rows) if plan.tile(r, 0).y <= y * s or r == 0)
            return plan.tile(row, col)

        t = on_top(x0, y0)
        if on_top(x1, y1) != t or (x1 * s > t.x + t.w) or (y1 * s > t.y + t.h):
            raise MatError(
                f"marker {mat.marker_ids[k]} would be split between {plan.paper} sheets; use larger paper"
            )


def _page_label(title: str, mat: TableMat, plan: PrintPlan, tile: Tile) -> str:
    x0, y0, x1, y1 = plan.tile_mm(tile)
    n = tile.row * plan.cols + tile.col + 1
    return (
        f"{title} - table mat {mat.width_mm:g} x {mat.height_mm:g} mm - {plan.paper} page {n} of "
        f"{len(plan.tiles)}: row {tile.row + 1} of {plan.rows}, column {tile.col + 1} of {plan.cols} - "
        f"mat x {x0:.1f} to {x1:.1f} mm, y {y0:.1f} to {y1:.1f} mm"
    )


INSTRUCTIONS = (
    "Print at 100 % / actual size (no 'fit to page'); the bar on the right must measure 50 mm. "
    "Trim the left margin (columns 2 on) and top margin (rows 2 on) at the cut marks, lay the edge on the "
    "neighbour's dashed line, tape from behind."
)
INSTRUCTIONS_ONE_PAGE = (
    "Print at 100 % / actual size (no 'fit to page'); the bar on the right must measure 50 mm. "
    "Trim along the cut marks."
)


def _page(art: MatArt, plan: PrintPlan, tile: Tile) -> PdfPage:
    s = px_per_mm(plan.dpi)
    w_mm, h_mm = plan.page_mm
    tw_mm, th_mm = tile.w / s, tile.h / s
    left = MARGIN_MM if plan.cols > 1 else (w_mm - tw_mm) / 2
    top = MARGIN_MM if plan.rows > 1 else (h_mm - th_mm) / 2
    content = Content()
    pad = TILE_PAD_PX
    full_w, full_h = raster_size(art.mat, plan.dpi)
    wx0, wy0 = max(0, tile.x - pad), max(0, tile.y - pad)
    wx1, wy1 = min(full_w, tile.x + tile.w + pad), min(full_h, tile.y + tile.h + pad)
    window = render_mat(art, plan.dpi, (wx0, wy0, wx1 - wx0, wy1 - wy0))
    pixels = window[tile.y - wy0 : tile.y - wy0 + tile.h, tile.x - wx0 : tile.x - wx0 + tile.w]
    P = MM_TO_PT

    def pt(x_mm: float, y_mm: float) -> tuple[float, float]:
        """Page millimetres from the top-left corner to PDF points."""
        return x_mm * P, (h_mm - y_mm) * P

    ix, iy = pt(left, top + th_mm)
    content.image("Tile", pixels, ix, iy, tw_mm * P, th_mm * P)
    # Cut marks: the tile's edges continued into the margin, at its four corners.
    for cx, cy in ((left, top), (left + tw_mm, top), (left, top + th_mm), (left + tw_mm, top + th_mm)):
        sx = -1 if cx == left else 1
        sy = -1 if cy == top else 1
        content.line(*pt(cx + sx * 1.5, cy), *pt(cx + sx * 9.0, cy), width=0.4)
        content.line(*pt(cx, cy + sy * 1.5), *pt(cx, cy + sy * 9.0), width=0.4)
    # Where the right and lower neighbours begin: they are laid over this sheet up to these lines.
    if tile.col + 1 < plan.cols:
        nxt = plan.tile(tile.row, tile.col + 1)
        x = left + (nxt.x - tile.x) / s
        content.line(*pt(x, top - 4.0), *pt(x, top + th_mm + 4.0), width=0.5, grey=0.2, dash=(4.0, 3.0))
        content.text(*pt(x + 1.0, top - 2.0), 6.0, f"< page r{nxt.row + 1} c{nxt.col + 1} edge")
    if tile.row + 1 < plan.rows:
        nxt = plan.tile(tile.row + 1, tile.col)
        y = top + (nxt.y - tile.y) / s
        content.line(*pt(left - 4.0, y), *pt(left + tw_mm + 4.0, y), width=0.5, grey=0.2, dash=(4.0, 3.0))
        content.text(
            *pt(left + tw_mm + 1.5, y + 12.0), 6.0, f"page r{nxt.row + 1} c{nxt.col + 1} edge", angle=90
        )
    # The label above, the instructions and the 50 mm check bar below, the assembly map beside them.
    content.text(*pt(left, top - 4.5), 7.0, _page_label(art.title, art.mat, plan, tile))
    base = top + th_mm
    content.text(*pt(left, base + 5.5), 6.0, INSTRUCTIONS if len(plan.tiles) > 1 else INSTRUCTIONS_ONE_PAGE)
    map_cell = min(3.0, 8.0 / plan.rows)
    map_w = map_cell * 1.5 * plan.cols
    bar_x = left + tw_mm - map_w - 62.0
    content.rect(*pt(bar_x, base + 6.5), 50.0 * P, 1.2 * P, fill=True)
    content.text(*pt(bar_x + 51.5, base + 6.6), 6.0, "50 mm")
    mx = left + tw_mm - map_w
    for r in range(plan.rows):
        for c in range(plan.cols):
            x, y = mx + c * map_cell * 1.5, base + 2.0 + r * map_cell
            here = (r, c) == (tile.row, tile.col)
            content.rect(
                *pt(x, y + map_cell), map_cell * 1.5 * P, map_cell * P, fill=here, grey=0.0, width=0.3
            )
    return PdfPage(w_mm * P, h_mm * P, content)


def mat_pdf(art: MatArt, paper: str, dpi: float = 150.0) -> tuple[bytes, PrintPlan]:
    """The mat as a PDF tiled over ``paper`` sheets at 1:1, and the plan it follows."""
    plan = plan_pages(art.mat, paper, dpi)
    pages = [_page(art, plan, t) for t in plan.tiles]
    return pdf_bytes(pages, title=f"{art.title} table mat"), plan


@dataclass(frozen=True, slots=True)
class MatFiles:
    """What :func:`write_mat_files` wrote."""

    pdf: Path
    png: Path
    plan: PrintPlan
    png_size: tuple[int, int]


def file_stem(art: MatArt) -> str:
    """The files' common name: game and seat count, e.g. ``mat-nerts-4seats``."""
    return f"mat-{art.game}-{len(art.layout.seats)}seats"


def write_mat_files(
    art: MatArt, out_dir: Path, *, paper: str = "A2", dpi: float = 150.0, png_dpi: float | None = None
) -> MatFiles:
    """Writes the mat's PDF (``mat-GAME-Nseats-A2.pdf``) and whole-mat PNG
    (``mat-GAME-Nseats-150dpi.png``, its dpi also in the PNG's pHYs chunk) into ``out_dir``."""
    png_dpi = png_dpi or dpi
    stem = file_stem(art)
    pdf_path = out_dir / f"{stem}-{paper.upper()}.pdf"
    png_path = out_dir / f"{stem}-{png_dpi:g}dpi.png"
    data, plan = mat_pdf(art, paper, dpi)
    pdf_path.write_bytes(data)
    png_path.write_bytes(png_bytes(render_mat(art, png_dpi), png_dpi))
    return MatFiles(pdf_path, png_path, plan, raster_size(art.mat, png_dpi))
