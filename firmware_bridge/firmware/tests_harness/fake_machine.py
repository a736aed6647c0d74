# Fakes of MicroPython's `machine` module (pins with interrupts, timers, unique_id,
# disable_irq) and of the clock in `time`, for running the Pico firmware in tests.
#
# The clock is driven by the test: advance(us) moves it on and fires timers that
# fall due; Pin.drive(level) changes an input and runs its interrupt handler the
# way the RP2040 would, with the heap locked for hard handlers, so that any
# allocation in the interrupt path raises MemoryError (recorded in IRQ_ERRORS).
import sys
import time as _real_time
from array import array

import micropython

TICKS_PERIOD = 1 << 30          # ticks_us wraps here on the RP2040 (and on this port)
_raw = array("l", [0])           # the raw ticks_us value, read without allocating
_ext = [0]                       # microseconds since "boot", unbounded
IRQ_ERRORS = []
IRQ_CALLS = [0]
_irq_disabled = [0]


def set_time(us):
    _ext[0] = us
    _raw[0] = us % TICKS_PERIOD


def now():
    return _ext[0]


def advance(us):
    """Moves the clock on by us microseconds, firing timers as they fall due."""
    end = _ext[0] + us
    while True:
        due = None
        for t in Timer._active:
            if due is None or t._due < due._due:
                due = t
        if due is None or due._due > end:
            break
        set_time(max(_ext[0], due._due))
        due._fire()
    set_time(end)


class _FakeTime:
    @staticmethod
    def ticks_us():
        return _raw[0]

    @staticmethod
    def ticks_ms():
        return (_ext[0] // 1000) % TICKS_PERIOD

    @staticmethod
    def ticks_cpu():
        return _raw[0]

    ticks_diff = staticmethod(_real_time.ticks_diff)
    ticks_add = staticmethod(_real_time.ticks_add)

    @staticmethod
    def sleep_us(us):
        advance(us)

    @staticmethod
    def sleep_ms(ms):
        advance(ms * 1000)


def install():
    sys.modules["time"] = _FakeTime
    sys.modules["utime"] = _FakeTime
    sys.modules["machine"] = sys.modules["fake_machine"]


def unique_id():
    return b"\xe6\x61\x38\x97\x13\x5c\x2a\x29"


def disable_irq():
    _irq_disabled[0] += 1
    return 1


def enable_irq(state):
    _irq_disabled[0] -= 1


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    pins = {}

    def __init__(self, id, mode=-1, pull=-1):
        self.id = id
        self._level = 1 if pull == Pin.PULL_UP else 0
        self._handler = None
        self._trigger = 0
        self._hard = False
        Pin.pins[id] = self

    def value(self, v=None):
        if v is None:
            return self._level
        self._level = 1 if v else 0
        return None

    def irq(self, handler=None, trigger=12, hard=False):
        self._handler = handler
        self._trigger = trigger
        self._hard = hard

    def drive(self, level):
        """Sets the line, and runs the interrupt handler on a matching edge."""
        old = self._level
        self._level = level
        if old == level or self._handler is None or _irq_disabled[0]:
            return
        if not (self._trigger & (Pin.IRQ_FALLING if level == 0 else Pin.IRQ_RISING)):
            return
        IRQ_CALLS[0] += 1
        if not self._hard:
            self._handler(self)
            return
        failed = False
        micropython.heap_lock()
        try:
            self._handler(self)
        except MemoryError:
            failed = True
        finally:
            micropython.heap_unlock()
        if failed:
            IRQ_ERRORS.append("pin %d: the hard interrupt handler allocated" % self.id)


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0
    _active = []

    def __init__(self, id=-1, mode=1, period=-1, callback=None, freq=-1):
        self._due = 0
        self.init(mode=mode, period=period, callback=callback, freq=freq)

    def init(self, mode=1, period=-1, callback=None, freq=-1):
        if freq > 0:
            period = 1000 // freq
        self._mode = mode
        self._period_us = period * 1000
        self._callback = callback
        self._due = _ext[0] + self._period_us
        if self not in Timer._active:
            Timer._active.append(self)

    def deinit(self):
        if self in Timer._active:
            Timer._active.remove(self)

    def _fire(self):
        if self._mode == Timer.PERIODIC:
            self._due += self._period_us
        else:
            self.deinit()
        if self._callback is not None:
            self._callback(self)


class FakeUsb:
    """The USB serial port as the firmware sees it: rx holds host bytes, tx what it wrote."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()

    def read(self):
        if not self.rx:
            return None
        data = bytes(self.rx)
        self.rx = bytearray()
        return data

    def write(self, data):
        self.tx.extend(data)

    def wait(self, ms):
        pass

    def take(self):
        data = bytes(self.tx)
        self.tx = bytearray()
        return data
