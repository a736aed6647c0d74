#!/usr/bin/env bash
# Installs the kiosk on a Raspberry Pi (Raspberry Pi OS Bookworm or newer) as a
# systemd service. Run as root from a checkout: sudo deploy/install.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
    echo "error: run as root: sudo deploy/install.sh" >&2
    exit 2
fi

apt-get update
# python3-picamera2 and python3-lgpio come from Raspberry Pi OS, not PyPI; the
# venv sees them through --system-site-packages.
apt-get install -y python3-venv python3-picamera2 python3-lgpio libsdl2-2.0-0 || {
    echo "error: could not install the system packages above; is this Raspberry Pi OS?" >&2
    exit 2
}

id kiosk >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/kiosk kiosk
install -d -o kiosk -g kiosk /opt/kiosk /var/lib/kiosk /etc/kiosk
cp -r kiosk vision firmware_bridge models pyproject.toml README.md /opt/kiosk/
python3 -m venv --system-site-packages /opt/kiosk/.venv
/opt/kiosk/.venv/bin/pip install --disable-pip-version-check -q -e /opt/kiosk  # editable: models/ stays beside the code
[ -f /etc/kiosk/kiosk.env ] || install -m 0644 deploy/kiosk.env /etc/kiosk/kiosk.env
[ -f /etc/kiosk/kiosk.toml ] || : > /etc/kiosk/kiosk.toml
install -m 0644 deploy/kiosk.service /etc/systemd/system/kiosk.service
install -m 0644 deploy/99-kiosk-pico.rules /etc/udev/rules.d/99-kiosk-pico.rules
udevadm control --reload-rules && udevadm trigger || true
chown -R kiosk:kiosk /opt/kiosk
systemctl daemon-reload
systemctl enable --now kiosk.service
echo "kiosk installed; logs: journalctl -u kiosk -f"
