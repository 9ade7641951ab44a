import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import { Lexer } from 'marked';
import { IncrementalMarkdown, isClosedFence } from '../../../webview-ui/src/markdown/incremental';
import { MARKED_OPTIONS, blockHtml } from '../../../webview-ui/src/markdown/render';

const RUNS = Number(process.env.THREADLINE_PROPERTY_RUNS ?? 200);

// Blocks a model writes, including the ones whose meaning depends on what follows them
// (setext headings, loose lists, lazy continuation, late link definitions, unclosed fences).
const word = fc.constantFrom('alpha', 'beta', '`code`', '**bold**', '_em_', '[link](http://example.com)', '[ref][r]', '1.', '-', '10', '<b>x</b>', 'a|b');
const line = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));
const block = fc.oneof(
  line,
  line.map((l) => `# ${l}`),
  line.map((l) => `${l}\n===`),
  line.map((l) => `${l}\n---`),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`).join('\n')),
  fc.array(line, { minLength: 2, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`).join('\n\n')),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l, i) => `${i + 1}. ${l}`).join('\n')),
  line.map((l) => `- ${l}\n  - nested ${l}\n\n  continued ${l}`),
  line.map((l) => `- item\n\n  \`\`\`js\n  const x = '${l}';\n  \`\`\``),
  fc.array(line, { minLength: 1, maxLength: 2 }).map((ls) => ls.map((l) => `> ${l}`).join('\n')),
  fc.constantFrom('```ts\nconst a = 1;\n```', '~~~\nplain\n~~~', '````md\n```\ninner\n```\n````', '```js\nunclosed();', '    indented();\n    more();'),
  fc.constantFrom('| a | b |\n|---|---|\n| 1 | 2 |', '<div>\nraw html\n</div>', '<!-- a comment\n\nwith a blank line -->', '***', '[r]: http://example.com/ref', '> [r]: http://example.com/quoted'),
);
const separator = fc.constantFrom('\n\n', '\n', '\n\n\n', '\n\n    ', '\n\n1. ', '\n\n- ', '\n\n> ');
const doc = fc
  .array(fc.tuple(block, separator), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.map(([b, s]) => b + s).join(''))
  .chain((text) => fc.tuple(fc.constant(text), fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 40 })));

const oneShot = (text: string) =>
  Lexer.lex(text, MARKED_OPTIONS)
    .map((t) => blockHtml(t, true))
    .join('');

describe('incremental markdown', () => {
  it('draws every prefix of a streamed answer exactly as a one-shot parse would', () => {
    fc.assert(
      fc.property(doc, ([text, cuts]) => {
        const md = new IncrementalMarkdown(MARKED_OPTIONS);
        for (const end of [...cuts.sort((a, b) => a - b), text.length]) {
          const prefix = text.slice(0, end);
          const blocks = md.update(prefix, true);
          const whole = Lexer.lex(prefix, MARKED_OPTIONS);
          assert.equal(blocks.map((b) => b.token.raw).join(''), whole.map((t) => t.raw).join(''), 'the same source text, block by block');
          assert.equal(blocks.map((b) => blockHtml(b.token, true)).join(''), oneShot(prefix), `prefix ${JSON.stringify(prefix)}`);
        }
        const final = md.update(text, false);
        assert.equal(final.map((b) => blockHtml(b.token, true)).join(''), oneShot(text));
        assert.ok(final.every((b) => b.complete));
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps finished blocks and re-lexes only the growing tail', () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} says something about \`file${i}.ts\` and **why** it changed.`);
    const text = paragraphs.join('\n\n');
    const md = new IncrementalMarkdown(MARKED_OPTIONS);
    let first: unknown;
    let longestTail = 0;
    for (let end = 4; end <= text.length; end += 4) {
      const blocks = md.update(text.slice(0, end), true);
      longestTail = Math.max(longestTail, md.pendingLength);
      if (blocks.length < 3) continue;
      first ??= blocks[0]!.token;
      assert.equal(blocks[0]!.token, first, 'a finished block keeps its token (so its view is memoised)');
    }
    // Never more than the current paragraph and the blank line before it.
    assert.ok(longestTail <= paragraphs[59]!.length + 8, `tail grew to ${longestTail} characters`);
  });

  it('marks a fenced block complete only once its closing fence has arrived', () => {
    const md = new IncrementalMarkdown(MARKED_OPTIONS);
    const open = md.update('Intro\n\n```ts\nconst a = 1;\n', true);
    assert.equal(open.at(-1)!.token.type, 'code');
    assert.equal(open.at(-1)!.complete, false);
    const closed = md.update('Intro\n\n```ts\nconst a = 1;\n```', true);
    assert.equal(closed.at(-1)!.complete, true);
    assert.equal(isClosedFence(closed.at(-1)!.token), true);
    // A shorter fence does not close a longer one.
    assert.equal(md.update('````\nx\n```', true).at(-1)!.complete, false);
  });

  it('highlights a code block only when it is complete', () => {
    const [token] = Lexer.lex('```ts\nconst a = 1;\n```', MARKED_OPTIONS);
    assert.match(blockHtml(token!, true), /hljs-keyword/);
    assert.doesNotMatch(blockHtml(token!, false), /hljs-keyword/);
    assert.match(blockHtml(token!, false), /class="code-block open"/);
  });

  it('starts again when the text is replaced rather than extended', () => {
    const md = new IncrementalMarkdown(MARKED_OPTIONS);
    md.update('First paragraph.\n\nSecond paragraph.\n\nThird', true);
    const blocks = md.update('Something else entirely.', true);
    assert.equal(blocks.map((b) => b.token.raw).join(''), 'Something else entirely.');
  });

  it('a link defined late updates links in blocks already kept', () => {
    const md = new IncrementalMarkdown(MARKED_OPTIONS);
    md.update('See [the docs][d].\n\nMore text.\n\nAnd more', true);
    const blocks = md.update('See [the docs][d].\n\nMore text.\n\nAnd more\n\n[d]: http://example.com/docs\n\nend', true);
    assert.match(blocks.map((b) => blockHtml(b.token, true)).join(''), /<a href="http:\/\/example.com\/docs">the docs<\/a>/);
  });
});
