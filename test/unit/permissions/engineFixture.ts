// The permission engine over a fresh workspace, an outside folder and a folder to add, for the
// tests of its decisions (decisionOrder.test.ts, grantsAndReads.test.ts).
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Permissions, type PermissionOptions, type PermissionRules } from '../../../src/permissions/permissions';
import type { RuleSource } from '../../../src/permissions/ruleSources';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

const tools = new Map(createTools().map((t) => [t.name, t as Tool]));
export const tool = (name: string) => tools.get(name)!;

// Real paths: the engine names files by where they really are (tmpdir may be a link).
export const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-order-')));
export const ws = join(root, 'ws');
export const outside = join(root, 'outside');
export const added = join(root, 'added');
for (const d of [join(ws, 'src'), join(ws, 'plain'), join(ws, 'sub'), join(ws, '.git'), outside, added, join(outside, 'repo', '.git')]) mkdirSync(d, { recursive: true });

export type Opts = Partial<Omit<PermissionOptions, 'rules' | 'cwd'>> & { rules?: Partial<PermissionRules>; list?: RuleSource[] };

export function engine(o: Opts = {}) {
  const warnings: string[] = [];
  const { rules, list, ...rest } = o;
  const p = new Permissions(
    {
      cwd: ws,
      rules: () => ({ allow: [], ask: [], deny: [], ...rules }),
      trusted: () => true,
      ...(list ? { sources: () => list } : {}),
      ...rest,
    },
    (m) => warnings.push(m),
  );
  const verdict = (name: string, input: unknown) => p.decide({ tool: tool(name), input });
  const decide = (name: string, input: unknown) => verdict(name, input).behavior;
  return { p, verdict, decide, warnings };
}

export const read = (file_path: string) => ({ file_path });
export const write = (file_path: string) => ({ file_path, content: 'x' });
export const bash = (command: string) => ({ command });
