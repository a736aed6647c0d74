"""Clock mapping: ping-pong offset plus drift over a sliding window, in simulated time."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.clocksync import ClockSync, NotSyncedError, SyncSample
from firmware_bridge.emulator import BoardModel, simulate_clock_sync


def p95(values: list[int]) -> int:
    ordered = sorted(abs(v) for v in values)
    return ordered[int(0.95 * (len(ordered) - 1))]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mapping_error_p95_within_half_a_millisecond_at_50_ppm_and_1_ms_jitter(seed: int) -> None:
    model = BoardModel(drift_ppm=50.0, latency_us=1_000, jitter_us=1_000)
    errors = simulate_clock_sync(model, seconds=60, rng=random.Random(seed))
    assert len(errors) > 500
    assert p95(errors) <= 500_000


def test_drift_is_estimated() -> None:
    sync = ClockSync()
    simulate_clock_sync(BoardModel(drift_ppm=-80.0), seconds=60, sync=sync, rng=random.Random(4))
    assert sync.fit is not None
    assert sync.fit.drift_ppm == pytest.approx(-80.0, abs=10.0)


def test_stated_error_covers_most_mapping_errors() -> None:
    model = BoardModel()
    sync = ClockSync()
    rng = random.Random(5)
    simulate_clock_sync(model, seconds=30, sync=sync, rng=rng)
    covered = 0
    trials = 200
    for k in range(trials):
        truth = int(30e9) - k * 1_000_000
        t_ns, err_ns = sync.to_host(model.mcu_us(truth))
        covered += abs(t_ns - truth) <= err_ns
    assert covered >= 0.9 * trials


def test_without_jitter_the_mapping_is_exact_to_the_tick() -> None:
    model = BoardModel(jitter_us=0, latency_us=500, drift_ppm=30.0, turnaround_us=0)
    errors = simulate_clock_sync(model, seconds=20, warmup_s=10, rng=random.Random(6))
    assert max(abs(e) for e in errors) <= 2_000


def test_latency_spikes_are_outvoted_by_short_round_trips() -> None:
    sync = ClockSync(window=32)
    offset_ns = 5_000_000
    for i in range(32):
        host = i * 250_000_000
        slow = 40_000_000 if i % 3 == 0 else 0  # a 40 ms stall on the way back, every third ping
        mcu = (host + 300_000 - offset_ns) // 1000
        sync.add(SyncSample(host, mcu, mcu, host + 600_000 + slow))
    t_ns, _ = sync.to_host(1_000_000)
    assert abs(t_ns - (1_000_000_000 + offset_ns)) < 5_000


def test_no_mapping_before_enough_samples() -> None:
    sync = ClockSync(min_samples=3)
    sync.add(SyncSample(0, 10, 10, 1000))
    with pytest.raises(NotSyncedError, match="1 of 3 samples"):
        sync.to_host(10)
    assert isinstance(NotSyncedError("x"), OSError)


def test_reset_forgets_a_rebooted_board() -> None:
    sync = ClockSync(min_samples=1)
    sync.add(SyncSample(0, 10, 10, 1000))
    assert sync.synced
    sync.reset()
    assert not sync.synced and sync.sample_count == 0
