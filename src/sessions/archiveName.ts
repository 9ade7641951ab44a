const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The name an archived transcript's tab shows: the session's title and when the compaction
 * archived it ("Fix the login form — archived 2026-11-23 14:05.md"), not the archive's file id.
 * Local time, and nothing a path could split on.
 */
export function archiveTabName(title: string, archivedAt: number): string {
  const d = new Date(archivedAt);
  const when = Number.isFinite(archivedAt) ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}` : 'unknown date';
  // eslint-disable-next-line no-control-regex
  const clean = title.replace(/[\u0000-\u001f\u007f/\\:*?"<>|#%]+/g, ' ').replace(/\s+/g, ' ').trim();
  const short = clean.length > 60 ? `${clean.slice(0, 59).trimEnd()}…` : clean;
  return `${short || 'Untitled session'} — archived ${when}.md`;
}
