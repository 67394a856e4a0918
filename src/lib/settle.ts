/** Waits until every promise has settled or `graceMs` has passed, whichever comes first; whether they all settled. */
export async function settledWithin(promises: Iterable<Promise<unknown>>, graceMs: number): Promise<boolean> {
  let graceTimer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<false>((resolve) => {
    graceTimer = setTimeout(() => resolve(false), graceMs);
  });
  const settled = Promise.allSettled(promises).then(() => true as const);
  try {
    return await Promise.race([settled, graceOver]);
  } finally {
    clearTimeout(graceTimer);
  }
}
