// Pass 38 C3 and C4 (medium): instruction files a clone commits that stopped the agent starting.
// 6,000 nested block quotes in CLAUDE.md overflowed marked's lexer (recursion per `>`), uncaught:
// `threadline context` and `-p` exited 1 in every such folder. And 600 files each including all
// 600 were 360,000 references (depth was capped, breadth not): 15 s, then a stack overflow. The
// text is now kept whole with a warning, and one load follows at most 500 include references.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCli } from '../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('pass 38 C3, C4: instruction files that stopped start-up', () => {
  const { run } = useCli();

  it('6,000 nested quotes: context runs, names the file and its problem, and keeps the text', async () => {
    const cwd = tmp('tl-quotes-');
    writeFileSync(join(cwd, 'CLAUDE.md'), `# Project notes\n\nUSE-TABS\n\n${'>'.repeat(6000)} a\n`);
    mkdirSync(join(cwd, '.claude', 'rules'), { recursive: true });
    writeFileSync(join(cwd, '.claude', 'rules', 'r.md'), `${'>'.repeat(6000)} b\n`);
    const r = await run(['context'], { cwd });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /CLAUDE\.md/);
    assert.match(r.out, /nests too deep/);
  });

  it('600 files each including all 600: context ends with one line for the references not followed', async () => {
    const cwd = tmp('tl-fanout-');
    const F = 600;
    mkdirSync(join(cwd, 'd'));
    writeFileSync(join(cwd, 'CLAUDE.md'), `Notes ${Array.from({ length: F }, (_, i) => `@d/f${i}.md`).join(' ')}\n`);
    const refs = Array.from({ length: F }, (_, j) => `@f${j}.md`).join(' ');
    for (let i = 0; i < F; i++) writeFileSync(join(cwd, 'd', `f${i}.md`), `File ${i} ${refs}\n`);
    const r = await run(['context'], { cwd });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /500 include references were met/);
    assert.ok(r.out.length < 1_000_000, `a report of ${r.out.length} characters`);
  });
});
