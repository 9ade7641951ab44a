import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SLASH_COMMANDS, slashAction, slashSuggestions } from '../../../src/shared/slashCommands';
import { withHandedBack } from '../../../webview-ui/src/controls/composerInbox';

describe('the composer\'s / menu', () => {
  it('offers every command for a lone /, with a line each', () => {
    const all = slashSuggestions('/');
    assert.deepEqual(all.map((c) => c.name), SLASH_COMMANDS.map((c) => c.name));
    for (const c of all) assert.ok(c.description.length > 10, c.name);
    assert.ok(['compact', 'model', 'think'].every((n) => all.some((c) => c.name === n)));
  });

  it('narrows as the name is typed, and goes once the command is chosen or it is not a command', () => {
    assert.deepEqual(slashSuggestions('/co').map((c) => c.name), ['compact', 'context']);
    assert.deepEqual(slashSuggestions('/MO').map((c) => c.name), ['model']);
    assert.deepEqual(slashSuggestions('/compact '), []);
    assert.deepEqual(slashSuggestions('/usr/bin'), []);
    assert.deepEqual(slashSuggestions('see /co'), []);
    assert.deepEqual(slashSuggestions('/zz'), []);
  });

  it('commands without words run the palette command; the others are the host\'s to parse', () => {
    assert.equal(slashAction('/new'), 'newSession');
    assert.equal(slashAction(' /context '), 'showContext');
    assert.equal(slashAction('/compact'), undefined);
    assert.equal(slashAction('/new session please'), undefined);
  });
});

describe('a message handed back to the composer', () => {
  it('goes in front of what is typed, a blank line between, and alone into an empty box', () => {
    assert.equal(withHandedBack('', ['Say banana']), 'Say banana');
    assert.equal(withHandedBack('half typed', ['Say banana']), 'Say banana\n\nhalf typed');
    assert.equal(withHandedBack('  ', []), '  ', 'nothing handed back: the draft as it was');
  });
});
