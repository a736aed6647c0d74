"""Installs the Debian artist decks the training pipeline renders, and rasterises them once.

    python -m vision.training.install_decks          # as root, on Debian/Ubuntu

Installs ``gnome-cards-data`` (aisleriot's SVG card themes) and
``librsvg2-bin`` (``rsvg-convert``) with apt-get, then rasterises every English
theme into the card-art cache so training starts at full speed. Only training
needs them; the kiosk's run time never does, and tests fall back to the
procedural designs without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from vision.cardart import debian

PACKAGES = ("gnome-cards-data", "librsvg2-bin")


def main() -> int:
    missing = not debian.THEME_DIR.is_dir() or shutil.which("rsvg-convert") is None
    if missing:
        if os.geteuid() != 0:
            print(
                f"install_decks: run as root, or install {' '.join(PACKAGES)} with apt-get yourself",
                file=sys.stderr,
            )
            return 2
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update"], check=True, env=env)
        subprocess.run(
            ["apt-get", "install", "-y", "--no-install-recommends", *PACKAGES], check=True, env=env
        )
    themes = debian.available_themes()
    for theme in themes:
        debian.load_cell(theme, "AS")
        print(f"rasterised {theme}")
    split = {t: ("heldout" if t in debian.HELDOUT_THEMES else "train") for t in themes}
    print(f"{len(themes)} English themes ready: " + ", ".join(f"{t} ({s})" for t, s in split.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
