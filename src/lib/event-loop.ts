import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge } from 'prom-client';
import { registry } from './metrics.js';

/* The event loop's delay, in the process's registry (lib/metrics.ts): every role's entry watches it (roles/runtime.ts). */

/** How often the event loop delay is sampled: a timer of this period, whose lateness is the delay. */
const LOOP_SAMPLE_MS = 10;

/**
 * The event loop's delay, sampled while an app runs (watchEventLoop). perf_hooks' histogram gives
 * the percentiles; the maxima come from a timer of our own, because the histogram's reset() forgets
 * the interval in which it is called, so a hold that began right after a scrape would be missed
 * (test/platform/metrics.test.ts, "shows a held event loop").
 */
const loop = {
  histogram: monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS }),
  timer: null as NodeJS.Timeout | null,
  watchers: 0,
  lastTick: 0,
  /** The longest lateness of the timer in the scrape window, and since start or resetEventLoopDelayPeak(), in ms. */
  windowMaxMs: 0,
  peakMs: 0,
};

function tick(): void {
  const now = performance.now();
  const late = Math.max(0, now - loop.lastTick - LOOP_SAMPLE_MS);
  loop.lastTick = now;
  if (late > loop.windowMaxMs) loop.windowMaxMs = late;
  if (late > loop.peakMs) loop.peakMs = late;
}

/** Samples the event loop's delay until the returned function is called (each app of a process asks; the last one stops it). */
export function watchEventLoop(): () => void {
  if (loop.watchers++ === 0) {
    loop.lastTick = performance.now();
    loop.histogram.enable();
    loop.timer = setInterval(tick, LOOP_SAMPLE_MS).unref();
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--loop.watchers > 0) return;
    loop.histogram.disable();
    clearInterval(loop.timer!);
    loop.timer = null;
  };
}

/** perf_hooks records the interval between its timer's runs; the delay is what exceeds its period. */
const lateness = (intervalNs: number) => Math.max(0, intervalNs / 1e6 - LOOP_SAMPLE_MS) / 1000;

/**
 * The event loop delay over the window since the previous scrape (each scrape starts a new one):
 * a request held the loop that long while others waited. In every process, whatever its roles.
 */
export const eventLoopDelay = new Gauge({
  name: 'postbox_event_loop_delay_seconds',
  help: 'Event loop delay since the previous scrape, sampled every 10 ms: p50, p99 and the maximum (quantile="1")',
  labelNames: ['quantile'],
  registers: [registry],
  collect() {
    const sampled = loop.histogram.count > 0;
    this.set({ quantile: '0.5' }, sampled ? lateness(loop.histogram.percentile(50)) : 0);
    this.set({ quantile: '0.99' }, sampled ? lateness(loop.histogram.percentile(99)) : 0);
    this.set({ quantile: '1' }, loop.windowMaxMs / 1000);
    loop.histogram.reset();
    loop.windowMaxMs = 0;
  },
});

/** The longest event loop delay since the process started, or since resetEventLoopDelayPeak(). */
export function eventLoopDelayPeakSeconds(): number {
  return loop.peakMs / 1000;
}

/** Starts the peak again, for a check of what one piece of work did. */
export function resetEventLoopDelayPeak(): void {
  loop.peakMs = 0;
}

/** The peak, unaffected by scrapes: a sweep reads it after its work whoever else scraped meanwhile. */
export const eventLoopDelayPeak = new Gauge({
  name: 'postbox_event_loop_delay_peak_seconds',
  help: 'Longest event loop delay since the process started (or since its peak was last reset)',
  registers: [registry],
  collect() {
    this.set(eventLoopDelayPeakSeconds());
  },
});
