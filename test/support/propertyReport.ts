import { appendFileSync } from 'node:fs';

/**
 * Property tests say how many cases they really ran, so a benchmark can report a measured count
 * (set THREADLINE_PROPERTY_REPORT to a file; one JSON line per property).
 */
export function reportPropertyRuns(name: string, cases: number): void {
  const file = process.env.THREADLINE_PROPERTY_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ name, cases })}\n`);
}
