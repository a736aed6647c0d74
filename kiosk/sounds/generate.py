"""Regenerates the kiosk's sound cues (the ``.wav`` files beside this module).

The files are committed, so the kiosk never needs this at run time; run it
after changing a cue::

    python -m kiosk.sounds.generate            # tones only, keeps the spoken words
    python -m kiosk.sounds.generate --speech   # also re-speaks "draw" / "discard" (needs espeak-ng)

Tones are synthesised here with numpy (16-bit mono, 22 050 Hz); the caller's
words for 3-13 come from espeak-ng, normalised and trimmed the same way.

>>> tone = synth_notes([(440.0, 0.05)])
>>> tone.dtype.name, len(tone) == int(RATE * 0.05)
('int16', True)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np
import numpy.typing as npt

__all__ = ["RATE", "synth_notes", "write_wav", "CUES", "generate"]

RATE = 22_050
HERE = Path(__file__).resolve().parent

# (frequency Hz, seconds) per note; 0 Hz is a rest.
CUES: dict[str, list[tuple[float, float]]] = {
    "ruling": [(880.0, 0.09)],
    "tie": [(660.0, 0.08), (0.0, 0.03), (660.0, 0.08)],
    "race": [(988.0, 0.08), (740.0, 0.14)],
    "infraction": [(220.0, 0.22)],
    "click": [(1320.0, 0.025)],
    "undo": [(740.0, 0.07), (988.0, 0.07)],
    "fanfare": [(523.25, 0.12), (659.25, 0.12), (783.99, 0.12), (1046.5, 0.36)],
    "game_over": [(783.99, 0.15), (659.25, 0.15), (523.25, 0.15), (1046.5, 0.5)],
}
SPEECH: dict[str, str] = {"draw": "draw", "discard": "discard"}


def synth_notes(notes: list[tuple[float, float]], volume: float = 0.5) -> npt.NDArray[np.int16]:
    """Renders notes as a bell-like tone (fundamental plus two overtones, soft attack, decay)."""
    parts: list[npt.NDArray[np.float64]] = []
    for freq, seconds in notes:
        n = int(RATE * seconds)
        t = np.arange(n) / RATE
        if freq <= 0:
            parts.append(np.zeros(n))
            continue
        wave_ = (
            np.sin(2 * np.pi * freq * t)
            + 0.35 * np.sin(4 * np.pi * freq * t)
            + 0.12 * np.sin(6 * np.pi * freq * t)
        )
        attack = np.minimum(1.0, t / 0.005)
        decay = np.exp(-3.0 * t / max(seconds, 1e-3))
        parts.append(wave_ * attack * decay)
    signal = np.concatenate(parts) if parts else np.zeros(0)
    peak = float(np.max(np.abs(signal))) if signal.size else 1.0
    signal = signal / (peak or 1.0) * volume
    out: npt.NDArray[np.int16] = (signal * 32767).astype(np.int16)
    return out


def write_wav(path: Path, samples: npt.NDArray[np.int16], rate: int = RATE) -> None:
    """Writes 16-bit mono PCM."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())


def _speak(word: str) -> npt.NDArray[np.int16]:
    exe = shutil.which("espeak-ng") or shutil.which("espeak")
    if exe is None:
        raise SystemExit("espeak-ng is not installed (apt install espeak-ng); run without --speech")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "w.wav"
        subprocess.run([exe, "-v", "en-us", "-s", "150", "-a", "180", "-w", str(raw), word], check=True)
        with wave.open(str(raw), "rb") as w:
            rate = w.getframerate()
            data = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    if rate != RATE:
        x = np.arange(0, len(data) * RATE / rate) * rate / RATE
        data = np.interp(x, np.arange(len(data)), data)
    # Trim the silence espeak leaves around a word, then normalise.
    loud = np.nonzero(np.abs(data) > 300)[0]
    if loud.size:
        data = data[max(0, loud[0] - 200) : loud[-1] + 400]
    peak = float(np.max(np.abs(data))) or 1.0
    out: npt.NDArray[np.int16] = (data / peak * 0.8 * 32767).astype(np.int16)
    return out


def generate(folder: Path = HERE, *, speech: bool = False) -> list[Path]:
    """Writes every cue into ``folder``; returns the files written."""
    written = []
    for name, notes in CUES.items():
        path = folder / f"{name}.wav"
        write_wav(path, synth_notes(notes))
        written.append(path)
    if speech:
        for name, word in SPEECH.items():
            path = folder / f"{name}.wav"
            write_wav(path, _speak(word))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerates the kiosk's sound cues.")
    parser.add_argument("--speech", action="store_true", help="also speak 'draw' and 'discard' (espeak-ng)")
    args = parser.parse_args(argv)
    for path in generate(speech=args.speech):
        print(path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
