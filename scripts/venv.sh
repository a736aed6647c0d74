# Shared by run.sh and test.sh: create or refresh the project's virtual environment.
# Usage: ensure_venv [EXTRA]   (EXTRA: an optional-dependency group, e.g. dev)

ensure_venv() {
    local extra="${1:-}"
    local py=""
    for cand in python3.13 python3.12 python3.11 python3; do
        if command -v "$cand" >/dev/null 2>&1 &&
           "$cand" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            py="$cand"; break
        fi
    done
    if [ -z "$py" ]; then
        echo "error: Python 3.11 or newer is needed (python3 --version); install it and run again." >&2
        exit 2
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "Creating .venv with $py ..." >&2
        "$py" -m venv .venv || {
            echo "error: could not create a virtual environment; on Debian/Ubuntu: apt-get install python3-venv" >&2
            exit 2
        }
    fi
    local spec="."
    [ -n "$extra" ] && spec=".[$extra]"
    # A stamp of pyproject.toml skips the (slow) resolver when nothing changed.
    local stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)-${extra:-base}"
    if [ ! -f "$stamp" ]; then
        echo "Installing the kiosk${extra:+ with [$extra]} into .venv ..." >&2
        # pip's and the build backend's chatter goes to a log, shown only if it fails.
        if ! { .venv/bin/python -m pip install --disable-pip-version-check -q --upgrade pip &&
               .venv/bin/python -m pip install --disable-pip-version-check -q -e "$spec"; } \
               >.venv/pip-install.log 2>&1; then
            tail -n 30 .venv/pip-install.log >&2
            echo "error: installing the kiosk failed (full log: .venv/pip-install.log)." >&2
            echo "Check the network access to the Python package index and run again." >&2
            exit 2
        fi
        touch "$stamp"
    fi
}
