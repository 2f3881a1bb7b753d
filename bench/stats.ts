/** Percentile of a sample (nearest rank), in the sample's unit. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Microseconds elapsed since a process.hrtime.bigint() start. */
export function usSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}
