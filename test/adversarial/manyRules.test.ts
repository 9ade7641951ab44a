// Pass 30, F4 (medium): an untrusted clone's .claude/settings.json with 12,000 deny rules (675 KB,
// under the 1 MB cap) froze the agent: deny rules apply untrusted, each path rule is two compiled
// globs, and the glob cache of 500 was cleared whenever it filled, so every rule was compiled
// again for every path checked (a Glob over 30 files: 80 s). A list holds at most 500 entries per
// file (200 in the workspace's own files, pass 36 B1), read with a warning, and the cache keeps the
// least recently used out, with room for them.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_PROJECT_RULES, readClaudeSettings } from '../../src/permissions/ruleSources';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import { globCompiles } from '../../src/tools/glob';
import { tempDir } from './support';

const read = createTools().find((t) => t.name === 'Read')!;

describe('pass 30 F4: thousands of deny rules in a clone', () => {
  it("reads the first 200 of a project file's list, says so, and compiles each glob once over many paths", () => {
    const ws = tempDir('manyrules');
    mkdirSync(join(ws, '.claude'));
    const deny = Array.from({ length: 12_000 }, (_, i) => `Read(src/deny${i}/**/*.secret)`);
    writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny } }));
    const warnings: string[] = [];
    const sources = readClaudeSettings({ cwd: ws, home: tempDir('manyrules-home'), env: {}, managedFile: join(ws, 'none.json'), warn: (m) => warnings.push(m) });
    const rules = sources.flatMap((s) => s.deny ?? []);
    assert.equal(rules.length, MAX_PROJECT_RULES);
    assert.ok(warnings.some((w) => /12000 entries; only the first 200 are read/.test(w)), warnings.join('\n'));

    const p = new Permissions({ cwd: ws, rules: () => ({ allow: [], ask: [], deny: rules }), trusted: () => false });
    for (let i = 0; i < 3; i++) p.decide({ tool: read, input: { file_path: join(ws, `warm${i}.ts`) } });
    const before = globCompiles();
    for (let i = 0; i < 30; i++) assert.equal(p.decide({ tool: read, input: { file_path: join(ws, `f${i}.ts`) } }).behavior, 'allow');
    assert.equal(globCompiles() - before, 0, 'rules were compiled again for later paths');
  });
});
