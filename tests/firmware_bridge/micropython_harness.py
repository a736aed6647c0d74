"""Runs the Pico firmware on real MicroPython (the WebAssembly port under Node.js).

The npm package ``@micropython/micropython-webassembly-pyscript`` (pinned in
``firmware_bridge/firmware/tests_harness/package-lock.json``) is installed with
``npm ci`` on first use. ``run.mjs`` there loads MicroPython, copies the
firmware and the fakes of ``machine`` and ``time`` into its file system, and
runs code sent as JSON lines. Tests are skipped only when ``node`` is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from types import TracebackType

import pytest

from firmware_bridge.protocol import FrameParser, Message, encode_frame

__all__ = ["HARNESS", "FIRMWARE", "MicroPython", "FirmwareBoard", "ensure_harness"]

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"
HARNESS = FIRMWARE / "tests_harness"
_PACKAGE = HARNESS / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"


def ensure_harness() -> str:
    """Returns the path of ``node``, installing the npm package if needed; skips without node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the firmware tests run MicroPython's WebAssembly port "
                    "under Node.js")
    if not _PACKAGE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is missing: cannot install @micropython/micropython-webassembly-pyscript")
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=HARNESS, capture_output=True, text=True, timeout=600, check=False,
        )
        if done.returncode != 0 or not _PACKAGE.exists():
            pytest.fail(f"npm ci in {HARNESS} failed:\n{done.stdout}\n{done.stderr}")
    return node


class MicroPython:
    """One MicroPython interpreter in a Node.js process; :meth:`exec` runs code in it."""

    def __init__(self) -> None:
        node = ensure_harness()
        self._proc = subprocess.Popen(
            [node, str(HARNESS / "run.mjs"), str(FIRMWARE)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )

    def exec(self, code: str) -> str:
        """Runs ``code``; returns what it printed. A MicroPython exception fails the test."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps({"code": code}) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            err = self._proc.stderr.read() if self._proc.stderr else ""
            raise RuntimeError(f"the MicroPython harness exited: {err}")
        reply = json.loads(line)
        if not reply["ok"]:
            raise AssertionError(f"MicroPython raised:\n{reply['error']}\n--- code ---\n{code}")
        out: str = reply["out"]
        return out

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> MicroPython:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class FirmwareBoard:
    """The firmware's ``Bridge`` running in MicroPython, with fake pins, clock and USB.

    ``inputs`` is the firmware's list of ``(gpio, kind)`` with kind ``"switch"`` or ``"pulse"``.
    """

    def __init__(self, mp: MicroPython, *, inputs: list[tuple[int, str]], start_us: int = 1_000_000,
                 debounce_us: int = 20_000, boot_id: int = 0xB007) -> None:
        self.mp = mp
        self.inputs = inputs
        self.parser = FrameParser()
        self._seq = 0
        spec = ", ".join(f"({gpio}, fw.{kind.upper()})" for gpio, kind in inputs)
        mp.exec(
            "import fake_machine as M\nimport pico_bridge as fw\n"
            f"M.set_time({start_us})\nusb = M.FakeUsb()\n"
            f"b = fw.Bridge(usb, [{spec}], debounce_us={debounce_us}, boot_id={boot_id})\n"
        )

    def drive(self, input_id: int, level: int) -> None:
        """Sets the line of an input (0 is active for the default active-low wiring)."""
        self.mp.exec(f"M.Pin.pins[{self.inputs[input_id][0]}].drive({level})")

    def advance(self, us: int) -> None:
        self.mp.exec(f"M.advance({us})")

    def poll(self) -> None:
        self.mp.exec("b.poll()")

    def send(self, message: Message) -> None:
        """Puts a host message in the board's USB receive buffer."""
        wire = encode_frame(message, self._seq)
        self._seq += 1
        self.mp.exec(f"usb.rx.extend(bytes.fromhex({wire.hex()!r}))")

    def send_raw(self, data: bytes) -> None:
        self.mp.exec(f"usb.rx.extend(bytes.fromhex({data.hex()!r}))")

    def received(self) -> list[Message]:
        """Decodes what the board wrote since the last call."""
        # MicroPython's bytes.hex() of b"" is b"", so hexlify and decode instead.
        out = self.mp.exec("import binascii\nprint(binascii.hexlify(usb.take()).decode())")
        data = bytes.fromhex(out.strip())
        return self.parser.data_received(data)

    def now_us(self) -> int:
        return int(self.mp.exec("print(M.now())"))

    def irq_errors(self) -> list[str]:
        return [line for line in self.mp.exec("print('\\n'.join(M.IRQ_ERRORS))").splitlines() if line]
