// docs/native.md, "Serving before the table is built": work done ahead of need runs in slices
// between a mount's requests, and while the kernel keeps sending requests, one slice per pause
// rather than one per turn. runInSlices asks `pause()` before each slice after the first.
import { afterEach, describe, expect, test, vi } from "vitest";
import { runInSlices, type Steps } from "../src/slices.js";

/** Work of `count` steps that records how many it has done. */
function counted(count: number, done: { steps: number }): Steps<string> {
  return (function* () {
    for (let step = 0; step < count; step += 1) {
      done.steps += 1;
      yield;
    }
    return "finished";
  })();
}

afterEach(() => {
  vi.useRealTimers();
});

describe("runInSlices paced by pause()", () => {
  test("a pause leaves the thread to others for that long before the next slice; 0 resumes on the next turn", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "setImmediate"] });
    const done = { steps: 0 };
    let busy = true;
    // A slice of 0 ms does one step each.
    const finished = runInSlices(
      counted(4, done),
      () => false,
      0,
      () => (busy ? 50 : 0),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(done.steps).toBe(1);
    await vi.advanceTimersByTimeAsync(49);
    expect(done.steps).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(done.steps).toBe(2);
    busy = false; // asked after step 2: the slice after it still waits the 50 ms it was given
    await vi.advanceTimersByTimeAsync(50);
    expect(done.steps).toBe(3);
    // Not busy any more: the next slice comes at once, not a pause later.
    await vi.advanceTimersByTimeAsync(1);
    expect(done.steps).toBe(4);
    await vi.runAllTimersAsync();
    expect(await finished).toBe("finished");
  });

  test("without a pause, every slice comes on the next turn of the event loop", async () => {
    const done = { steps: 0 };
    expect(await runInSlices(counted(5, done), () => false, 0)).toBe("finished");
    expect(done.steps).toBe(5);
  });
});
