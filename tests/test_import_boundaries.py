"""The direction of imports (STYLE.md): the rules engines import no hardware,
display or vision library, and vision and the bridge stay out of each other's way."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ["pygame", "gpiozero", "serial", "cv2", "onnxruntime", "torch"]


def _imported_after(module: str) -> set[str]:
    code = (
        "import json, sys\n"
        f"import {module}\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize(
    "module", ["kiosk.games", "kiosk.games.registry", "kiosk.tablelog", "kiosk.replay", "kiosk.store"]
)
def test_engines_and_log_import_no_hardware_or_display(module: str) -> None:
    loaded = _imported_after(module)
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}


def test_every_engine_is_pure() -> None:
    from kiosk.games.registry import GAME_NAMES, find_game

    code = (
        "import json, sys\n"
        "from kiosk.games.registry import find_game\n"
        f"for name in {list(GAME_NAMES)!r}:\n"
        "    find_game(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    loaded = set(json.loads(out.stdout))
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    assert all(find_game(n).name == n for n in GAME_NAMES)


def test_bridge_does_not_import_vision_or_display() -> None:
    loaded = _imported_after("firmware_bridge")
    assert not {m for m in loaded if m.split(".")[0] in {"pygame", "cv2", "onnxruntime", "vision"}}


def test_vision_does_not_import_display_or_serial() -> None:
    loaded = _imported_after("vision")
    assert not {m for m in loaded if m.split(".")[0] in {"pygame", "gpiozero", "serial"}}
