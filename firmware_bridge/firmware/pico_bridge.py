# Slap-pad and button firmware for a Raspberry Pi Pico (RP2040), MicroPython 1.22 or later.
#
# What it does (protocol layouts in docs/bridge-protocol.md of the kiosk project):
#
# - Stamps every edge of up to 16 inputs (seat buttons; slap pads, i.e. a piezo
#   or FSR through a comparator, or a plain switch) with time.ticks_us() as the
#   first thing in a hard interrupt handler.
# - Debounces on the leading edge: the first edge is the event and carries its
#   true time; the line is then ignored for a configurable lockout (default 20 ms).
#   If the line ended the lockout in another state than the event left it (a
#   tap shorter than the lockout), the missed edge is reported with the time the
#   lockout ended and the "approximate" flag.
# - Extends ticks_us (which wraps every 2**30 us, about 17.9 minutes) into a
#   64-bit microsecond count since boot, in the main loop, so that the host never
#   sees a wrap.
# - Keeps every event in a ring of RING_SIZE until the host acknowledges it, and
#   sends the unacknowledged ones again after a reconnect (a HelloRequest), when
#   the host reports a gap, or when no acknowledgement came for RESEND_MS.
# - Answers clock-sync requests with its receive and send times, sends a heartbeat
#   every HEARTBEAT_MS, and reports its firmware version, board id and boot id.
#
# The interrupt path allocates nothing (it runs with the heap locked in the test
# suite): it reads and writes only preallocated arrays and small integers.
#
# The same file runs unchanged on real MicroPython in the kiosk's test suite
# (the WebAssembly port under Node.js, with fake machine pins, timers and USB).

import struct
from array import array

import micropython
from machine import Pin, Timer, disable_irq, enable_irq, unique_id
from micropython import const
from time import ticks_add, ticks_diff, ticks_us

FIRMWARE_VERSION = "1.0.0"

PROTOCOL_VERSION = const(1)
T_HELLO = const(0x01)
T_HELLO_REQUEST = const(0x02)
T_INPUT = const(0x03)
T_HEARTBEAT = const(0x04)
T_SYNC_REQUEST = const(0x05)
T_SYNC_RESPONSE = const(0x06)
T_ACK = const(0x07)
T_CONFIGURE = const(0x08)
T_STOP = const(0x09)
ALL_INPUTS = const(0xFF)

EDGE_ACTIVE = const(0x01)
EDGE_APPROXIMATE = const(0x02)

RING_SIZE = const(256)  # a power of two
RING_MASK = const(255)
MAX_FRAME = const(64)
MAX_ENCODED = const(66)
MAX_INPUTS = const(16)
HEARTBEAT_MS = const(500)
RESEND_MS = const(500)
DEFAULT_DEBOUNCE_US = const(20000)

SWITCH = const(0)
"""An input with two states (a button): both edges are events."""
PULSE = const(1)
"""An input that only strikes (a piezo through a comparator): only the active edge is an event."""

# GP2..GP17, wired to ground when active (internal pull-ups): eight seat
# buttons, then eight slap pads.
DEFAULT_INPUTS = (
    (2, SWITCH), (3, SWITCH), (4, SWITCH), (5, SWITCH),
    (6, SWITCH), (7, SWITCH), (8, SWITCH), (9, SWITCH),
    (10, PULSE), (11, PULSE), (12, PULSE), (13, PULSE),
    (14, PULSE), (15, PULSE), (16, PULSE), (17, PULSE),
)


def _crc_table():
    table = array("H", [0] * 256)
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[byte] = crc & 0xFFFF
    return table


_CRC_TABLE = _crc_table()


def crc16_ccitt_false(buf, n):
    # CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, xorout 0.
    crc = 0xFFFF
    table = _CRC_TABLE
    for i in range(n):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def cobs_encode(src, n, dst):
    # Writes 0x00, the COBS encoding of src[:n], and 0x00 into dst; returns the length.
    # The leading delimiter ends any partial frame the host holds (after a reconnect).
    dst[0] = 0
    code_at = 1
    code = 1
    o = 2
    for i in range(n):
        b = src[i]
        if b == 0:
            dst[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            dst[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                dst[code_at] = code
                code_at = o
                o += 1
                code = 1
    dst[code_at] = code
    dst[o] = 0
    return o + 1


def cobs_decode(src, n, dst):
    # Decodes src[:n] (no delimiter) into dst; returns the length, or -1 if malformed.
    i = 0
    o = 0
    while i < n:
        code = src[i]
        if code == 0 or i + code > n:
            return -1
        i += 1
        for _ in range(code - 1):
            dst[o] = src[i]
            o += 1
            i += 1
        if code != 0xFF and i < n:
            dst[o] = 0
            o += 1
    return o


class Bridge:
    """The firmware's state: inputs, event ring, clock and link.

    port: the USB serial link, an object with read() -> bytes or None (what has
    arrived, without waiting), write(buf), and wait(ms) (until something arrives).
    inputs: a sequence of (gpio, SWITCH or PULSE); input ids are positions in it.
    """

    def __init__(self, port, inputs=DEFAULT_INPUTS, debounce_us=DEFAULT_DEBOUNCE_US,
                 boot_id=None, active_low=True):
        n = len(inputs)
        if n > MAX_INPUTS:
            raise ValueError("at most 16 inputs")
        self._port = port
        self._n = n
        self._active_level = 0 if active_low else 1
        # Shared with the interrupt handlers: preallocated, small integers only.
        self._ring_t = array("l", [0] * RING_SIZE)      # raw ticks_us of each event
        self._ring_input = bytearray(RING_SIZE)
        self._ring_flags = bytearray(RING_SIZE)
        self._ring_ext = array("q", [0] * RING_SIZE)    # extended time, filled by the main loop
        # _cnt[0]: next event seq (head), [1]: events dropped (ring full), [2]: oldest unacked (tail)
        self._cnt = array("l", [0, 0, 0])
        self._last = array("l", [0] * n)                 # raw time of the last accepted edge
        self._locked = bytearray(n)                      # 1 while the lockout may still run
        self._state = bytearray(n)                       # 1 while a switch is active
        self._pulse = bytearray(n)
        self._lock_us = array("l", [debounce_us] * n)
        # Main loop state.
        self._ingested = 0
        self._sent = 0
        self._raw_prev = ticks_us()
        self._ext_now = self._raw_prev                   # microseconds since boot, never wraps
        self._last_progress = self._raw_prev
        self._tx_seq = 0
        self._rx = bytearray(MAX_ENCODED + 1)
        self._rx_len = 0
        self._rx_overflow = False
        self._rx_body = bytearray(MAX_ENCODED)
        self._tx_body = bytearray(MAX_FRAME)
        self._tx_wire = bytearray(MAX_ENCODED + 3)
        self._tx_view = memoryview(self._tx_wire)
        self.rx_errors = 0
        self.running = True
        self._hb_due = bytearray(1)
        board = bytes(unique_id())
        self.board_id = (board + bytes(8))[:8]
        self.boot_id = _random_u32() if boot_id is None else boot_id
        self._pins = []
        for i in range(n):
            gpio, kind = inputs[i]
            pin = Pin(gpio, Pin.IN, Pin.PULL_UP if active_low else Pin.PULL_DOWN)
            self._pins.append(pin)
            self._pulse[i] = 1 if kind == PULSE else 0
            self._state[i] = 1 if (kind == SWITCH and pin.value() == self._active_level) else 0
            if kind == PULSE:
                trigger = Pin.IRQ_FALLING if active_low else Pin.IRQ_RISING
            else:
                trigger = Pin.IRQ_FALLING | Pin.IRQ_RISING
            pin.irq(handler=self._handler(i), trigger=trigger, hard=True)
        self._timer = Timer(-1, mode=Timer.PERIODIC, period=HEARTBEAT_MS, callback=self._heartbeat_tick)
        self._send_hello()

    # -- interrupt path: no allocation -------------------------------------------------
    def _handler(self, i):
        edge = self._edge

        def handler(pin):
            edge(i, ticks_us())

        return handler

    def _edge(self, i, t):
        if self._locked[i] and ticks_diff(t, self._last[i]) < self._lock_us[i]:
            return
        self._locked[i] = 1
        self._last[i] = t
        if self._pulse[i]:
            flags = EDGE_ACTIVE
        else:
            flags = self._state[i] ^ 1
            self._state[i] = flags
        self._push(i, flags, t)

    def _push(self, i, flags, t):
        cnt = self._cnt
        head = cnt[0]
        if head - cnt[2] >= RING_SIZE:
            cnt[1] += 1
            return
        j = head & RING_MASK
        self._ring_t[j] = t
        self._ring_input[j] = i
        self._ring_flags[j] = flags
        cnt[0] = head + 1

    def _heartbeat_tick(self, timer):
        self._hb_due[0] = 1

    # -- main loop ------------------------------------------------------------------------
    def poll(self):
        """Does everything that is due: reads the link, stamps and sends events, heartbeats."""
        raw = self._clock()
        data = self._port.read()
        if data:
            self._receive(data, raw)
        self._ingest()
        self._expire_lockouts()
        self._ingest()
        self._resend_if_stalled()
        self._send_events()
        if self._hb_due[0]:
            self._hb_due[0] = 0
            self._send_heartbeat()

    def run(self):
        """Runs the main loop until the host sends Stop."""
        while self.running:
            self.poll()
            self._port.wait(self.idle_ms())

    def stop(self):
        """Stops the timer and the interrupts; the inputs are no longer watched."""
        self.running = False
        self._timer.deinit()
        for pin in self._pins:
            pin.irq(handler=None)

    def idle_ms(self):
        """How long the main loop may wait for the link before something else is due."""
        for i in range(self._n):
            if self._locked[i]:
                return 1
        return 10

    def now_us(self):
        """The MCU time in microseconds since boot (64-bit, never wraps)."""
        self._clock()
        return self._ext_now

    def _clock(self):
        raw = ticks_us()
        self._ext_now += ticks_diff(raw, self._raw_prev)
        self._raw_prev = raw
        return raw

    def _ingest(self):
        # Extends the raw ticks of new events while they are recent (under 2**29 us old).
        head = self._cnt[0]
        if self._ingested == head:
            return
        raw = self._clock()
        ext = self._ext_now
        for seq in range(self._ingested, head):
            j = seq & RING_MASK
            self._ring_ext[j] = ext - ticks_diff(raw, self._ring_t[j])
        self._ingested = head

    def _expire_lockouts(self):
        raw = ticks_us()
        for i in range(self._n):
            if not self._locked[i] or ticks_diff(raw, self._last[i]) < self._lock_us[i]:
                continue
            state = disable_irq()
            try:
                if self._locked[i] and ticks_diff(raw, self._last[i]) >= self._lock_us[i]:
                    self._locked[i] = 0
                    if not self._pulse[i]:
                        level = 1 if self._pins[i].value() == self._active_level else 0
                        if level != self._state[i]:
                            self._state[i] = level
                            end = ticks_add(self._last[i], self._lock_us[i])
                            self._push(i, level | EDGE_APPROXIMATE, end)
            finally:
                enable_irq(state)

    def _resend_if_stalled(self):
        tail = self._cnt[2]
        if self._sent > tail and ticks_diff(self._raw_prev, self._last_progress) >= RESEND_MS * 1000:
            self._sent = tail
            self._last_progress = self._raw_prev

    def _send_events(self):
        body = self._tx_body
        if self._sent <= self._cnt[2] < self._ingested:
            self._last_progress = self._raw_prev  # nothing was outstanding: the resend timer starts now
        while self._sent < self._ingested:
            seq = self._sent
            if seq < self._cnt[2]:
                seq = self._cnt[2]
                self._sent = seq
                continue
            j = seq & RING_MASK
            struct.pack_into("<IBBQ", body, 4, seq, self._ring_input[j], self._ring_flags[j],
                             self._ring_ext[j])
            self._send(T_INPUT, 14)
            self._sent = seq + 1

    def _send_hello(self):
        text = FIRMWARE_VERSION.encode()
        struct.pack_into("<8sIIIBB", self._tx_body, 4, self.board_id, self.boot_id, self._cnt[0],
                         self._cnt[2], self._n, len(text))
        self._tx_body[26:26 + len(text)] = text
        self._send(T_HELLO, 22 + len(text))

    def _send_heartbeat(self):
        self._clock()
        struct.pack_into("<QIII", self._tx_body, 4, self._ext_now, self._cnt[0], self._cnt[2], self._cnt[1])
        self._send(T_HEARTBEAT, 20)

    def _send(self, type_, payload_len):
        body = self._tx_body
        struct.pack_into("<BBH", body, 0, PROTOCOL_VERSION, type_, self._tx_seq)
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF
        n = 4 + payload_len
        crc = crc16_ccitt_false(body, n)
        body[n] = crc >> 8
        body[n + 1] = crc & 0xFF
        m = cobs_encode(body, n + 2, self._tx_wire)
        self._port.write(self._tx_view[:m])

    # -- what the host says -----------------------------------------------------------------
    def _receive(self, data, raw):
        for b in data:
            if b != 0:
                if self._rx_len < MAX_ENCODED:
                    self._rx[self._rx_len] = b
                    self._rx_len += 1
                else:
                    self._rx_overflow = True
                continue
            n = self._rx_len
            overflow = self._rx_overflow
            self._rx_len = 0
            self._rx_overflow = False
            if n == 0:
                continue
            if overflow:
                self.rx_errors += 1
                continue
            self._frame(n, raw)

    def _frame(self, n, raw):
        body = self._rx_body
        m = cobs_decode(self._rx, n, body)
        if m < 6 or m > MAX_FRAME:
            self.rx_errors += 1
            return
        crc = crc16_ccitt_false(body, m - 2)
        if crc != (body[m - 2] << 8) | body[m - 1] or body[0] != PROTOCOL_VERSION:
            self.rx_errors += 1
            return
        type_ = body[1]
        plen = m - 6
        if type_ == T_HELLO_REQUEST and plen == 0:
            self._send_hello()
            self._sent = self._cnt[2]
            self._last_progress = self._raw_prev
        elif type_ == T_SYNC_REQUEST and plen == 4:
            # The request arrived when the port read returned (raw); answer now.
            rx_ext = self._ext_now - ticks_diff(self._raw_prev, raw)
            token = struct.unpack_from("<I", body, 4)[0]
            self._clock()
            struct.pack_into("<IQQ", self._tx_body, 4, token, rx_ext, self._ext_now)
            self._send(T_SYNC_RESPONSE, 20)
        elif type_ == T_ACK and plen == 5:
            seq, flags = struct.unpack_from("<IB", body, 4)
            self._ack(seq, flags & 1)
        elif type_ == T_STOP and plen == 0:
            self.stop()
        elif type_ == T_CONFIGURE and plen == 5:
            which, lock_us = struct.unpack_from("<BI", body, 4)
            for i in range(self._n):
                if which == ALL_INPUTS or which == i:
                    self._lock_us[i] = lock_us
        else:
            self.rx_errors += 1

    def _ack(self, seq, resend):
        head = self._cnt[0]
        if seq > head:
            self.rx_errors += 1
            return
        if seq > self._cnt[2]:
            self._cnt[2] = seq
            self._last_progress = self._raw_prev
        if self._sent < self._cnt[2]:
            self._sent = self._cnt[2]
        if resend and seq >= self._cnt[2] and seq < self._sent:
            self._sent = seq
            self._last_progress = self._raw_prev


def _random_u32():
    try:
        from random import getrandbits

        return getrandbits(32)
    except ImportError:
        return (ticks_us() * 2654435761) & 0xFFFFFFFF


class StdioPort:
    """The USB CDC serial port of the Pico (MicroPython's stdio), in binary, with Ctrl-C off."""

    def __init__(self):
        import select
        import sys

        micropython.kbd_intr(-1)  # 0x03 bytes are data here, not a KeyboardInterrupt
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._buf = bytearray(MAX_ENCODED)

    def read(self):
        n = 0
        while n < MAX_ENCODED and self._poll.poll(0):
            self._buf[n] = self._in.read(1)[0]
            n += 1
        return self._buf[:n] if n else None

    def write(self, data):
        self._out.write(data)

    def wait(self, ms):
        self._poll.poll(ms)

    def close(self):
        micropython.kbd_intr(3)  # Ctrl-C works again: the REPL (and mpremote) can take over


def main(inputs=DEFAULT_INPUTS):
    """Runs the bridge on the USB serial port until the host sends Stop (called from main.py)."""
    micropython.alloc_emergency_exception_buf(100)
    port = StdioPort()
    try:
        Bridge(port, inputs).run()
    finally:
        port.close()
