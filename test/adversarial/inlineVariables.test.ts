// Pass 29, F11 (high): the locale variables, TZ and TERM counted as harmless with any value, even
// under the exact rule `Bash(git status)`. `LANGUAGE=../../../../<ws>/l cat --badopt` made the C
// library load the clone's translation catalogue, whose doctored message (a format string)
// printed the environment. Their values must now be names, not paths.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

describe('pass 29 F11: inline locale, zone and terminal values', () => {
  const ws = tempDir('inlinevars');
  const decide = (c: string) => bashEngine(ws, { allow: ['Bash(git status)', 'Bash(cat:*)', 'Bash(npm test:*)'] }, checker).decide(c).behavior;

  it('a value that is a path asks, under a prefix rule and an exact one', () => {
    for (const c of [
      'LANGUAGE=../../../../tmp/ws/l cat --badopt',
      'LANGUAGE=de:../../x git status',
      'LC_MESSAGES=../x cat a',
      'LC_ALL=/tmp/x git status',
      'LANG=../x cat a',
      'TZ=../../etc/x cat a',
      'TZ=:/etc/x cat a',
      'TZ=/etc/localtime cat a',
      'TERM=../../x cat a',
      'COLUMNS=1/2 cat a',
    ]) assert.equal(decide(c), 'ask', c);
  });

  it('names still pass', () => {
    for (const c of ['LANGUAGE=de:fr git status', 'LC_ALL=C cat a', 'LANG=C.UTF-8 git status', 'TZ=America/New_York cat a', 'TZ=UTC0 cat a', 'TERM=xterm-256color cat a', 'NODE_ENV=test npm test', 'LANG= cat a', 'COLUMNS=120 cat a']) {
      assert.equal(decide(c), 'allow', c);
    }
  });
});
