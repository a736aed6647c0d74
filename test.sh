#!/usr/bin/env bash
# Sets up (or refreshes) .venv with the kiosk and its test tools, then runs the
# whole test suite with pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh
ensure_venv dev
# The firmware tests run the Pico firmware on real MicroPython (WebAssembly, Node.js).
if command -v npm >/dev/null 2>&1 && [ -f firmware_bridge/firmware/tests_harness/package.json ]; then
    (cd firmware_bridge/firmware/tests_harness && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
exec .venv/bin/python -m pytest "$@"
