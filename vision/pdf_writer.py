"""A minimal PDF 1.4 writer: pages of a given size, each with RGB images and vector marks.

Enough for printing the table mat (:mod:`vision.mat_print`) without a PDF library: one
catalog, one page tree, the standard Helvetica font (every PDF reader has it, so nothing is
embedded), and per page a content stream and its image XObjects, each image Flate-compressed
with the PNG "Up" predictor (rows that repeat the row above cost almost nothing). The
cross-reference table gives every object's byte offset, as readers expect.

Glossary: **pt** is the PDF unit, 1/72 inch; page coordinates start at the bottom-left corner,
y up. **Content** is a page's drawing operators (``re``, ``m``/``l``/``S``, ``BT``/``Tj``/``ET``,
``cm``/``Do``), built with :class:`Content`.

>>> c = Content()
>>> c.text(10, 20, 8, "Page (1)")
>>> c.ops[-1]
'BT /F1 8 Tf 10.00 20.00 Td (Page \\\\(1\\\\)) Tj ET'
>>> pdf = pdf_bytes([PdfPage(200.0, 100.0, c)])
>>> pdf[:8], pdf.rstrip().endswith(b"%%EOF")
(b'%PDF-1.4', True)
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

__all__ = ["MM_TO_PT", "Content", "PdfPage", "pdf_bytes", "escape_text"]

MM_TO_PT = 72.0 / 25.4
"""Points per millimetre."""


def escape_text(text: str) -> str:
    r"""``text`` as the inside of a PDF string literal (backslash, parentheses escaped; Latin-1).

    >>> escape_text("a (b) \\ c")
    'a \\(b\\) \\\\ c'
    """
    safe = text.encode("latin-1", "replace").decode("latin-1")
    return safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


@dataclass
class Content:
    """A page's drawing operators, in points from the page's bottom-left corner."""

    ops: list[str] = field(default_factory=list)
    images: dict[str, NDArray[np.uint8]] = field(default_factory=dict)

    def image(self, name: str, pixels: NDArray[np.uint8], x: float, y: float, w: float, h: float) -> None:
        """Draws RGB ``pixels`` (rows top to bottom) into the box of lower-left (x, y), size w × h."""
        self.images[name] = pixels
        self.ops.append(f"q {w:.4f} 0 0 {h:.4f} {x:.4f} {y:.4f} cm /{name} Do Q")

    def line(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        *,
        width: float = 0.5,
        grey: float = 0.0,
        dash: tuple[float, float] | None = None,
    ) -> None:
        dash_op = f"[{dash[0]:.2f} {dash[1]:.2f}] 0 d" if dash else "[] 0 d"
        self.ops.append(f"q {width:.2f} w {grey:.2f} G {dash_op} {x0:.2f} {y0:.2f} m {x1:.2f} {y1:.2f} l S Q")

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: bool = False,
        grey: float = 0.0,
        width: float = 0.5,
    ) -> None:
        paint = f"{grey:.2f} g f" if fill else f"{width:.2f} w {grey:.2f} G S"
        self.ops.append(f"q {x:.2f} {y:.2f} {w:.2f} {h:.2f} re {paint} Q")

    def text(self, x: float, y: float, size: float, text: str, *, angle: int = 0) -> None:
        """Helvetica ``text`` of ``size`` pt from baseline point (x, y), turned ``angle`` degrees
        counter-clockwise (0 or 90)."""
        if angle == 90:
            self.ops.append(f"BT /F1 {size:g} Tf 0 1 -1 0 {x:.2f} {y:.2f} Tm ({escape_text(text)}) Tj ET")
        else:
            self.ops.append(f"BT /F1 {size:g} Tf {x:.2f} {y:.2f} Td ({escape_text(text)}) Tj ET")

    def stream(self) -> bytes:
        return ("\n".join(self.ops) + "\n").encode("latin-1")


@dataclass
class PdfPage:
    """One page: its size in points and what is drawn on it."""

    width_pt: float
    height_pt: float
    content: Content


def _up_predicted(pixels: NDArray[np.uint8]) -> bytes:
    """The image rows with PNG filter 2 ("Up": each byte minus the byte above), as FlateDecode's
    ``/Predictor 15`` expects: a filter-type byte before each row."""
    rows = np.ascontiguousarray(pixels, dtype=np.uint8).reshape(pixels.shape[0], -1)
    diff = rows.copy()
    diff[1:] = rows[1:] - rows[:-1]  # uint8 arithmetic wraps modulo 256, as the filter needs
    tagged = np.empty((rows.shape[0], rows.shape[1] + 1), np.uint8)
    tagged[:, 0] = 2
    tagged[:, 1:] = diff
    return tagged.tobytes()


def _image_object(pixels: NDArray[np.uint8]) -> bytes:
    if pixels.ndim != 3 or pixels.shape[2] != 3:
        raise ValueError(f"a PDF image here is RGB (H, W, 3), got shape {pixels.shape}")
    h, w = pixels.shape[:2]
    data = zlib.compress(_up_predicted(pixels), 6)
    head = (
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
        f"/BitsPerComponent 8 /Filter /FlateDecode "
        f"/DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns {w} >> "
        f"/Length {len(data)} >>\nstream\n"
    )
    return head.encode("ascii") + data + b"\nendstream"


def pdf_bytes(pages: Sequence[PdfPage], *, title: str = "") -> bytes:
    """The PDF document of ``pages``."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree's number is known
    tree = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    info = add(f"<< /Title ({escape_text(title)}) /Producer (kiosk mat) >>".encode("latin-1"))
    kids: list[int] = []
    for page in pages:
        xobjects = []
        for name, pixels in page.content.images.items():
            xobjects.append(f"/{name} {add(_image_object(pixels))} 0 R")
        stream = page.content.stream()
        content = add(f"<< /Length {len(stream)} >>\nstream\n".encode("ascii") + stream + b"endstream")
        resources = f"<< /Font << /F1 {font} 0 R >> /XObject << {' '.join(xobjects)} >> >>"
        kids.append(
            add(
                (
                    f"<< /Type /Page /Parent {tree} 0 R "
                    f"/MediaBox [0 0 {page.width_pt:.2f} {page.height_pt:.2f}] "
                    f"/Resources {resources} /Contents {content} 0 R >>"
                ).encode("ascii")
            )
        )
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R >>".encode("ascii")
    objects[tree - 1] = (
        f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode("ascii")
    )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode("ascii")
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode("ascii")
    return bytes(out)
