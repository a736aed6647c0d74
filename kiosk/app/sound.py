"""Sound cues: a short sound per ruling, the caller's words for 3-13, a fanfare for "Nerts!".

The cues are ``.wav`` files shipped in :mod:`kiosk.sounds` (made by
``python -m kiosk.sounds.generate``). Which cue a ruling gets depends on its
``kind``: a race lost sounds different from a tie, and a "Nerts!" call or the
end of a game gets a fanfare. With no audio device (a headless run) the cues
are still chosen and recorded in :attr:`SoundCues.played`, only not heard.

>>> cue_for_kind("tie"), cue_for_kind("race"), cue_for_kind("nerts"), cue_for_kind("draw")
('tie', 'race', 'fanfare', 'draw')
"""

from __future__ import annotations

import logging
from pathlib import Path

import pygame

from kiosk.games.referee import Ruling

__all__ = ["SoundCues", "cue_for", "cue_for_kind", "CUE_NAMES"]

log = logging.getLogger(__name__)

CUE_NAMES = (
    "ruling",
    "tie",
    "race",
    "infraction",
    "click",
    "undo",
    "fanfare",
    "game_over",
    "draw",
    "discard",
)

_KIND_CUES: dict[str, str] = {
    "tie": "tie",
    "race": "race",
    "take_back": "race",
    "nerts": "fanfare",
    "call": "fanfare",
    "game_over": "game_over",
    "game_end": "game_over",
    "undo": "undo",
    "infraction": "infraction",
    "false_call": "infraction",
    "draw": "draw",
    "call_draw": "draw",
    "discard": "discard",
    "call_discard": "discard",
}


def cue_for(ruling: Ruling, game: str = "") -> str:
    """The cue for one ruling of a game: 3-13's calls are spoken ("draw", "discard"),
    Nerts' call gets the fanfare, other kinds as :func:`cue_for_kind`.

    >>> cue_for(Ruling(0, "call", "final round: draw"), "rummy_3_13"), cue_for(Ruling(0, "call", ""), "nerts")
    ('draw', 'fanfare')
    """
    if game == "rummy_3_13" and ruling.kind == "call":
        return "discard" if "discard" in ruling.text else "draw"
    return cue_for_kind(ruling.kind)


def cue_for_kind(kind: str) -> str:
    """The cue for a ruling kind: known kinds have their own, any other is ``ruling``."""
    if kind in _KIND_CUES:
        return _KIND_CUES[kind]
    for word in ("discard", "draw"):
        if word in kind:
            return word
    return "ruling"


class SoundCues:
    """Plays cues through pygame's mixer, unless muted or without an audio device."""

    def __init__(self, *, muted: bool = False, enabled: bool = True) -> None:
        self.muted = muted
        self.played: list[str] = []
        """Every cue asked for while not muted (heard or not), for tests and the text log."""
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        if enabled:
            self._load()

    def _load(self) -> None:
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
        except pygame.error as exc:
            log.warning("no sound: %s", exc)
            return
        folder = Path(__file__).resolve().parent.parent / "sounds"
        for name in CUE_NAMES:
            try:
                self._sounds[name] = pygame.mixer.Sound(str(folder / f"{name}.wav"))
            except (pygame.error, FileNotFoundError) as exc:
                log.warning("sound cue %s not loaded: %s", name, exc)

    @property
    def available(self) -> bool:
        """True when cues can be heard (an audio device and the files)."""
        return bool(self._sounds)

    def toggle_mute(self) -> bool:
        """Mutes or unmutes; returns the new muted state."""
        self.muted = not self.muted
        if self.muted and self._sounds:
            pygame.mixer.stop()
        return self.muted

    def play(self, cue: str) -> None:
        """Plays one cue (nothing when muted)."""
        if self.muted:
            return
        self.played.append(cue)
        sound = self._sounds.get(cue)
        if sound is not None:
            sound.play()

    def for_rulings(self, rulings: list[Ruling], game: str = "") -> None:
        """Plays the one most important cue of a batch of rulings (a fanfare beats a chime)."""
        if not rulings:
            return
        order = ("game_over", "fanfare", "race", "tie", "infraction", "discard", "draw", "undo", "ruling")
        cues = {cue_for(r, game) for r in rulings}
        for cue in order:
            if cue in cues:
                self.play(cue)
                return
