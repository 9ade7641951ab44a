// Pass 49 G1, G3, G4 (high): a Read ask rule was honoured by the Read tool alone. An Edit of the
// file ran without asking (its success tells what the file holds), an `@.env` include sent it, a
// Grep returned it, and `cat .env` under `Bash(cat:*)` ran. Now every route asks, or leaves the
// file out where it cannot ask (a search, an include).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { readDeniedBy } from '../../src/agent/deniedFileResults';
import { bashTool } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const tools = createTools();
const tool = (name: string) => tools.find((t) => t.name === name) as Tool;

describe('pass 49: Read ask rules hold on every route to the file', () => {
  it('Edit asks, Bash asks, an include and a search leave the file out', async () => {
    const cwd = tmp('tl-ask-');
    writeFileSync(join(cwd, '.env'), 'TOP=ASK-SECRET\n');
    mkdirSync(join(cwd, 'src'));
    writeFileSync(join(cwd, 'src', 'a.ts'), 'TOP\n');
    const bash = new BashChecker();
    await bash.ready();
    const p = new Permissions({ cwd, rules: () => ({ allow: ['Edit', 'Bash(cat:*)', 'Bash(grep:*)', 'Bash(cp:*)'], ask: ['Read(./.env)', 'Edit(src/a.ts)'], deny: [] }), trusted: () => true, bash });
    assert.equal(p.decide({ tool: tool('Edit'), input: { file_path: '.env', old_string: 'T', new_string: 'T' } }).behavior, 'ask');
    for (const command of ['cat .env', 'grep -r TOP .', 'cp x src/a.ts']) assert.equal(p.decide({ tool: bashTool, input: { command } }).behavior, 'ask', command);
    assert.equal(p.decide({ tool: bashTool, input: { command: 'cat src/a.ts' } }).behavior, 'allow');
    assert.equal(readDeniedBy(p, { get: (n) => tools.find((t) => t.name === n) })(join(cwd, '.env')), true, 'an include of it is left out');
    assert.equal(p.readable(join(cwd, '.env')), false, 'a search leaves it out');
    assert.equal(p.readable(join(cwd, 'src', 'a.ts')), true);
  });
});
