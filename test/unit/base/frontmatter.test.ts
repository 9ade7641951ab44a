import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FrontmatterError, parseFrontmatter, stringifyFrontmatter } from '../../../src/base/frontmatter';

describe('frontmatter helper', () => {
  it('reads YAML and JSON frontmatter, and text without any', () => {
    assert.deepEqual(parseFrontmatter('---\nname: a\n---\nbody'), { data: { name: 'a' }, content: 'body', present: true });
    assert.deepEqual(parseFrontmatter('---json\n{"name": "b"}\n---\nbody').data, { name: 'b' });
    assert.deepEqual(parseFrontmatter('# just markdown'), { data: {}, content: '# just markdown', present: false });
  });

  it('refuses every language that would run code, and any it does not know, without running it', () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'tl-fm-')), 'ran');
    for (const lang of ['js', 'javascript', 'JavaScript', 'coffee', 'cson', 'toml', 'constructor', '__proto__']) {
      assert.throws(() => parseFrontmatter(`---${lang}\n{ a: require('fs').writeFileSync(${JSON.stringify(marker)}, 'x') }\n---\nbody`), FrontmatterError, lang);
    }
    assert.equal(existsSync(marker), false);
  });

  it('refuses YAML that is not a mapping, and YAML with code tags', () => {
    assert.throws(() => parseFrontmatter('---\n- a\n- b\n---\n'), /mapping/);
    assert.throws(() => parseFrontmatter('---\nx: !!js/function "function () { return 1 }"\n---\n'), FrontmatterError);
    assert.throws(() => parseFrontmatter('---\nname: [unclosed\n---\n'), /does not parse/);
  });

  it('writes YAML frontmatter and never parses the body it is given', () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'tl-fm-')), 'ran');
    const body = `---js\n{ a: require('fs').writeFileSync(${JSON.stringify(marker)}, 'x') }\n---\n`;
    const text = stringifyFrontmatter(body, { name: 'note', description: 'd' });
    assert.equal(existsSync(marker), false);
    assert.ok(text.startsWith('---\nname: note\ndescription: d\n---\n'), text);
    assert.deepEqual(parseFrontmatter(text).data, { name: 'note', description: 'd' });
  });
});
