// docs/afi.md, "HTTP transport" (rate limit): a token bucket per client address, on a clock the test moves.
import { expect, test } from "vitest";
import { RateLimit } from "../src/afi/rate-limit.js";

test.each([
  ["a burst of N passes, the next waits a second", 3, [0, 0, 0, 0], [0, 0, 0, 1]],
  ["after a second the bucket is full again", 2, [0, 0, 0, 1, 1, 1], [0, 0, 1, 0, 0, 1]],
  ["half a second refills half the bucket", 4, [0, 0, 0, 0, 0.5, 0.5, 0.5], [0, 0, 0, 0, 0, 0, 1]],
  ["one a second: the second request within it waits", 1, [0, 0.5, 1.5], [0, 1, 0]],
])("%s", (_name, perSecond, times, waits) => {
  let now = 0;
  const limit = new RateLimit(perSecond, () => now);
  const seen = times.map((time) => {
    now = time;
    return limit.take("client");
  });
  expect(seen).toEqual(waits);
});

test("each client has its own bucket", () => {
  const limit = new RateLimit(1, () => 0);
  expect([limit.take("a"), limit.take("b"), limit.take("a"), limit.take("b")]).toEqual([0, 0, 1, 1]);
});
