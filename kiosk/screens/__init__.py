"""The kiosk's screens, one mode each (see :mod:`kiosk.app.mode`).

choose game and house options -> seat the players -> calibrate -> play, with
the score sheet and the history (undo) reachable from play, and game over.
"""

from kiosk.screens.calibrate import CalibrateMode
from kiosk.screens.choose_game import ChooseGameMode
from kiosk.screens.game_over import GameOverMode
from kiosk.screens.history import HistoryMode
from kiosk.screens.play import PlayMode
from kiosk.screens.score_sheet import ScoreSheetMode
from kiosk.screens.seats import SeatsMode

__all__ = [
    "ChooseGameMode",
    "SeatsMode",
    "CalibrateMode",
    "PlayMode",
    "ScoreSheetMode",
    "HistoryMode",
    "GameOverMode",
]
