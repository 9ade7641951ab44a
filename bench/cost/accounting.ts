// What each request cost and held, from the stand-in's recorded usage and body: the billing
// formula, the main/background split, and the check that the three latest read results are in
// every main request word for word.
import type { RecordedRequest } from '../../test/standin/server';
import { blockTokens, countRequestTokens, countTextTokens } from '../../test/standin/tokens';
import type { Classification, SessionPlayer } from './player';
import type { FloorStep } from './floor';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Billed tokens, in claude-sonnet-4-6 input-token equivalents:
 *   billed = f × (uncached + 1.25 × cache written + 0.1 × cache read + 5 × output)
 * where 5 is the output/input price ratio (the same for every current model) and f the model's
 * input price over Sonnet's (haiku 1/3, opus 5/3), so a background request sent to a cheaper
 * model counts at its own price. Prices: anthropic.com/pricing, checked 2026-11.
 */
export const WRITE_PRICE = 1.25;
export const READ_PRICE = 0.1;
export const OUTPUT_PRICE = 5;

export function priceFactor(model: string): number {
  if (/haiku/.test(model)) return 1 / 3;
  if (/opus-4-[5-9]|opus-[5-9]/.test(model)) return 5 / 3;
  if (/opus/.test(model)) return 5;
  return 1;
}

export interface Usage {
  uncached: number;
  written: number;
  read: number;
  output: number;
}

export function billedOf(u: Usage, model: string): number {
  return priceFactor(model) * (u.uncached + WRITE_PRICE * u.written + READ_PRICE * u.read + OUTPUT_PRICE * u.output);
}

export interface RequestFacts {
  kind: 'main' | 'background';
  model: string;
  status: number;
  tooLong: boolean;
  usage?: Usage;
  billed: number;
  /** For main requests: the read results the rule requires, and those not there in full. */
  required?: string[];
  missing?: string[];
  classification: Classification;
}

function lastMessages(body: Json): { assistant?: Json; user?: Json } {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]).filter(isObject) : [];
  const user = messages.at(-1)?.role === 'user' ? messages.at(-1) : undefined;
  const assistant = messages.at(-2)?.role === 'assistant' ? messages.at(-2) : undefined;
  return { ...(assistant ? { assistant } : {}), ...(user ? { user } : {}) };
}

const blocksOf = (m: Json | undefined): unknown[] => (!m ? [] : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : []);

/** Which files' every line is in the request (searched in the messages and the system prompt). */
function missingFiles(body: Json, required: readonly string[], player: SessionPlayer): string[] {
  const text = JSON.stringify([body.system ?? '', body.messages ?? []]);
  return required.filter((path) => {
    const f = player.session.files.get(path)!;
    const found = new Set<number>();
    for (const m of text.matchAll(new RegExp(`\\b${f.id}_(\\d{4})\\b`, 'g'))) found.add(Number(m[1]));
    return found.size !== f.lines;
  });
}

export interface BackgroundKind {
  kind: string;
  requests: number;
  billed: number;
  /** Share of these requests' prompts read from the cache. */
  readShare: number;
}

const KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/update the session notes and save memories/i, 'session notes + memory extraction (one request)'],
  [/remembered|memor/i, 'memory extraction'],
  [/session notes/i, 'session notes'],
  [/background tool call/i, 'a fork\'s follow-up turn (after its Edit)'],
  [/summar|TEXT ONLY/i, 'compaction summary'],
  [/no read tool/i, 'side request without tools (title, quota)'],
];

/** The background requests grouped by what they were for, to show where background cost goes. */
export function backgroundKinds(requests: readonly RequestFacts[]): BackgroundKind[] {
  const groups = new Map<string, RequestFacts[]>();
  for (const r of requests) {
    if (r.classification.kind !== 'background') continue;
    const why = r.classification.why;
    const kind = KINDS.find(([re]) => re.test(why))?.[1] ?? `other: ${why.slice(0, 40)}`;
    groups.set(kind, [...(groups.get(kind) ?? []), r]);
  }
  return [...groups].map(([kind, rs]) => {
    const prompt = rs.reduce((n, r) => n + (r.usage ? r.usage.uncached + r.usage.written + r.usage.read : 0), 0);
    const read = rs.reduce((n, r) => n + (r.usage?.read ?? 0), 0);
    return { kind, requests: rs.length, billed: rs.reduce((n, r) => n + r.billed, 0), readShare: prompt > 0 ? read / prompt : NaN };
  });
}

interface StepMeasure {
  /** Tokens of the read result as the agent sent it, when the request carried it. */
  result?: number;
  /** Tokens of the new user message's other blocks (the prompt, reminders). */
  post: number;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Collects the facts of every request of one run, and what the floor needs to know. */
export class RunLedger {
  readonly requests: RequestFacts[] = [];
  private readonly measured = new Map<string, StepMeasure>();
  /** Tokens of the first main request: tools, system and the first prompt. */
  prefixTokens: number | undefined;

  constructor(private readonly player: SessionPlayer) {}

  /** The stand-in's `onRequest` hook. */
  record(rec: RecordedRequest): void {
    const body = isObject(rec.body) ? rec.body : {};
    const classification = this.player.classified.get(rec) ?? this.player.classifyOnly(body);
    const model = typeof body.model === 'string' ? body.model : '?';
    const tooLong = rec.status === 400 && /prompt is too long/.test(rec.validationError ?? '');
    const usage = rec.usage ? { uncached: rec.usage.input_tokens, written: rec.usage.cache_creation_input_tokens, read: rec.usage.cache_read_input_tokens, output: rec.usage.output_tokens } : undefined;
    const facts: RequestFacts = { kind: classification.kind, model, status: rec.status, tooLong, billed: usage ? billedOf(usage, model) : 0, classification, ...(usage ? { usage } : {}) };
    if (classification.kind === 'main' && rec.status === 200) {
      const reads = this.player.reads;
      facts.required = [...new Set(reads.slice(Math.max(0, classification.readsBefore - 3), classification.readsBefore))];
      facts.missing = missingFiles(body, facts.required, this.player);
      if (classification.firstAnswer) this.measure(body, classification);
    }
    this.requests.push(facts);
  }

  private measure(body: Json, c: Extract<Classification, { kind: 'main' }>): void {
    const key = `${c.prompt}:${c.step}`;
    if (this.measured.has(key)) return;
    if (this.prefixTokens === undefined) this.prefixTokens = countRequestTokens(body);
    const { user } = lastMessages(body);
    const m: StepMeasure = { post: 0 };
    for (const b of blocksOf(user)) {
      const read = isObject(b) && b.type === 'tool_result' ? this.player.readOfCall.get(String(b.tool_use_id)) : undefined;
      if (read !== undefined && m.result === undefined) m.result = blockTokens(b);
      else m.post += blockTokens(b);
    }
    this.measured.set(key, m);
  }

  /**
   * The floor's view of the main loop: every scripted turn in order, with the agent's own sizes
   * where a request showed them. A read's full size is the largest result the agent sent for
   * that file (a re-read it answered with a short note is not a copy); a file whose result no
   * request showed whole (the loop went on from a summary) counts its own tokens plus the
   * agent's usual framing of a read result. The floor itself decides copy or pointer.
   */
  floorSteps(): FloorStep[] {
    const { session, answerTokens, reads } = this.player;
    const full = new Map<string, number>();
    for (const [p, prompt] of session.prompts.entries()) {
      for (let k = 1; k <= prompt.reads.length; k++) {
        const m = this.measured.get(`${p}:${k}`);
        const path = prompt.reads[k - 1]!;
        if (m?.result !== undefined) full.set(path, Math.max(full.get(path) ?? 0, m.result));
      }
    }
    const framing = [...full].map(([path, tokens]) => tokens - session.files.get(path)!.tokens).filter((x) => x >= 0);
    const steps: FloorStep[] = [];
    let readIndex = 0;
    for (const [p, prompt] of session.prompts.entries()) {
      for (let k = 0; k <= prompt.reads.length; k++) {
        const m = this.measured.get(`${p}:${k}`);
        const output = answerTokens.get(`${p}:${k}`) ?? 0;
        if (steps.length === 0) {
          steps.push({ pre: 0, post: 0, output });
          continue;
        }
        const pre = k > 0 ? (answerTokens.get(`${p}:${k - 1}`) ?? 0) : (answerTokens.get(`${p - 1}:${session.prompts[p - 1]!.reads.length}`) ?? 0);
        if (k === 0) {
          steps.push({ pre, post: m?.post ?? countTextTokens(prompt.text), output });
          continue;
        }
        const path = reads[readIndex++]!;
        const tokens = full.get(path) ?? session.files.get(path)!.tokens + median(framing);
        steps.push({ pre, post: m?.result !== undefined ? m.post : 0, output, result: { content: path, tokens } });
      }
    }
    return steps;
  }
}
