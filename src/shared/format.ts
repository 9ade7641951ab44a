/** 950 → "950", 12_345 → "12.3k", 200_000 → "200k", 1_250_000 → "1.25M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) {
    const k = n / 1000;
    return `${k >= 100 ? Math.round(k) : Number(k.toFixed(1))}k`;
  }
  return `${Number((n / 1_000_000).toFixed(2))}M`;
}

/** "1 message", "3 messages": a count with its noun (the plural given when it is not just an s). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A tool's run time for people: nothing under 0.1 s (it reads as noise), "1.2 s", "14 s", "2 min 5 s". */
export function formatDuration(ms: number | undefined): string | undefined {
  if (ms === undefined || !Number.isFinite(ms) || ms < 100) return undefined;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/**
 * When something happened, the same way in every list (the panel's history and the Resume
 * picker): "just now", "12 min ago", "today 14:05", "yesterday 09:30", "Mar 4, 14:05",
 * "Mar 4, 2024". Local time, 24-hour clock, no locale, so host and webview agree.
 */
export function formatWhen(ms: number, now: number = Date.now()): string {
  const diff = now - ms;
  if (diff >= 0 && diff < 90_000) return 'just now';
  if (diff >= 0 && diff < 90 * 60_000) return `${Math.round(diff / 60_000)} min ago`;
  const d = new Date(ms);
  const n = new Date(now);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const days = Math.round((dayStart(n) - dayStart(d)) / 86_400_000);
  if (days === 0) return `today ${time}`;
  if (days === 1) return `yesterday ${time}`;
  const date = `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return d.getFullYear() === n.getFullYear() ? `${date}, ${time}` : `${date}, ${d.getFullYear()}`;
}
