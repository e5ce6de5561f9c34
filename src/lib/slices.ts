/**
 * Gives the event loop back: timers and I/O that arrived meanwhile run before this resolves. One
 * setImmediate is not enough from code running in the loop's poll phase (a request's handler):
 * its check phase comes next, before the loop reaches timers and I/O again; the second one resolves
 * in the check phase of the next round.
 */
export function yieldToIo(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * A long loop over user data in slices: `between()` gives the event loop back (yieldToIo) once
 * `sliceMs` of work has passed since it last did, so other requests are served in between.
 */
export function inSlices(sliceMs = 10): { between(): Promise<void> } {
  let since = performance.now();
  return {
    async between() {
      if (performance.now() - since < sliceMs) return;
      await yieldToIo();
      since = performance.now();
    },
  };
}
