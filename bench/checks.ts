/**
 * Thrown by a suite whose figures missed their targets: the runner still records and prints
 * the figures, names each failure and exits non-zero.
 */
export class BenchCheckFailed extends Error {
  constructor(
    readonly figures: Record<string, number>,
    readonly failures: readonly string[],
  ) {
    super(failures.join('\n'));
  }
}
