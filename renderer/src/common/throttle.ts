import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * State whose updates render at most once per `ms` (leading and trailing edge): the last value
 * always lands, the ones in between are skipped. Keeps the UI responsive under event floods.
 */
export function useThrottledState<T>(initial: T, ms = 100): [T, (v: T) => void, (v: T) => void] {
  const [value, setValue] = useState(initial);
  const latest = useRef(initial);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(() => {
    timer.current = null;
    last.current = Date.now();
    setValue(latest.current);
  }, []);

  const setThrottled = useCallback(
    (v: T) => {
      latest.current = v;
      if (timer.current) return;
      const wait = last.current + ms - Date.now();
      if (wait <= 0) flush();
      else timer.current = setTimeout(flush, wait);
    },
    [flush, ms],
  );

  const setNow = useCallback((v: T) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    latest.current = v;
    // Not counted as a throttled render: the next throttled value (e.g. first progress) shows at once.
    last.current = 0;
    setValue(v);
  }, []);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  return [value, setThrottled, setNow];
}

/** The current time, ticking every `ms` while `active`. */
export function useNow(active: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [active, ms]);
  return now;
}

/** How often a view reloads at most after `library.changed` (an import or a watch sends them in floods). */
export const LIBRARY_RELOAD_MS = 500;

/**
 * `load` run at most once per `ms`, and never while a run is still in flight: requests in between
 * coalesce into one run after (so the last request is always followed by a run). For reloading
 * after events that come in floods, such as `library.changed` during an import or a watch.
 */
export function coalesced(load: () => Promise<unknown>, ms: number): { request(): void; stop(): void } {
  let inFlight = false;
  let again = false;
  let stopped = false;
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const start = () => {
    timer = null;
    again = false;
    last = Date.now();
    inFlight = true;
    void load()
      .catch(() => {})
      .finally(() => {
        inFlight = false;
        if (again && !stopped) request();
      });
  };
  const request = () => {
    if (stopped || timer) return;
    if (inFlight) {
      again = true;
      return;
    }
    const wait = last + ms - Date.now();
    if (wait <= 0) start();
    else timer = setTimeout(start, wait);
  };
  return {
    request,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
