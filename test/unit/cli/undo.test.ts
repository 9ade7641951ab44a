// Undo in the headless face, through the bundled CLI as a user runs it: `-p` changes files,
// `threadline rewind` lists and restores, `threadline diff` shows the session's changes,
// `threadline compact` summarises part of the conversation and undoes it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCli } from '../../support/useCli';
import { repo, tmp } from '../checkpoints/workspace';

describe('threadline rewind, diff and compact (the bundled CLI)', () => {
  const { standin, run } = useCli();

  /** Runs in `cwd`, one home and state folder for all of them, so `-c` and `rewind` find the earlier runs' session. */
  function runner(cwd: string) {
    const o = { cwd, stateDir: tmp('tl-undo-state-'), home: tmp('tl-undo-home-') };
    return (args: string[]) => run(args, o);
  }

  const read = (ws: string, rel: string) => readFileSync(join(ws, rel), 'utf8');

  it('lists the messages with the files each changed, shows the diff, restores with a dry run first, refuses to overwrite your edit without --force, and the restore undoes', async () => {
    standin.reset();
    const ws = await repo({ 'app.js': 'let x = 1;\n', 'notes.md': 'committed notes\n' });
    const tl = runner(ws);
    standin.enqueue(
      { content: [{ type: 'tool_use', id: 'toolu_e', name: 'Edit', input: { file_path: 'app.js', old_string: 'let x = 1;', new_string: 'let x = 2;' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'echo by a command > notes.md && echo new > made.txt' } }] },
      { content: [{ type: 'text', text: 'Changed.' }] },
    );
    // Trusted: git's copies of committed files are read (in an untrusted folder git does not run).
    assert.equal((await tl(['-p', 'change things', '--trust', '--allowed-tools', 'Edit', 'Bash'])).code, 0);
    standin.enqueue({ content: [{ type: 'text', text: 'Just talking.' }] });
    assert.equal((await tl(['-c', '-p', 'no changes this time'])).code, 0);

    const list = await tl(['rewind']);
    assert.equal(list.code, 0, list.err);
    const rows = list.out.trim().split('\n');
    assert.match(rows[0]!, /^Session \S+ {2}change things$/);
    assert.match(rows[1]!, /^user_[0-9a-f]{16} {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}3 files +change things$/);
    assert.match(rows[2]!, /^user_[0-9a-f]{16} .* no files +no changes this time$/);
    const json = JSON.parse((await tl(['rewind', '--json'])).out) as { messages: Array<{ id: string; files: string[]; conversation: boolean; checkpoint: string | null }> };
    const [first] = json.messages;
    assert.deepEqual(first!.files.sort(), ['app.js', 'made.txt', 'notes.md']);
    assert.equal(first!.conversation, true);

    const diff = await tl(['diff']);
    assert.equal(diff.code, 0);
    assert.match(diff.out, /--- a\/app\.js\n\+\+\+ b\/app\.js\n@@ -1,1 \+1,1 @@\n-let x = 1;\n\+let x = 2;/);
    assert.match(diff.out, /--- \/dev\/null\n\+\+\+ b\/made\.txt/);
    assert.match(diff.out, /-committed notes\n\+by a command/);

    const dry = await tl(['rewind', first!.id, '--code', '--dry-run']);
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /^Restoring the code to before “change things” would change 3 files:\n {2}M app\.js {2}\+1 -1\n {2}D made\.txt {2}\+0 -1\n {2}M notes\.md {2}\+1 -1\n$/);
    assert.equal(read(ws, 'app.js'), 'let x = 2;\n', 'a dry run changes nothing');

    // The user edits a file after the agent did: a headless restore does not overwrite it.
    writeFileSync(join(ws, 'app.js'), 'let x = 3; // mine\n');
    const refused = await tl(['rewind', first!.id.slice(0, 10), '--code']);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /not restored: this file was changed after the agent last changed it: app\.js\. Nothing was changed\. Run again with --force/);
    assert.equal(read(ws, 'notes.md'), 'by a command\n', 'nothing at all was restored');

    const forced = await tl(['rewind', first!.id, '--code', '--force']);
    assert.equal(forced.code, 0, forced.err);
    assert.equal(read(ws, 'app.js'), 'let x = 1;\n');
    assert.equal(read(ws, 'notes.md'), 'committed notes\n', "a Bash change restored from git's copy");
    assert.equal(existsSync(join(ws, 'made.txt')), false);
    const redo = /Undo this restore: threadline rewind (cp_[0-9a-f]{16}) --code/.exec(forced.out);
    assert.ok(redo, forced.out);

    const back = await tl(['rewind', redo[1]!, '--code']);
    assert.equal(back.code, 0, back.err);
    assert.equal(read(ws, 'app.js'), 'let x = 3; // mine\n', 'Redo brings back what the restore replaced, your edit too');
    assert.equal(read(ws, 'made.txt'), 'new\n');
  });

  it('goes back in the conversation, and summarises up to a message, previewed first, then undoes the summary', async () => {
    standin.reset();
    const ws = tmp('tl-undo-ws-');
    const tl = runner(ws);
    const long = `First, a long log: ${'a line of the log that takes room\n'.repeat(200)}`;
    standin.enqueue({ content: [{ type: 'text', text: 'Read the log.' }] });
    assert.equal((await tl(['-p', long])).code, 0);
    standin.enqueue({ content: [{ type: 'text', text: 'Second answer.' }] });
    await tl(['-c', '-p', 'second question']);
    standin.enqueue({ content: [{ type: 'text', text: 'Third answer.' }] });
    await tl(['-c', '-p', 'third question']);
    const ids = (JSON.parse((await tl(['rewind', '--json'])).out) as { messages: Array<{ id: string }> }).messages.map((m) => m.id);

    const gone = await tl(['rewind', ids[2]!, '--conversation']);
    assert.equal(gone.code, 0, gone.err);
    assert.match(gone.out, /The conversation went back to before “third question” \(2 messages dropped\)/);

    standin.enqueue({ content: [{ type: 'text', text: '<summary>The user shared a long log.</summary>' }] });
    const preview = await tl(['compact', '--up-to', ids[1]!, '--focus', 'the log', '--dry-run']);
    assert.equal(preview.code, 0, preview.err);
    assert.match(preview.out, /^Summary up to “second question”: about \d+ -> \d+ tokens\.\n\n[\s\S]*The user shared a long log\.[\s\S]*Not applied \(--dry-run\)\.\n$/);
    assert.match(JSON.stringify(standin.requests.at(-1)!.body), /the log/, 'the focus went with the summary request');

    standin.enqueue({ content: [{ type: 'text', text: '<summary>The user shared a long log.</summary>' }] });
    const applied = await tl(['compact', '--up-to', ids[1]!]);
    assert.equal(applied.code, 0, applied.err);
    const undo = /Undo it with: threadline compact --undo (compact_[0-9a-f]{16})/.exec(applied.out);
    assert.ok(undo, applied.out);
    assert.match((await tl(['compact', '--list'])).out, new RegExp(`^${undo[1]}  .* undoable\\n$`));

    standin.enqueue({ content: [{ type: 'text', text: 'After the summary.' }] });
    await tl(['-c', '-p', 'what now?']);
    const sent = JSON.stringify(standin.requests.at(-1)!.body);
    assert.doesNotMatch(sent, /a line of the log/);
    assert.doesNotMatch(sent, /third question/);
    assert.match(sent, /second question.*what now\?/s);

    const undone = await tl(['compact', '--undo', undo[1]!.slice(0, 12)]);
    assert.equal(undone.code, 0, undone.err);
    standin.enqueue({ content: [{ type: 'text', text: 'All back.' }] });
    await tl(['-c', '-p', 'and now?']);
    const again = JSON.stringify(standin.requests.at(-1)!.body);
    assert.match(again, /a line of the log.*second question.*what now\?.*and now\?/s, 'the originals are back, and what came after stays');
  });

  it('says what is wrong with a rewind or compact it cannot do (usage: exit 2)', async () => {
    const tl = runner(tmp('tl-undo-ws-'));
    const noMode = await tl(['rewind', 'user_1']);
    assert.equal(noMode.code, 2);
    assert.match(noMode.err, /say what to restore: threadline rewind user_1 --code, --conversation or --both/);
    assert.equal((await tl(['rewind', '--code'])).code, 2);
    assert.equal((await tl(['rewind', 'user_1', '--code', '--both'])).code, 2);
    assert.equal((await tl(['compact', '--from', 'a', '--up-to', 'b'])).code, 2);
    assert.equal((await tl(['-p', 'hi', '--force'])).code, 2);
    const none = await tl(['rewind']);
    assert.equal(none.code, 1);
    assert.match(none.err, /there is no saved session in this folder/);
  });
});
