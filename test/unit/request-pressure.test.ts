import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventLoopUtilization, EventLoopUtilityFunction } from 'node:perf_hooks';
import { createRequestPressure } from '../../src/lib/request-pressure.js';

/** A loop whose utilisation over each window the test sets, on a clock the test moves. */
function fakeLoop() {
  let active = 0;
  let clock = 0;
  const reading = (): EventLoopUtilization => ({ idle: clock - active, active, utilization: clock ? active / clock : 0 });
  const utilisation = ((later?: EventLoopUtilization, earlier?: EventLoopUtilization) => {
    if (!later || !earlier) return reading();
    const busy = later.active - earlier.active;
    const all = busy + later.idle - earlier.idle;
    return { idle: all - busy, active: busy, utilization: all ? busy / all : 0 };
  }) as EventLoopUtilityFunction;
  return {
    utilisation,
    now: () => clock,
    /** `ms` pass, `share` of them busy. */
    run(ms: number, share: number) {
      clock += ms;
      active += ms * share;
    },
  };
}

describe('request pressure', () => {
  it('is saturated when requests arrive and the loop was at least 80 % busy over the last window', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    for (let i = 0; i < 50; i++) pressure.requestArrived();
    loop.run(100, 0.95);
    assert.equal(pressure.saturated(), true);
    for (let i = 0; i < 50; i++) pressure.requestArrived();
    loop.run(100, 0.5);
    assert.equal(pressure.saturated(), false, 'half busy: room left for deliveries');
  });

  it('is not saturated by a busy loop that serves no request (a backlog drained alone)', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    loop.run(100, 1);
    assert.equal(pressure.saturated(), false);
  });

  it('keeps its answer until a window has passed', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    pressure.requestArrived();
    loop.run(100, 0.9);
    assert.equal(pressure.saturated(), true);
    loop.run(50, 0);
    assert.equal(pressure.saturated(), true, 'within the window');
    loop.run(50, 0);
    assert.equal(pressure.saturated(), false, 'a quiet window later');
  });
});
