"""Installs the Debian artist decks the training pipeline renders, and rasterises them once.

    python -m vision.training.install_decks          # as root, on Debian/Ubuntu

Installs ``gnome-cards-data`` (aisleriot's SVG card themes),
``kdegames-card-data-kf5`` (KDE's SVG card decks), ``librsvg2-bin``
(``rsvg-convert``) and a set of free font packages (the typefaces the
randomised designs print their indices in: :mod:`vision.cardart.typefaces`)
with apt-get, then rasterises every English
theme into the card-art cache so training starts at full speed. Only training
needs them; the kiosk's run time never does, and tests fall back to the
procedural designs and the Hershey fonts without them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from vision.cardart import debian
from vision.cardart.typefaces import suit_typefaces, typeface_files

FONT_PACKAGES = (
    "fonts-urw-base35",
    "fonts-dejavu-core",
    "fonts-liberation2",
    "fonts-freefont-ttf",
    "fonts-linuxlibertine",
    "fonts-crosextra-carlito",
    "fonts-ebgaramond",
    "fonts-roboto-unhinted",
    "fonts-lato",
    "fonts-open-sans",
    "fonts-croscore",
    "fonts-cantarell",
)
"""Free typefaces (serif, sans, condensed, monospace, old-style figures; 158 usable faces on
Debian 12), all under licences that allow this use (OFL, GPL with font exception, AGPL for
URW's): they are rendered into training scenes, never shipped."""

MIN_TYPEFACES = 100
"""Fewer usable typefaces than this: the font packages are not (all) installed."""

PACKAGES = ("gnome-cards-data", "kdegames-card-data-kf5", "librsvg2-bin", *FONT_PACKAGES)


def main() -> int:
    missing = (
        not debian.THEME_DIR.is_dir()
        or not debian.KDE_THEME_DIR.is_dir()
        or shutil.which("rsvg-convert") is None
        or len(typeface_files()) < MIN_TYPEFACES
    )
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
    typeface_files.cache_clear()
    suit_typefaces.cache_clear()
    print(f"{len(typeface_files())} typefaces ready, {len(suit_typefaces())} of them with suit symbols")
    themes = debian.available_themes()
    for theme in themes:
        debian.load_cell(theme, "AS")
        print(f"rasterised {theme}")
    split = {t: ("heldout" if t in debian.HELDOUT_THEMES else "train") for t in themes}
    print(f"{len(themes)} English themes ready: " + ", ".join(f"{t} ({s})" for t, s in split.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
