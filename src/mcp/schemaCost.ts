// How much work checking a tool's output against its outputSchema can take, counted before the
// validator runs. The schema and the output are both the server's, and Ajv runs on the host's
// main thread with no memo: a chain of `$defs` whose `anyOf` names the next one twice takes 2^N
// steps for one string (N=24 ran past 50 s and 2.5 GB, deaf to SIGTERM), and `uniqueItems`
// compares every pair of items (30,000 objects: 27 s). A hang is worse than an unchecked result,
// which the model reads as text anyway, so past a budget the output is not checked at all.
//
// The count is an upper bound: every branch of a combinator is counted as if it ran, and every
// `patternProperties` schema as if it matched every key. It stops at the budget, so it costs at
// most the budget itself.

/** (schema node, output node) pairs a check may visit; Ajv does a few million a second. */
export const MAX_CHECK_STEPS = 200_000;
/** A schema larger than this (as JSON) is not compiled: compiling is the host's work too. */
export const MAX_SCHEMA_CHARS = 512 * 1024;

export type CheckCost = { ok: true; steps: number } | { ok: false; reason: string };

class Refused extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords whose schemas apply to the same value (each runs in full, as far as the count goes). */
const SAME_VALUE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'] as const;
/** Keywords whose schemas apply to every property value / every item. */
const EVERY_PROPERTY = ['additionalProperties', 'unevaluatedProperties'] as const;
const EVERY_ITEM = ['additionalItems', 'contains', 'unevaluatedItems'] as const;

/**
 * Whether a schema can be checked with a bounded count: only `#/…` references into the schema
 * itself, and no nested `$id` (which would make `#/…` mean another resource than the count reads).
 */
export function schemaShape(schema: unknown): { ok: true } | { ok: false; reason: string } {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    return { ok: false, reason: 'its outputSchema cannot be read as JSON' };
  }
  if (text === undefined) return { ok: false, reason: 'it has no outputSchema' };
  if (text.length > MAX_SCHEMA_CHARS) return { ok: false, reason: `its outputSchema is over ${MAX_SCHEMA_CHARS / 1024} KB` };
  // Walked without recursion: a schema nested 100,000 deep must not overflow the stack here.
  const stack: Array<{ v: unknown; root: boolean }> = [{ v: schema, root: true }];
  while (stack.length) {
    const { v, root } = stack.pop()!;
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, root: false });
      continue;
    }
    if (!isObj(v)) continue;
    if (!root && typeof v.$id === 'string') return { ok: false, reason: 'its outputSchema has a nested $id' };
    if (v.$dynamicRef !== undefined || v.$recursiveRef !== undefined) return { ok: false, reason: 'its outputSchema uses $dynamicRef or $recursiveRef' };
    if (typeof v.$ref === 'string' && !v.$ref.startsWith('#')) return { ok: false, reason: `its outputSchema refers outside itself ($ref ${v.$ref.slice(0, 80)})` };
    for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push({ v: x, root: false });
  }
  return { ok: true };
}

/** The schema a `#/…` JSON pointer names inside `root`. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) throw new Refused(`its outputSchema uses a $ref the check cannot follow (${ref.slice(0, 80)})`);
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      throw new Refused(`its outputSchema has a $ref that is not a JSON pointer (${ref.slice(0, 80)})`);
    }
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isObj(at) && Object.hasOwn(at, key)) at = at[key];
    else throw new Refused(`its outputSchema has a $ref to nothing (${ref.slice(0, 80)})`);
  }
  return at;
}

/** What one schema node applies, read once per node: the count visits a node many times. */
interface Node {
  ref?: unknown;
  same: unknown[];
  enumSize: number;
  props?: Obj;
  everyProp: unknown[];
  names?: unknown;
  prefix: unknown[];
  items?: unknown;
  everyItem: unknown[];
  unique: boolean;
}

function readNode(s: Obj, root: unknown): Node {
  const same: unknown[] = [];
  for (const k of SAME_VALUE_LISTS) if (Array.isArray(s[k])) same.push(...(s[k] as unknown[]));
  for (const k of SAME_VALUE_ONE) if (s[k] !== undefined) same.push(s[k]);
  for (const k of ['dependentSchemas', 'dependencies'] as const) if (isObj(s[k])) for (const sub of Object.values(s[k])) if (!Array.isArray(sub)) same.push(sub);
  const everyProp: unknown[] = isObj(s.patternProperties) ? Object.values(s.patternProperties) : [];
  for (const k of EVERY_PROPERTY) if (s[k] !== undefined) everyProp.push(s[k]);
  const everyItem: unknown[] = [];
  for (const k of EVERY_ITEM) if (s[k] !== undefined) everyItem.push(s[k]);
  return {
    ...(typeof s.$ref === 'string' ? { ref: resolvePointer(root, s.$ref) } : {}),
    same,
    enumSize: Array.isArray(s.enum) ? s.enum.length : 0,
    ...(isObj(s.properties) ? { props: s.properties } : {}),
    everyProp,
    ...(s.propertyNames !== undefined ? { names: s.propertyNames } : {}),
    prefix: Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [],
    ...(s.items !== undefined && !Array.isArray(s.items) ? { items: s.items } : {}),
    everyItem,
    unique: s.uniqueItems === true,
  };
}

/** The count for checking `data` against `schema` (an outputSchema), or why it is over the budget. */
export function checkCost(schema: unknown, data: unknown, budget = MAX_CHECK_STEPS): CheckCost {
  let steps = 0;
  const nodes = new Map<Obj, Node>();
  const over = () => new Refused(`checking it would take over ${budget.toLocaleString('en-US')} steps`);
  /** Nodes of a value, counted up to `cap`. */
  const size = (v: unknown, cap: number): number => {
    let n = 0;
    const stack = [v];
    while (stack.length && n <= cap) {
      const x = stack.pop();
      n++;
      if (Array.isArray(x)) stack.push(...x);
      else if (isObj(x)) stack.push(...Object.values(x));
    }
    return n;
  };
  const visit = (s: unknown, d: unknown): void => {
    if (++steps > budget) throw over();
    if (!isObj(s)) return;
    let n = nodes.get(s);
    if (!n) nodes.set(s, (n = readNode(s, schema)));
    if (n.ref !== undefined) visit(n.ref, d);
    for (const sub of n.same) visit(sub, d);
    if ((steps += n.enumSize) > budget) throw over();
    if (isObj(d)) {
      for (const key in d) {
        if (!Object.hasOwn(d, key)) continue;
        const value = d[key];
        if (n.props && Object.hasOwn(n.props, key)) visit(n.props[key], value);
        for (const p of n.everyProp) visit(p, value);
        if (n.names !== undefined) visit(n.names, key);
      }
    } else if (Array.isArray(d)) {
      for (let i = 0; i < d.length; i++) {
        if (i < n.prefix.length) visit(n.prefix[i], d[i]);
        else if (n.items !== undefined) visit(n.items, d[i]);
        for (const e of n.everyItem) visit(e, d[i]);
      }
      // Every pair of items is compared, each comparison as deep as the items.
      if (n.unique && d.length > 1 && (steps += d.length * size(d, Math.ceil((budget - steps + 1) / d.length))) > budget) throw over();
    }
  };
  try {
    visit(schema, data);
    return { ok: true, steps };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    if (err instanceof RangeError) return { ok: false, reason: 'its outputSchema or the output is nested too deeply to check' };
    throw err;
  }
}
