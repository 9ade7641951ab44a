/**
 * Files matching what was typed after `@`, best first: every typed character in order (a
 * subsequence, case-insensitive), ranked by a match in the file name over one in the folders,
 * then by how tight the match is, then by shorter paths.
 */
export function fuzzyFiles(files: readonly string[], query: string, limit = 50): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return files.slice(0, limit);
  const scored: { path: string; score: number }[] = [];
  for (const path of files) {
    const score = scoreOf(path.toLowerCase(), q);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => a.score - b.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}

function scoreOf(path: string, q: string): number | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const inBase = base.indexOf(q);
  if (inBase >= 0) return inBase === 0 ? 0 : 1;
  if (path.includes(q)) return 2;
  // Subsequence: the score grows with the gaps between matched characters.
  let at = -1;
  let gaps = 0;
  for (const ch of q) {
    const next = path.indexOf(ch, at + 1);
    if (next < 0) return undefined;
    if (at >= 0) gaps += next - at - 1;
    at = next;
  }
  return 3 + gaps;
}
