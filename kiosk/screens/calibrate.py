"""Calibrate: the camera's view with the markers it found and the table zones over it.

The camera thread sends a :class:`~kiosk.app.messages.CalibrationView` (the
picture, the detected markers, the expected ones, the zones); this screen
draws them and says plainly what is wrong: which corner markers are missing
and what to do. With a replayed table there is no camera, and the screen says
so. Select goes on to play (calibration is kept by the camera thread).
"""

from __future__ import annotations

from typing import ClassVar

import pygame

from kiosk.app.commands import Command, Key
from kiosk.app.messages import CalibrationView
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter
from kiosk.screens.widgets import title_bar, touch_bar

__all__ = ["CalibrateMode", "calibration_message"]

PLAY = -1


def calibration_message(view: CalibrationView | None, camera: str) -> tuple[str, bool]:
    """What the screen tells the players, and whether all is well.

    >>> calibration_message(CalibrationView(None, {0: ()}, (0, 1)), "usb:0")
    ('Markers missing: 1. Clear the corners of the mat and check the light.', False)
    """
    if camera.startswith("replay:"):
        return ("No camera: this table is a replayed log. Nothing to calibrate.", True)
    if view is None:
        return ("Waiting for the camera…", False)
    if view.missing:
        ids = ", ".join(str(m) for m in view.missing)
        return (f"Markers missing: {ids}. Clear the corners of the mat and check the light.", False)
    if view.message:
        return (view.message, not view.expected or not view.missing)
    return (f"All {len(view.expected)} markers found. The zones are drawn over the table.", True)


class CalibrateMode(Mode):
    """The third screen: is the camera looking at the mat?"""

    name: ClassVar[str] = "calibrate"
    title = "Calibrate the camera"

    def handle(self, command: Command) -> bool:
        if command.key is Key.SELECT:
            from kiosk.screens.play import PlayMode

            self.app.set_mode(PlayMode())
            return True
        return False

    def draw(self, p: Painter) -> None:
        app = self.app
        lay, pal = app.layout, app.palette
        p.fill(pal.background)
        area = title_bar(p, lay, pal, self.title, app.config.camera)
        area = touch_bar(p, lay, pal, area, [("Play", Command(Key.SELECT, index=PLAY))])
        area = area.inflate(-2 * lay.margin, -2 * lay.margin)
        view = app.calibration
        message, ok = calibration_message(view, app.config.camera)
        px = lay.px("body")
        msg_h = 2 * p.fonts.get(px).get_linesize()
        msg_rect = pygame.Rect(area.left, area.bottom - msg_h, area.width, msg_h)
        p.wrap(message, msg_rect, px, pal.good if ok else pal.bad)
        pic = pygame.Rect(area.left, area.top, area.width, area.height - msg_h - lay.margin)
        if view is None or view.image is None:
            p.box(pic, pal.panel, 0, radius=6)
            return
        h, w = view.image.shape[:2]
        scale = min(pic.width / w, pic.height / h)
        shown = pygame.Rect(0, 0, int(w * scale), int(h * scale))
        shown.center = pic.center
        p.image(view.image, shown)

        def to_screen(pt: tuple[float, float]) -> tuple[float, float]:
            return (shown.left + pt[0] * scale, shown.top + pt[1] * scale)

        for name, outline in view.zones.items():
            pts = [to_screen(q) for q in outline]
            p.polygon(pts, pal.accent, 2)
            if pts:
                cx = int(sum(x for x, _ in pts) / len(pts))
                cy = int(sum(y for _, y in pts) / len(pts))
                p.text(name, (cx, cy), lay.px("label"), pal.accent, "center")
        for marker, corners in view.markers.items():
            pts = [to_screen(q) for q in corners]
            p.polygon(pts, pal.good, 3)
            if pts:
                cx = int(sum(x for x, _ in pts) / len(pts))
                cy = int(sum(y for _, y in pts) / len(pts))
                p.text(str(marker), (cx, cy), lay.px("label"), pal.good, "center")
