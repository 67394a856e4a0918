import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventLoopUtilization, EventLoopUtilityFunction } from 'node:perf_hooks';
import { createRequestPressure, type RequestPressure } from '../../src/lib/request-pressure.js';

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
  /** `concurrent` requests in flight throughout `ms` (each ended and replaced as it goes), the loop `share` busy. */
  function serve(loop: ReturnType<typeof fakeLoop>, pressure: RequestPressure, ms: number, share: number, concurrent: number) {
    for (let i = 0; i < concurrent; i++) pressure.requestStarted();
    loop.run(ms, share);
    for (let i = 0; i < concurrent; i++) pressure.requestEnded();
  }

  it('is saturated when requests occupy the loop and it was at least 80 % busy over the last window', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    serve(loop, pressure, 100, 0.95, 8);
    assert.equal(pressure.saturated(), true);
    serve(loop, pressure, 100, 0.5, 8);
    assert.equal(pressure.saturated(), false, 'half busy: room left for deliveries');
  });

  it('counts requests in flight for half the window as occupying it, not less', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    // On SQLite requests run one at a time, each from start to end: their time is the loop's.
    serve(loop, pressure, 50, 0.9, 1);
    loop.run(50, 0.9);
    assert.equal(pressure.saturated(), true, 'one request in flight half the window');
    serve(loop, pressure, 40, 0.9, 1);
    loop.run(60, 0.9);
    assert.equal(pressure.saturated(), false, 'one in flight 40 % of the window');
  });

  it('is not saturated by a busy loop that serves no request (a backlog drained alone)', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    loop.run(100, 1);
    assert.equal(pressure.saturated(), false);
  });

  it('is not saturated by a trickle of requests while background work keeps the loop busy', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    // A health check every 10 ms, each answered in 1 ms between the backlog's steps.
    for (let i = 0; i < 10; i++) {
      serve(loop, pressure, 1, 1, 1);
      loop.run(9, 1);
    }
    assert.equal(pressure.saturated(), false);
  });

  it('counts a request over the windows it spans', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    pressure.requestStarted();
    loop.run(100, 0.9);
    assert.equal(pressure.saturated(), true, 'in flight through the first window');
    loop.run(100, 0.9);
    assert.equal(pressure.saturated(), true, 'and through the second');
    pressure.requestEnded();
    loop.run(100, 0.9);
    assert.equal(pressure.saturated(), false, 'ended before the third');
  });

  it('keeps its answer until a window has passed', () => {
    const loop = fakeLoop();
    const pressure = createRequestPressure(loop.utilisation, loop.now);
    serve(loop, pressure, 100, 0.9, 2);
    assert.equal(pressure.saturated(), true);
    loop.run(50, 0);
    assert.equal(pressure.saturated(), true, 'within the window');
    loop.run(50, 0);
    assert.equal(pressure.saturated(), false, 'a quiet window later');
  });
});
