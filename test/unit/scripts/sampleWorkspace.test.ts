import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { it } from 'node:test';
// @ts-expect-error plain ESM script without types
import { ROOT, makeSampleWorkspace, sampleWorkspaceDir } from '../../../scripts/codeServer.mjs';
// @ts-expect-error plain ESM script without types
import { cleanEnv } from '../../../scripts/childEnv.mjs';

it("npm start's sample workspace is outside the checkout, and its own npm test runs its own test", () => {
  assert.ok(relative(ROOT as string, sampleWorkspaceDir() as string).startsWith('..'), `${sampleWorkspaceDir()} is outside ${ROOT}`);
  const dir = (makeSampleWorkspace as (d: string) => string)(mkdtempSync(join(tmpdir(), 'tl-sample-')));
  // As a person runs it: not as a child of this test runner (which would take its report).
  const env = { ...(cleanEnv() as Record<string, string>) };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', env, timeout: 60_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /greets by name/);
  assert.doesNotMatch(r.stdout + r.stderr, /threadline/i, "not Threadline's suite");
});
