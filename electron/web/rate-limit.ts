/**
 * A token bucket for browser mode's API: `burst` calls at once, refilled at `perSecond`. Only this
 * machine can reach the server, but any program on it can; a bound keeps one that loops on the API
 * from starving the page (and the engine) of everything else.
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** Generous for the interface (a view opens with a handful of calls, an answer streams as events). */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 50, burst: 200 };

export function createRateLimiter(limit: RateLimit, now: () => number = Date.now): { take(): boolean } {
  let tokens = limit.burst;
  let at = now();
  return {
    take() {
      const t = now();
      tokens = Math.min(limit.burst, tokens + ((t - at) / 1000) * limit.perSecond);
      at = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
