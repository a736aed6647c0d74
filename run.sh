#!/usr/bin/env bash
# Sets up (or refreshes) .venv with the kiosk, then runs the main job on its
# embedded default: a simulated table. Extra arguments go to `kiosk run`.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh
ensure_venv
exec .venv/bin/kiosk run "$@"
