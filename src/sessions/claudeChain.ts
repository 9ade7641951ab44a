import type { ClaudeEntry, ClaudeTranscript, SkipCounts } from './claudeTranscript';

/**
 * Which lines of a Claude Code transcript make the conversation it resumes, worked out the way
 * Claude Code 2.1 resumes one: start from the leaf (the message the last `last-prompt` line names,
 * or the last message written when it descends from that one), follow `parentUuid` back to the
 * root, and keep only what follows the last compact boundary. A boundary that kept recent
 * messages verbatim lists them; they are hung back after its summary first.
 */
export interface ClaudeChain {
  /** Oldest first: the summary (when there was a compaction), then what followed it. */
  entries: ClaudeEntry[];
  /** The last compact boundary of the chain, if any. */
  boundary: ClaudeEntry | undefined;
  /** How many compact boundaries the file holds. */
  compactions: number;
  leaf: ClaudeEntry | undefined;
}

// A parent line lost to a torn write: continue from the message written just before, if it was
// written within this long (Claude Code's own fallback uses the same window).
const PARENT_FALLBACK_MS = 5000;

const isMessage = (e: ClaudeEntry | undefined): boolean => e?.kind === 'user' || e?.kind === 'assistant';
const isBoundary = (e: ClaudeEntry): boolean => e.kind === 'system' && e.line.subtype === 'compact_boundary';
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);

export function buildChain(t: ClaudeTranscript, skips: SkipCounts): ClaudeChain {
  const entries = t.entries;
  collapseProgress(t);
  const boundaries = [...entries.values()].filter(isBoundary);
  const lastBoundary = boundaries.at(-1);
  const { preserved, dropped } = relinkPreserved(entries, boundaries);
  const live = (e: ClaudeEntry) => !dropped.has(e.uuid);

  const leaf = t.cleared ? undefined : pickLeaf(t, live, preserved.size > 0);
  const chain = leaf ? walk(entries, leaf, live) : [];
  const inChain = new Set(chain.map((e) => e.uuid));
  const withResults = recoverParallelResults(entries, chain, inChain, live);
  if (leaf) withResults.push(...trailingNotes(entries, leaf, inChain, live));

  let start = 0;
  let boundary: ClaudeEntry | undefined;
  withResults.forEach((e, i) => {
    if (isBoundary(e)) {
      boundary = e;
      start = i + 1;
    }
  });
  const kept = withResults.slice(start);
  const keptIds = new Set(kept.map((e) => e.uuid));
  for (const e of entries.values()) {
    if (keptIds.has(e.uuid) || isBoundary(e)) continue;
    if (e.isSidechain) skips.sidechain++;
    else if (lastBoundary && e.order < lastBoundary.order && !preserved.has(e.uuid)) skips.beforeCompaction++;
    else skips.offChain++;
  }
  return { entries: kept, boundary, compactions: boundaries.length, leaf };
}

/** A child of a progress line really continues from the progress line's own parent. */
function collapseProgress(t: ClaudeTranscript): void {
  if (!t.collapsed.size) return;
  for (const e of t.entries.values()) {
    let p = e.parentUuid;
    const seen = new Set<string>();
    while (p !== null && t.collapsed.has(p) && !seen.has(p)) {
      seen.add(p);
      p = t.collapsed.get(p) ?? null;
    }
    e.parentUuid = p;
  }
}

/**
 * A compaction that kept the latest messages verbatim records them (`preservedMessages`, or the
 * older head/tail `preservedSegment`); they sit before the boundary in the file, so they are
 * re-parented after the summary, and what followed the summary after them. Lines before the last
 * boundary are then out of the graph. Returns the uuids kept this way.
 */
function relinkPreserved(entries: Map<string, ClaudeEntry>, boundaries: ClaudeEntry[]): { preserved: Set<string>; dropped: Set<string> } {
  const none = { preserved: new Set<string>(), dropped: new Set<string>() };
  const withMeta = boundaries.filter((b) => b.line.compactMetadata?.preservedMessages || b.line.compactMetadata?.preservedSegment).at(-1);
  if (!withMeta) return none;
  const last = boundaries.at(-1)!;
  let kept: { anchor: string; uuids: string[] } | undefined;
  if (withMeta === last) {
    kept = preservedList(entries, last);
    // Metadata that does not resolve is left alone, as Claude Code leaves it.
    if (!kept || kept.uuids.some((u) => !entries.has(u))) return none;
  }
  const uuids = kept?.uuids ?? [];
  if (kept && uuids.length) {
    let parent = kept.anchor;
    for (const u of uuids) {
      entries.get(u)!.parentUuid = parent;
      parent = u;
    }
    for (const e of entries.values()) if (e.parentUuid === kept.anchor && e.uuid !== uuids[0]) e.parentUuid = uuids.at(-1)!;
  }
  const preserved = new Set(uuids);
  // Dropped lines stay in the map, for the skip counts, but nothing leads to them any more.
  const dropped = new Set<string>();
  for (const e of entries.values()) if (e.order < last.order && !preserved.has(e.uuid)) dropped.add(e.uuid);
  if (uuids.length && dropped.size) {
    for (const e of entries.values()) if (isMessage(e) && e.parentUuid !== null && dropped.has(e.parentUuid)) e.parentUuid = uuids.at(-1)!;
  }
  return { preserved, dropped };
}

function preservedList(entries: Map<string, ClaudeEntry>, b: ClaudeEntry): { anchor: string; uuids: string[] } | undefined {
  const m = b.line.compactMetadata;
  const listed = m?.preservedMessages;
  if (listed && typeof listed.anchorUuid === 'string') {
    const uuids = strings(listed.uuids);
    return uuids ? { anchor: listed.anchorUuid, uuids } : undefined;
  }
  const seg = m?.preservedSegment;
  if (!seg || typeof seg.headUuid !== 'string' || typeof seg.tailUuid !== 'string' || typeof seg.anchorUuid !== 'string') return undefined;
  // The segment names its ends only: walk from the tail back to the head.
  const uuids: string[] = [];
  const seen = new Set<string>();
  let e = entries.get(seg.tailUuid);
  while (e && !seen.has(e.uuid)) {
    seen.add(e.uuid);
    uuids.push(e.uuid);
    if (e.uuid === seg.headUuid) return { anchor: seg.anchorUuid, uuids: uuids.reverse() };
    e = e.parentUuid ? entries.get(e.parentUuid) : undefined;
  }
  return undefined;
}

/** The newest message of the branch the session is on. */
function pickLeaf(t: ClaudeTranscript, live: (e: ClaudeEntry) => boolean, relinked: boolean): ClaudeEntry | undefined {
  const { entries } = t;
  const usable = (u: string | undefined) => (u && entries.has(u) && live(entries.get(u)!) ? u : undefined);
  const last = usable(t.lastUuid);
  const hint = usable(t.leafHint?.uuid);
  const explicit = hint !== undefined && t.leafHint!.explicit;
  // Kept messages now follow the summary, so a marker naming the summary is out of date: the
  // leaf is whichever message ends a branch, the marker's or the last written one on a tie.
  if (relinked && !explicit) {
    const ends = branchEnds(entries, live);
    if (ends.length === 1) return ends[0];
    const pick = hint && ends.some((e) => e.uuid === hint) ? hint : last;
    return (pick ? messageAtOrAbove(entries, pick) : undefined) ?? newestMessage(entries, live);
  }
  let from = hint;
  // The marker is written when a prompt starts; messages after it descend from it and are newer.
  if (from && !explicit && last && last !== from && descendsFrom(entries, last, from)) from = last;
  from ??= last;
  // No message above the marker (a boundary written last, say): the newest message line.
  return (from ? messageAtOrAbove(entries, from) : undefined) ?? newestMessage(entries, live);
}

function messageAtOrAbove(entries: Map<string, ClaudeEntry>, uuid: string): ClaudeEntry | undefined {
  const seen = new Set<string>();
  let e = entries.get(uuid);
  while (e && !seen.has(e.uuid)) {
    seen.add(e.uuid);
    if (isMessage(e)) return e;
    e = e.parentUuid ? entries.get(e.parentUuid) : undefined;
  }
  return undefined;
}

const newestMessage = (entries: Map<string, ClaudeEntry>, live: (e: ClaudeEntry) => boolean) =>
  [...entries.values()].filter((x) => isMessage(x) && !x.isSidechain && live(x)).at(-1);

/** The last message of every branch: messages no other message continues. */
function branchEnds(entries: Map<string, ClaudeEntry>, live: (e: ClaudeEntry) => boolean): ClaudeEntry[] {
  const parents = new Set<string>();
  const messageParents = new Set<string>();
  for (const e of entries.values()) {
    // Sub-agent lines hanging off a message do not continue the main conversation.
    if (!live(e) || !e.parentUuid || e.isSidechain) continue;
    parents.add(e.parentUuid);
    if (isMessage(e)) messageParents.add(e.parentUuid);
  }
  const out = new Map<string, ClaudeEntry>();
  for (const e of entries.values()) {
    if (!live(e) || e.isSidechain || parents.has(e.uuid)) continue;
    const m = messageAtOrAbove(entries, e.uuid);
    if (m && !messageParents.has(m.uuid)) out.set(m.uuid, m);
  }
  return [...out.values()];
}

function descendsFrom(entries: Map<string, ClaudeEntry>, child: string, ancestor: string): boolean {
  const seen = new Set<string>();
  let e = entries.get(child);
  while (e && !seen.has(e.uuid)) {
    if (e.uuid === ancestor) return true;
    seen.add(e.uuid);
    e = e.parentUuid ? entries.get(e.parentUuid) : undefined;
  }
  return false;
}

/** Root to leaf. A missing parent falls back to the line written just before; a cycle ends the walk. */
function walk(entries: Map<string, ClaudeEntry>, leaf: ClaudeEntry, live: (e: ClaudeEntry) => boolean): ClaudeEntry[] {
  const out: ClaudeEntry[] = [];
  const seen = new Set<string>();
  let e: ClaudeEntry | undefined = leaf;
  while (e && !seen.has(e.uuid)) {
    seen.add(e.uuid);
    out.push(e);
    if (!e.parentUuid) break;
    let next = entries.get(e.parentUuid);
    if (!next || seen.has(next.uuid) || !live(next)) next = writtenJustBefore(entries, e, seen, live);
    e = next;
  }
  return out.reverse();
}

function writtenJustBefore(entries: Map<string, ClaudeEntry>, e: ClaudeEntry, seen: Set<string>, live: (e: ClaudeEntry) => boolean): ClaudeEntry | undefined {
  if (Number.isNaN(e.time)) return undefined;
  let best: ClaudeEntry | undefined;
  let gap = Infinity;
  for (const x of entries.values()) {
    if (seen.has(x.uuid) || x.isSidechain !== e.isSidechain || !live(x) || Number.isNaN(x.time)) continue;
    const d = e.time - x.time;
    if (d >= 0 && d <= PARENT_FALLBACK_MS && d < gap) {
      gap = d;
      best = x;
    }
  }
  return best;
}

/**
 * Claude Code writes each block of an answer as its own line and hangs each tool result off the
 * line of its call, so with parallel calls the leaf's chain passes through one call and one result
 * only. The others (same API message id, or a result of one of its lines) go back in after it.
 */
function recoverParallelResults(entries: Map<string, ClaudeEntry>, chain: ClaudeEntry[], inChain: Set<string>, live: (e: ClaudeEntry) => boolean): ClaudeEntry[] {
  const byMessage = new Map<string, ClaudeEntry[]>();
  const resultsOf = new Map<string, ClaudeEntry[]>();
  for (const e of entries.values()) {
    if (!live(e) || e.isSidechain) continue;
    const id = e.kind === 'assistant' ? e.line.message?.id : undefined;
    if (typeof id === 'string') pushTo(byMessage, id, e);
    else if (e.kind === 'user' && e.parentUuid && hasToolResult(e)) pushTo(resultsOf, e.parentUuid, e);
  }
  const after = new Map<string, ClaudeEntry[]>();
  const lastOf = new Map<string, ClaudeEntry>();
  for (const e of chain) {
    const id = e.kind === 'assistant' ? e.line.message?.id : undefined;
    if (typeof id === 'string') lastOf.set(id, e);
  }
  for (const [id, at] of lastOf) {
    const group = byMessage.get(id) ?? [];
    const lines = group.filter((x) => !inChain.has(x.uuid));
    const results = group.flatMap((x) => resultsOf.get(x.uuid) ?? []).filter((x) => !inChain.has(x.uuid));
    const extra = [...byTime(lines), ...byTime(results)];
    for (const x of extra) inChain.add(x.uuid);
    if (extra.length) after.set(at.uuid, extra);
  }
  if (!after.size) return chain.slice();
  return chain.flatMap((e) => [e, ...(after.get(e.uuid) ?? [])]);
}

function hasToolResult(e: ClaudeEntry): boolean {
  const c = e.line.message?.content;
  return Array.isArray(c) && c.some((b) => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'tool_result');
}

function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const byTime = (xs: ClaudeEntry[]): ClaudeEntry[] => xs.slice().sort((a, b) => (a.time || 0) - (b.time || 0) || a.order - b.order);

/** Attachments and notes written after the leaf message hang off it; they belong to the session too. */
function trailingNotes(entries: Map<string, ClaudeEntry>, leaf: ClaudeEntry, inChain: Set<string>, live: (e: ClaudeEntry) => boolean): ClaudeEntry[] {
  const children = new Map<string, ClaudeEntry[]>();
  for (const e of entries.values()) if (e.parentUuid && !isMessage(e) && live(e)) pushTo(children, e.parentUuid, e);
  const out: ClaudeEntry[] = [];
  const queue = [leaf.uuid];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      if (inChain.has(c.uuid)) continue;
      inChain.add(c.uuid);
      out.push(c);
      queue.push(c.uuid);
    }
  }
  return byTime(out);
}
