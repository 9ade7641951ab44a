import type { ViewMessage, ViewState } from './viewState';

// The host sends a full snapshot once per `view/ready`, then only what changed. The
// streaming case is the one that matters: a token must cost bytes in proportion to
// the token, never to the history, so text growth travels as `msg/appendText`.

type ScalarKey = Exclude<keyof ViewState, 'messages'>;

export type SetOp = { [K in ScalarKey]: { op: 'set'; key: K; value: ViewState[K] } }[ScalarKey];

export type ViewPatchOp =
  | SetOp
  | { op: 'msg/append'; message: ViewMessage }
  | { op: 'msg/replace'; index: number; message: ViewMessage }
  | { op: 'msg/appendText'; index: number; text: string }
  /** An assistant message's thinking grew (it streams before the answer). */
  | { op: 'msg/appendThinking'; index: number; text: string }
  | { op: 'msg/truncate'; length: number }
  | { op: 'msg/reset'; messages: ViewMessage[] };

/** The text-only growth of a message, or undefined when anything else changed. */
function textGrowth(prev: ViewMessage, next: ViewMessage): string | undefined {
  if (prev.kind !== next.kind || prev.id !== next.id) return undefined;
  if (!('text' in prev) || !('text' in next)) return undefined;
  if (!next.text.startsWith(prev.text) || next.text.length === prev.text.length) return undefined;
  const prevRec = prev as unknown as Record<string, unknown>;
  const nextRec = next as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(prevRec), ...Object.keys(nextRec)]);
  for (const key of keys) {
    if (key !== 'text' && !Object.is(prevRec[key], nextRec[key])) return undefined;
  }
  return next.text.slice(prev.text.length);
}

/** The thinking-only growth of an assistant message, or undefined when anything else changed. */
function thinkingGrowth(prev: ViewMessage, next: ViewMessage): string | undefined {
  if (prev.kind !== 'assistant' || next.kind !== 'assistant' || prev.id !== next.id) return undefined;
  const before = prev.thinking ?? '';
  const after = next.thinking ?? '';
  if (after.length === before.length || !after.startsWith(before)) return undefined;
  if (prev.text !== next.text || prev.streaming !== next.streaming || prev.createdAt !== next.createdAt) return undefined;
  return after.slice(before.length);
}

export function diffMessages(prev: readonly ViewMessage[], next: readonly ViewMessage[]): ViewPatchOp[] {
  if (prev === next) return [];
  const ops: ViewPatchOp[] = [];
  const shared = Math.min(prev.length, next.length);
  let firstForeign = shared;
  for (let i = 0; i < shared; i++) {
    if (prev[i]!.id !== next[i]!.id) {
      firstForeign = i;
      break;
    }
  }
  if (firstForeign === 0 && prev.length > 0) {
    return [{ op: 'msg/reset', messages: [...next] }];
  }
  for (let i = 0; i < firstForeign; i++) {
    const a = prev[i]!;
    const b = next[i]!;
    if (a === b) continue;
    const grown = textGrowth(a, b);
    const thought = grown === undefined ? thinkingGrowth(a, b) : undefined;
    ops.push(
      grown !== undefined
        ? { op: 'msg/appendText', index: i, text: grown }
        : thought !== undefined
          ? { op: 'msg/appendThinking', index: i, text: thought }
          : { op: 'msg/replace', index: i, message: b },
    );
  }
  if (prev.length > firstForeign) ops.push({ op: 'msg/truncate', length: firstForeign });
  for (let i = firstForeign; i < next.length; i++) ops.push({ op: 'msg/append', message: next[i]! });
  return ops;
}

export function diffViewState(prev: ViewState, next: ViewState): ViewPatchOp[] {
  if (prev === next) return [];
  const ops: ViewPatchOp[] = [];
  for (const key of Object.keys(next) as (keyof ViewState)[]) {
    if (key === 'messages') continue;
    if (!Object.is(prev[key], next[key])) ops.push({ op: 'set', key, value: next[key] } as SetOp);
  }
  ops.push(...diffMessages(prev.messages, next.messages));
  return ops;
}

class PatchError extends Error {}

/** Applies ops immutably; untouched messages keep their identity so selectors stay quiet. */
export function applyViewPatch(state: ViewState, ops: readonly ViewPatchOp[]): ViewState {
  if (ops.length === 0) return state;
  let next: ViewState = { ...state };
  let messages: ViewMessage[] | undefined;
  const writable = (): ViewMessage[] => (messages ??= [...next.messages]);
  for (const op of ops) {
    switch (op.op) {
      case 'set':
        next = { ...next, [op.key]: op.value };
        break;
      case 'msg/append':
        writable().push(op.message);
        break;
      case 'msg/replace': {
        const list = writable();
        if (op.index < 0 || op.index >= list.length) throw new PatchError(`replace out of range: ${op.index}`);
        list[op.index] = op.message;
        break;
      }
      case 'msg/appendText': {
        const list = writable();
        const target = list[op.index];
        if (!target || !('text' in target)) throw new PatchError(`appendText on a message without text: ${op.index}`);
        list[op.index] = { ...target, text: target.text + op.text } as ViewMessage;
        break;
      }
      case 'msg/truncate':
        writable().length = op.length;
        break;
      case 'msg/appendThinking': {
        const list = writable();
        const target = list[op.index];
        if (target?.kind !== 'assistant') throw new PatchError(`appendThinking on a message that is not an answer: ${op.index}`);
        list[op.index] = { ...target, thinking: (target.thinking ?? '') + op.text };
        break;
      }
      case 'msg/reset':
        messages = [...op.messages];
        break;
    }
  }
  if (messages) next = { ...next, messages };
  return next;
}
