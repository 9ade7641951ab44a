// The brute-force floor for the rule "the three latest read results stay verbatim": the least a
// main loop could be billed for the same turns under the stand-in's cache rules.
//
// The model. Request s holds the fixed prefix (tools, system, first prompt) and, for each turn
// u ≤ s, the assistant's blocks, then the read result of that turn (if any), then any other
// user blocks. A read result is Full (its tokens as measured), or Small (a cleared placeholder,
// or a pointer to an earlier Full copy of the same content: `smallTokens` either way). The rule:
// the contents of the three latest reads each have a Full copy in the request.
//
// The cache, relaxed in the floor's favour (so the floor is a lower bound on these rules):
// whatever prefix an earlier request sent can be read (0.1×); the rest of a request is written
// (1.25×) when the next request will read it, else sent uncached (1×). Breakpoint count, the
// 20-block look-back and the 5-minute lifetime are ignored: each only makes a real agent pay more.
//
// The search. A new read is Full unless its content already has a Full copy (then a pointer:
// a second copy never pays). Between clearings the prompt only grows, each request reading the
// one before. A clearing at request e picks a first copy to clear among the Full copies whose
// content is not among the three latest reads, and turns that one and every such copy after it
// into Small; the request reads up to the first block that changed and writes the rest. We
// search every schedule of clearings exactly, by dynamic programming over (request of the last
// clearing, Full copies left after it, tokens that request wrote), trying each next clearing
// point and each useful first copy. Given the first changed block, clearing every allowed copy
// after it only shrinks what is written now and read later. Clearing from the earliest allowed
// copy is not always best when a content is read again: keeping an older copy Full lets the
// re-read be a pointer (a random strategy beat the earliest-only floor by 0.25 tokens on CI's
// 23 November draw), so a clearing may also start just after a copy whose content is read again.
// Without re-reads that is the earliest start only, and the floor is exact (a property test
// checks it against every schedule); with re-reads a property test checks it against every
// schedule, subset and pointer choice on small sessions. Requests over the window are not allowed.

export interface FloorStep {
  /** Tokens of the assistant's blocks before this request's new user message. */
  pre: number;
  /** Tokens of the other blocks of the new user message (prompt text, reminders). */
  post: number;
  /** The model's output for this request (billed at the output price). */
  output: number;
  /** The read result this request brings, keyed by the content it holds. */
  result?: { content: string; tokens: number };
}

export interface FloorInput {
  /** Tokens of the first request (tools, system, first prompt); steps[0] adds nothing to it. */
  prefix: number;
  steps: readonly FloorStep[];
  smallTokens: number;
  window: number;
  keepLatest?: number;
}

export interface FloorResult {
  /** Billed input-token equivalents (1× uncached, 1.25× written, 0.1× read, 5× output). */
  billed: number;
  /** Requests at which the cheapest schedule clears. */
  clearings: number[];
  feasible: boolean;
}

const WRITE = 1.25;
const READ = 0.1;
const OUTPUT = 5;

export function floorCost(input: FloorInput): FloorResult {
  const { prefix, steps, smallTokens, window } = input;
  const keep = input.keepLatest ?? 3;
  const K = steps.length;
  const output = steps.reduce((n, s) => n + s.output, 0) * OUTPUT;
  if (K === 0) return { billed: 0, clearings: [], feasible: true };
  const size = (u: number, full: ReadonlySet<number>) => {
    const s = steps[u]!;
    return s.pre + s.post + (s.result ? (full.has(u) ? s.result.tokens : smallTokens) : 0);
  };
  // The contents the rule keeps at each request: those of its three latest reads.
  const latest: Set<string>[] = steps.map((_, upTo) => {
    const out = new Set<string>();
    for (let u = upTo; u >= 1 && out.size < keep; u--) {
      const r = steps[u]!.result;
      if (r) out.add(r.content);
    }
    return out;
  });

  interface Best {
    cost: number;
    clearings: number[];
  }
  interface Node {
    /** The next request clears too: request e is not read past the change, so sent uncached. */
    atOnce: Best;
    /** The next request is an ordinary one: request e's fresh tokens are written (the caller adds that). */
    later: Best;
  }
  const memo = new Map<string, Node>();
  // The last request that reads each content.
  const lastRead = new Map<string, number>();
  steps.forEach((st, u) => {
    if (st.result) lastRead.set(st.result.content, u);
  });
  const readAgain = (content: string, after: number) => (lastRead.get(content) ?? -1) > after;
  const contentOf = (i: number) => steps[i]!.result!.content;
  const holds = (full: Iterable<number>, content: string) => {
    for (const i of full) if (contentOf(i) === content) return true;
    return false;
  };

  // Cost of requests e+1..K-1 given a clearing (or the first request) at e, with `full` the Full
  // copies after it and `length` the tokens request e sent. Request e's own cost is the caller's.
  const solve = (e: number, full: ReadonlySet<number>, length: number): Node => {
    const key = `${e}|${[...full].join(',')}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const node: Node = { atOnce: { cost: Infinity, clearings: [] }, later: { cost: Infinity, clearings: [] } };
    const consider = (which: keyof Node, cost: number, clearings: number[]) => {
      if (cost < node[which].cost) node[which] = { cost, clearings };
    };
    const running = new Set(full);
    // Where each turn starts in the current prompt (turns up to e, as they are after the clearing).
    const offset = new Array<number>(K + 1).fill(0);
    let L = prefix;
    for (let v = 1; v <= e; v++) {
      offset[v] = L;
      L += size(v, full);
    }
    if (L !== length) throw new Error(`floor: request ${e} holds ${L} tokens, expected ${length}`);
    let segment = 0;
    let lastFresh = 0;
    for (let next = e + 1; next <= K; next++) {
      const ordinary = next - e - 1;
      // The last ordinary request before a clearing (or the end) is not read past it: uncached.
      const segCost = segment - (ordinary > 0 ? (WRITE - 1) * lastFresh : 0);
      if (next === K) {
        consider(ordinary > 0 ? 'later' : 'atOnce', segCost, []);
        break;
      }
      const u = next;
      offset[u] = L;
      const r = steps[u]!.result;
      const isNewCopy = r !== undefined && !holds(running, r.content);
      const step = steps[u]!;
      const addIfKept = step.pre + step.post + (r ? (isNewCopy ? r.tokens : smallTokens) : 0);
      // Options: clear at `next`, from some Full copy the rule no longer needs on, every such copy.
      const allowed: number[] = [];
      for (const i of running) if (!latest[u]!.has(contentOf(i))) allowed.push(i);
      allowed.sort((a, b) => a - b);
      for (let from = 0; from < allowed.length; from++) {
        // Keeping a copy before the first cleared one Full pays only if its content is read
        // again (the re-read can then be a pointer); other starts are not tried, which keeps the
        // search as small as before on sessions without re-reads.
        if (from > 0 && !readAgain(contentOf(allowed[from - 1]!), u)) continue;
        const cleared = allowed.slice(from);
        const first = cleared[0]!;
        let freed = 0;
        for (const i of cleared) freed += steps[i]!.result!.tokens - smallTokens;
        // Tokens before the first changed block, the same before and after the clearing.
        const shared = offset[first]! + steps[first]!.pre;
        const sent = L + addIfKept - freed;
        if (sent <= window) {
          const after = new Set([...running].filter((i) => !cleared.includes(i)));
          if (isNewCopy) after.add(u);
          const rest = solve(u, after, sent);
          const fresh = sent - shared;
          const here = READ * shared + fresh;
          const viaLater = rest.later.cost + (WRITE - 1) * fresh;
          const restBest = rest.atOnce.cost <= viaLater ? { cost: rest.atOnce.cost, path: rest.atOnce.clearings } : { cost: viaLater, path: rest.later.clearings };
          consider(ordinary > 0 ? 'later' : 'atOnce', segCost + here + restBest.cost, [u, ...restBest.path]);
        }
      }
      // Otherwise `next` is an ordinary request: it reads the one before and adds its turn.
      if (isNewCopy) running.add(u);
      if (L + addIfKept > window) break;
      segment += READ * L + WRITE * addIfKept;
      lastFresh = addIfKept;
      L += addIfKept;
    }
    memo.set(key, node);
    return node;
  };

  if (prefix > window) return { billed: Infinity, clearings: [], feasible: false };
  const root = solve(0, new Set(), prefix);
  const laterCost = root.later.cost + (WRITE - 1) * prefix;
  const best = root.atOnce.cost <= laterCost ? { cost: root.atOnce.cost, clearings: root.atOnce.clearings } : { cost: laterCost, clearings: root.later.clearings };
  return { billed: prefix + best.cost + output, clearings: best.clearings, feasible: Number.isFinite(best.cost) };
}
