"""The kiosk application: the loop, the drawing surface, sound, and what feeds the table.

Only this package (and :mod:`kiosk.screens`) imports pygame.
"""

from kiosk.app.commands import Command, Key
from kiosk.app.feeds import LogFeed
from kiosk.app.loop import App, Banner
from kiosk.app.messages import CalibrationView, CameraStatus, SeenEvent
from kiosk.app.mode import Mode
from kiosk.app.paint import Painter, RecordingPainter, SurfacePainter
from kiosk.app.sound import SoundCues
from kiosk.app.theme import Layout, Palette, palette

__all__ = [
    "App",
    "Banner",
    "Command",
    "Key",
    "LogFeed",
    "CalibrationView",
    "CameraStatus",
    "SeenEvent",
    "Mode",
    "Painter",
    "RecordingPainter",
    "SurfacePainter",
    "SoundCues",
    "Layout",
    "Palette",
    "palette",
]
