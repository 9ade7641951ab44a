// Finding 15 (hole 8 of the second pass): Edit decoded every file as UTF-8 and wrote the string
// back, so each byte of a Latin-1 or Windows-1252 file that is not valid UTF-8 became U+FFFD
// (EF BF BD) without a word — data lost in lines the edit never touched. Edit and Write now keep
// every byte they do not change (encoding, byte order mark, line ends), or refuse and say why.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTools } from '../../src/tools/builtin';
import { proposeChange } from '../../src/tools/builtin/proposal';
import { tempDir } from './support';

async function run(cwd: string, name: string, input: unknown) {
  const tool = createTools().find((t) => t.name === name)!;
  const parsed = tool.parse(input);
  assert.ok(parsed.ok, JSON.stringify(input));
  return tool.call(parsed.value, { cwd, signal: new AbortController().signal });
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s: string) => utf16le(s).swap16();

describe('finding 15: Edit and Write keep the bytes they do not change', () => {
  it('Edit of a Latin-1 file changes the ASCII it was asked to and no other byte', async () => {
    const cwd = tempDir('latin1');
    const before = latin1('# caf\xe9 cr\xe8me br\xfbl\xe9e\nname = old\nprice = 5\xa3\n');
    writeFileSync(join(cwd, 'menu.ini'), before);
    const r = await run(cwd, 'Edit', { file_path: 'menu.ini', old_string: 'name = old', new_string: 'name = new' });
    assert.notEqual(r.isError, true, r.content);
    assert.deepEqual(readFileSync(join(cwd, 'menu.ini')), latin1('# caf\xe9 cr\xe8me br\xfbl\xe9e\nname = new\nprice = 5\xa3\n'));
  });

  it('UTF-16 without a byte order mark, which Read calls binary, is not edited as bytes', async () => {
    const cwd = tempDir('utf16nobom');
    const before = Buffer.from('\u0161ab\u0160 text\n', 'utf16le');
    writeFileSync(join(cwd, 'u.txt'), before);
    const r = await run(cwd, 'Edit', { file_path: 'u.txt', old_string: 'a', new_string: 'b' });
    assert.equal(r.isError, true, r.content);
    assert.match(r.content, /looks binary/);
    assert.deepEqual(readFileSync(join(cwd, 'u.txt')), before);
  });

  it('Windows-1252 quotes, replace_all, CRLF: every untouched byte stays', async () => {
    const cwd = tempDir('cp1252');
    writeFileSync(join(cwd, 'notes.txt'), latin1('\x93quoted\x94 TODO\r\nplain TODO\r\n\x85 end\r\n'));
    const r = await run(cwd, 'Edit', { file_path: 'notes.txt', old_string: 'TODO', new_string: 'DONE', replace_all: true });
    assert.notEqual(r.isError, true, r.content);
    assert.deepEqual(readFileSync(join(cwd, 'notes.txt')), latin1('\x93quoted\x94 DONE\r\nplain DONE\r\n\x85 end\r\n'));
    // The model wrote \n where the file has \r\n: matched the file's way, written the file's way.
    const r2 = await run(cwd, 'Edit', { file_path: 'notes.txt', old_string: 'plain DONE\n\x85', new_string: 'x' });
    assert.equal(r2.isError, true, 'non-ASCII text cannot be matched in a file that is not UTF-8');
    const r3 = await run(cwd, 'Edit', { file_path: 'notes.txt', old_string: 'DONE\nplain', new_string: 'DONE\nfancy' });
    assert.notEqual(r3.isError, true, r3.content);
    assert.deepEqual(readFileSync(join(cwd, 'notes.txt')), latin1('\x93quoted\x94 DONE\r\nfancy DONE\r\n\x85 end\r\n'));
  });

  it('a non-ASCII old_string or new_string in a file that is not UTF-8 is refused with a reason, and the file is untouched', async () => {
    const cwd = tempDir('latin1-refuse');
    const before = latin1('caf\xe9 = 1\n');
    writeFileSync(join(cwd, 'a.txt'), before);
    for (const input of [
      { old_string: '= 1', new_string: '= \u20ac1' },
      { old_string: 'caf\uFFFD', new_string: 'cafe' },
      { old_string: 'café', new_string: 'cafe' },
    ]) {
      const r = await run(cwd, 'Edit', { file_path: 'a.txt', ...input });
      assert.equal(r.isError, true);
      assert.match(r.content, /not UTF-8/);
      assert.deepEqual(readFileSync(join(cwd, 'a.txt')), before);
    }
  });

  it('Shift-JIS: ASCII found right after a lead byte may be half a character, so it is refused, not spliced', async () => {
    const cwd = tempDir('sjis');
    // 表 is 0x95 0x5C in Shift-JIS: its second byte is the ASCII backslash.
    const before = Buffer.concat([Buffer.from('path = "C:'), Buffer.from([0x95, 0x5c]), Buffer.from('dir"\nsep = "\\"\n')]);
    writeFileSync(join(cwd, 'conf.ini'), before);
    const r = await run(cwd, 'Edit', { file_path: 'conf.ini', old_string: '\\dir', new_string: '/dir' });
    assert.equal(r.isError, true, r.content);
    assert.match(r.content, /second half of a two-byte character/);
    assert.deepEqual(readFileSync(join(cwd, 'conf.ini')), before);
    const ok = await run(cwd, 'Edit', { file_path: 'conf.ini', old_string: 'sep = ', new_string: 'separator = ' });
    assert.notEqual(ok.isError, true, ok.content);
    assert.deepEqual(readFileSync(join(cwd, 'conf.ini')), Buffer.concat([Buffer.from('path = "C:'), Buffer.from([0x95, 0x5c]), Buffer.from('dir"\nseparator = "\\"\n')]));
  });

  it('UTF-8 with a byte order mark and CRLF: Edit keeps both', async () => {
    const cwd = tempDir('bom');
    writeFileSync(join(cwd, 'a.cs'), Buffer.from('\uFEFFclass A {\r\n  int x = 1;\r\n}\r\n', 'utf8'));
    const r = await run(cwd, 'Edit', { file_path: 'a.cs', old_string: '  int x = 1;\n}', new_string: '  int x = 2;\n  int y = 3;\n}' });
    assert.notEqual(r.isError, true, r.content);
    assert.deepEqual(readFileSync(join(cwd, 'a.cs')), Buffer.from('\uFEFFclass A {\r\n  int x = 2;\r\n  int y = 3;\r\n}\r\n', 'utf8'));
  });

  it('UTF-16 with a byte order mark (LE and BE): Read shows the text, Edit keeps the encoding', async () => {
    for (const [enc, encode] of [['le', utf16le], ['be', utf16be]] as const) {
      const cwd = tempDir(`utf16${enc}`);
      writeFileSync(join(cwd, 'res.rc'), encode('title = "Grüße"\r\nversion = 1\r\n'));
      const read = await run(cwd, 'Read', { file_path: 'res.rc' });
      assert.notEqual(read.isError, true, read.content);
      assert.match(read.content, /title = "Grüße"/);
      const r = await run(cwd, 'Edit', { file_path: 'res.rc', old_string: 'version = 1', new_string: 'version = 2' });
      assert.notEqual(r.isError, true, r.content);
      assert.deepEqual(readFileSync(join(cwd, 'res.rc')), encode('title = "Grüße"\r\nversion = 2\r\n'), enc);
    }
  });

  it('Write over a file that is not UTF-8 refuses text that would replace its bytes (the U+FFFD Read shows), and keeps ASCII as written', async () => {
    const cwd = tempDir('write-latin1');
    const before = latin1('caf\xe9\n');
    writeFileSync(join(cwd, 'a.txt'), before);
    const r = await run(cwd, 'Write', { file_path: 'a.txt', content: 'caf\uFFFD\nmore\n' });
    assert.equal(r.isError, true);
    assert.match(r.content, /not UTF-8/);
    assert.deepEqual(readFileSync(join(cwd, 'a.txt')), before);
    const ok = await run(cwd, 'Write', { file_path: 'a.txt', content: 'cafe\n' });
    assert.notEqual(ok.isError, true, ok.content);
    assert.equal(readFileSync(join(cwd, 'a.txt'), 'latin1'), 'cafe\n');
  });

  it('Write keeps an existing file\'s UTF-16 encoding, byte order mark and CRLF line ends', async () => {
    const cwd = tempDir('write-keep');
    writeFileSync(join(cwd, 'u16.txt'), utf16le('old\r\n'));
    writeFileSync(join(cwd, 'bom.txt'), Buffer.from('\uFEFFold\r\nold\r\n', 'utf8'));
    assert.notEqual((await run(cwd, 'Write', { file_path: 'u16.txt', content: 'new\nlines\n' })).isError, true);
    assert.deepEqual(readFileSync(join(cwd, 'u16.txt')), utf16le('new\r\nlines\r\n'));
    const r = await run(cwd, 'Write', { file_path: 'bom.txt', content: 'new\n' });
    assert.match(r.content, /kept its byte order mark and its CRLF line ends/);
    assert.deepEqual(readFileSync(join(cwd, 'bom.txt')), Buffer.from('\uFEFFnew\r\n', 'utf8'));
  });

  it('the diff shown before the edit is the change the edit makes', async () => {
    const cwd = tempDir('proposal');
    writeFileSync(join(cwd, 'm.ini'), latin1('caf\xe9\nname = old\n'));
    const p = await proposeChange('Edit', { file_path: 'm.ini', old_string: 'old', new_string: 'new' }, cwd);
    assert.ok(p?.ok, JSON.stringify(p));
    assert.equal(p.change.after, 'caf\uFFFD\nname = new\n');
    await run(cwd, 'Edit', { file_path: 'm.ini', old_string: 'old', new_string: 'new' });
    assert.deepEqual(readFileSync(join(cwd, 'm.ini')), latin1('caf\xe9\nname = new\n'));
  });

  // Pass 39 C5: the lone last byte of an odd-length UTF-16 file was dropped by an edit elsewhere.
  it('UTF-16 with an odd number of bytes: Edit refuses and the file keeps every byte', async () => {
    const cwd = tempDir('utf16odd');
    for (const enc of [utf16le, utf16be]) {
      const before = Buffer.concat([enc('hello world\r\ntail\r\n'), Buffer.from([0x41])]);
      writeFileSync(join(cwd, 'u.txt'), before);
      const r = await run(cwd, 'Edit', { file_path: 'u.txt', old_string: 'hello', new_string: 'HELLO' });
      assert.equal(r.isError, true, r.content);
      assert.match(r.content, /odd number of bytes/);
      assert.deepEqual(readFileSync(join(cwd, 'u.txt')), before);
    }
  });
});
