// The file-system gate's contract, function by function (the hostile cases that led to it are in
// test/adversarial/).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GITIGNORE_MAX_LINES, GitignoreRules } from '../../../src/fs/gitignore';
import { lineRecords, readLines } from '../../../src/fs/lines';
import { listFolder, listTree } from '../../../src/fs/list';
import { isInside, kernelJoin, realLocation, relativeWithin, within } from '../../../src/fs/paths';
import { readCapped, readCappedSync, readRegularFile } from '../../../src/fs/read';
import { inspect } from '../../../src/fs/stat';
import { walkFiles } from '../../../src/fs/walk';
import { markPrivate, openAppendable, writeFileAtomic } from '../../../src/fs/write';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-gate-'));
const fifos: string[] = [];
const fifo = (p: string) => {
  execFileSync('mkfifo', [p]);
  fifos.push(p);
  return p;
};
after(() => {
  for (const f of fifos) {
    try {
      closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader left
    }
  }
});

describe('paths: one containment rule', () => {
  it('within and relativeWithin: a name that starts with .. is inside; a sibling with the same prefix is not', () => {
    assert.equal(relativeWithin('/w/repo', '/w/repo/..notes/a.md'), '..notes/a.md');
    assert.equal(relativeWithin('/w/repo', '/w/repo'), '');
    assert.equal(relativeWithin('/w/repo', '/w/repo-other/a'), undefined);
    assert.equal(relativeWithin('/w/repo', '/w/repo/../x'), undefined);
    assert.equal(within('/', '/etc'), true);
  });

  it('realLocation: a new file in a linked folder is where the link leads; a dangling link leads where a write through it lands', () => {
    const d = tmp();
    mkdirSync(join(d, 'real'));
    symlinkSync(join(d, 'real'), join(d, 'link'));
    symlinkSync(join(d, 'nowhere', 'x'), join(d, 'dangling'));
    symlinkSync('../../.profile', join(d, 'real', 'rel-dangling'));
    assert.equal(realLocation(join(d, 'link', 'new', 'f.txt')), join(realLocation(d), 'real', 'new', 'f.txt'));
    // `sort -o dangling` and `tee dangling` create the target, so that is where it is.
    assert.equal(realLocation(join(d, 'dangling')), join(realLocation(d), 'nowhere', 'x'));
    assert.equal(realLocation(join(d, 'link', 'rel-dangling')), join(dirname(realLocation(d)), '.profile'));
    assert.equal(isInside(d, join(d, 'link', 'rel-dangling')), false);
    assert.equal(isInside(join(d, 'link'), join(d, 'real', 'f')), true);
  });

  it('realLocation walks as the kernel does: `..` after a link leaves its target, not the link\'s folder', () => {
    const d = tmp();
    const ws = join(d, 'ws');
    const away = join(d, 'away', 'deep');
    mkdirSync(ws);
    mkdirSync(away, { recursive: true });
    writeFileSync(join(d, 'away', 'secret'), 'x');
    symlinkSync(away, join(ws, 't'));
    symlinkSync('t', join(ws, 'chain'));
    const R = realLocation(d);
    for (const spelled of ['t/../secret', 't/./../secret', './t//../secret', 'chain/../secret', 't/../deep/../secret']) {
      assert.equal(realLocation(`${ws}/${spelled}`), join(R, 'away', 'secret'), spelled);
      assert.equal(isInside(ws, spelled), false, spelled);
      assert.equal(realLocation(kernelJoin(ws, spelled)), join(R, 'away', 'secret'), spelled);
    }
    // Without links, `..` is plain text: inside stays inside.
    mkdirSync(join(ws, 'src'));
    assert.equal(realLocation(`${ws}/src/../t/../deep`), join(R, 'away', 'deep'));
    assert.equal(isInside(ws, 'src/../a.txt'), true);
    // A loop ends, as the kernel's walk does, without hanging.
    symlinkSync('loop2', join(ws, 'loop1'));
    symlinkSync('loop1', join(ws, 'loop2'));
    assert.equal(typeof realLocation(join(ws, 'loop1', 'x')), 'string');
  });
});

describe('read: regular files, without blocking, within caps', () => {
  it('refuses a FIFO, a device through a link and a folder, at once', async () => {
    const d = tmp();
    fifo(join(d, 'pipe'));
    symlinkSync('/dev/zero', join(d, 'zero'));
    assert.deepEqual((await readCapped(join(d, 'pipe'), { maxBytes: 10 })).ok, false);
    assert.equal(readCappedSync(join(d, 'pipe'), { maxBytes: 10 }).ok || 'refused', 'refused');
    const zero = await readCapped(join(d, 'zero'), { maxBytes: 10 });
    assert.equal(!zero.ok && zero.reason, 'not-regular');
    const folder = await readCapped(d, { maxBytes: 10 });
    assert.equal(!folder.ok && folder.reason, 'folder');
    assert.equal((await inspect(join(d, 'pipe'))).kind, 'other');
  });

  it('cuts at the byte cap and at the line cap, and says so; readRegularFile refuses instead', async () => {
    const d = tmp();
    writeFileSync(join(d, 'f'), 'one\ntwo\nthree\n');
    const lines = await readCapped(join(d, 'f'), { maxBytes: 100, maxLines: 2 });
    assert.ok(lines.ok && lines.capped);
    assert.equal(lines.bytes.toString(), 'one\ntwo\n');
    const bytes = readCappedSync(join(d, 'f'), { maxBytes: 5 });
    assert.ok(bytes.ok && bytes.capped);
    assert.equal(bytes.bytes.toString(), 'one\nt');
    assert.equal((await readRegularFile(join(d, 'f'), 5)).ok, false);
    const whole = await readCapped(join(d, 'f'), { maxBytes: 100 });
    assert.ok(whole.ok && !whole.capped && whole.bytes.length === 14);
  });

  it('reads a file that reports size 0 (/proc) to its end, and never a file of its own processes', async () => {
    const cpu = await readCapped('/proc/cpuinfo', { maxBytes: 1024 * 1024 });
    assert.ok(cpu.ok && cpu.bytes.length > 0);
    for (const p of ['/proc/self/environ', `/proc/${process.pid}/cmdline`, `/proc/${process.ppid}/environ`]) {
      const r = await readCapped(p, { maxBytes: 1024 });
      assert.equal(!r.ok && r.reason, 'unreadable', p);
      assert.match((!r.ok && r.error?.message) || '', /own processes/);
    }
  });
});

describe('lines: streamed, each line capped', () => {
  it('cuts a long line at the cap with its length, strips CRLF, counts and pages', async () => {
    const d = tmp();
    writeFileSync(join(d, 'f'), `short\r\n${'é'.repeat(5000)}\nthird\nfourth`);
    const r = await readLines(join(d, 'f'), { first: 1, count: 3, maxLineChars: 10, maxOutputBytes: 1000, countAll: true });
    assert.ok(r.ok);
    assert.deepEqual(r.lines, [{ text: 'short' }, { text: 'é'.repeat(10), cutFrom: 5000 }, { text: 'third' }]);
    assert.equal(r.more, true);
    assert.equal(r.total, 4);
    const page = await readLines(join(d, 'f'), { first: 4, count: 10, maxLineChars: 10, maxOutputBytes: 1000 });
    assert.ok(page.ok);
    assert.deepEqual(page.lines, [{ text: 'fourth' }]);
    assert.equal(page.more, false);
  });

  it('stops at the output cap, whatever count asked', async () => {
    const d = tmp();
    writeFileSync(join(d, 'f'), 'abcdefghi\n'.repeat(1000));
    const r = await readLines(join(d, 'f'), { first: 1, count: 1e8, maxLineChars: 100, maxOutputBytes: 95 });
    assert.ok(r.ok && r.outputCapped && r.more);
    assert.equal(r.lines.length, 9);
  });

  it('lineRecords reports a line over its cap by length and goes on', async () => {
    const d = tmp();
    writeFileSync(join(d, 't.jsonl'), `{"a":1}\n${'x'.repeat(300)}\n\n{"b":2}\n`);
    const out = [];
    for await (const rec of lineRecords(join(d, 't.jsonl'), 100)) out.push(rec);
    assert.deepEqual(out, [{ n: 1, text: '{"a":1}' }, { n: 2, tooLong: 300 }, { n: 4, text: '{"b":2}' }]);
  });
});

describe('listing and walking: bounded, never into a link leading out', () => {
  it('listFolder stops at its count', async () => {
    const d = tmp();
    for (let k = 0; k < 20; k++) writeFileSync(join(d, `f${k}`), '');
    const r = await listFolder(d, 5);
    assert.equal(r.entries.length, 5);
    assert.equal(r.capped, true);
  });

  it('listTree enters a linked folder only within the places given, ends a loop, and stops at its bounds', async () => {
    const d = tmp();
    const root = join(d, 'root');
    mkdirSync(join(root, 'in'), { recursive: true });
    mkdirSync(join(d, 'out'));
    writeFileSync(join(root, 'in', 'a.md'), '');
    writeFileSync(join(d, 'out', 'b.md'), '');
    symlinkSync(join(root, 'in'), join(root, 'again'));
    symlinkSync(join(d, 'out'), join(root, 'away'));
    symlinkSync(root, join(root, 'in', 'loop'));
    const t = await listTree(root, { within: [realLocation(root)], wanted: (n) => n.endsWith('.md'), maxFiles: 10, maxEntries: 100, timeLimitMs: 5000 });
    assert.deepEqual(t.files, [join(root, 'again', 'a.md')]);
    assert.deepEqual(t.outside.map((o) => o.path), [join(root, 'away')]);
    const capped = await listTree(root, { within: [realLocation(root)], wanted: () => true, maxFiles: 10, maxEntries: 2, timeLimitMs: 5000 });
    assert.equal(capped.stopped, 'entries');
  });

  it('walkFiles gives each file its real location, enters no linked folder, and stops at its bounds', async () => {
    const d = tmp();
    const ws = join(d, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(join(d, 'elsewhere'));
    writeFileSync(join(ws, 'src', 'a.ts'), '');
    writeFileSync(join(d, 'elsewhere', 'secret'), '');
    symlinkSync(join(d, 'elsewhere'), join(ws, 'linked'));
    symlinkSync(join(d, 'elsewhere', 'secret'), join(ws, 'src', 'file-link'));
    const all = await walkFiles({ root: ws, base: '', include: () => true, limit: 100 });
    assert.deepEqual(all.files.map((f) => [f.rel, f.real]).sort(), [
      ['src/a.ts', join(realLocation(ws), 'src', 'a.ts')],
      ['src/file-link', join(realLocation(d), 'elsewhere', 'secret')],
    ]);
    const through = await walkFiles({ root: ws, base: 'linked', include: () => true, limit: 100 });
    assert.equal(through.realStart, join(realLocation(d), 'elsewhere'));
    assert.deepEqual(through.files.map((f) => f.real), [join(realLocation(d), 'elsewhere', 'secret')]);
    const bounded = await walkFiles({ root: ws, base: '', include: () => true, limit: 100, maxEntries: 1 });
    assert.equal(bounded.stopped, 'entries');
  });

  it('a .gitignore is read within its caps; one that is not a regular file is no rules at all', () => {
    const d = tmp();
    writeFileSync(join(d, '.gitignore'), [...Array.from({ length: GITIGNORE_MAX_LINES }, (_, k) => `x${k}`), 'late'].join('\n'));
    const rules = new GitignoreRules(d);
    rules.load('');
    assert.equal(rules.ignored('x0', false), true);
    assert.equal(rules.ignored('late', false), false);
    assert.deepEqual(rules.capped, ['']);
    mkdirSync(join(d, 'sub'));
    fifo(join(d, 'sub', '.gitignore'));
    rules.load('sub');
    assert.equal(rules.ignored('sub/anything', false), false);
    // A link is not followed, as git does not (pass 52 M2: a link to a secret file made its lines patterns).
    mkdirSync(join(d, 'linked'));
    writeFileSync(join(d, 'secret-pin'), 'PIN=4821\n');
    symlinkSync(join(d, 'secret-pin'), join(d, 'linked', '.gitignore'));
    rules.load('linked');
    assert.equal(rules.ignored('linked/PIN=4821', false), false);
  });
});

// Pass 55 M2: 1,000 costly patterns, each path within its own budget, held one Glob of 20,000
// files for 117 s. One budget bounds all of a walk's matches; past it nothing more is matched.
describe('a walk\'s .gitignore matching has one budget', () => {
  it('past it, paths are no longer matched, and the walk says so', async () => {
    const d = tmp();
    writeFileSync(join(d, '.gitignore'), Array.from({ length: 1000 }, (_, i) => `**/a*/**/a*/**/b${i}`).join('\n'));
    const rules = new GitignoreRules(d);
    rules.load('');
    for (let i = 0; i < 3000 && !rules.overBudget; i++) rules.ignored(`aa1/aa2/aa3/aa4/aa5/f${i}.ts`, false);
    assert.equal(rules.overBudget, true);
    assert.equal(rules.ignored('aa1/aa2/aa3/aa4/aa5/b1', false), false, 'nothing is matched any more');
  });
});

describe('write: atomic, where the path really is, private folders closed', () => {
  it('keeps an existing mode unless the file is in a private folder; writes through a symlink, keeping it', async () => {
    const prev = process.umask(0o022);
    try {
      const d = tmp();
      writeFileSync(join(d, 'script.sh'), 'old', { mode: 0o755 });
      await writeFileAtomic(join(d, 'script.sh'), 'new', { mode: 'keep' });
      assert.equal(statSync(join(d, 'script.sh')).mode & 0o777, 0o755);
      writeFileSync(join(d, 'target'), 'old');
      symlinkSync(join(d, 'target'), join(d, 'link'));
      await writeFileAtomic(join(d, 'link'), 'via link', { mode: 'keep' });
      assert.equal(readFileSync(join(d, 'target'), 'utf8'), 'via link');
      assert.equal(statSync(join(d, 'link')).isFile(), true);
      const priv = join(d, 'private');
      markPrivate(priv);
      await writeFileAtomic(join(priv, 'deep', 'note.md'), 'x', { mode: 'keep' });
      assert.equal(statSync(join(priv, 'deep', 'note.md')).mode & 0o777, 0o600);
      assert.equal(statSync(join(priv, 'deep')).mode & 0o777, 0o700);
      assert.equal(statSync(priv).mode & 0o777, 0o700);
    } finally {
      process.umask(prev);
    }
  });

  it('openAppendable refuses a FIFO where a transcript should be', async () => {
    const d = tmp();
    const p = fifo(join(d, 's.jsonl'));
    await assert.rejects(openAppendable(p), /not a regular file/);
  });
});
