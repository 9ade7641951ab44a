/** The p-quantile of samples (nearest rank); `percentile(xs, 0.5)` is the median. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
}

export const median = (xs: readonly number[]): number => percentile(xs, 0.5);
