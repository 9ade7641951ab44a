// Passes 83-85 on 119cb12, and the read-back before them. Read-back: a command whose name is
// computed (`c=cd; $c $D`) may be a cd, but only cd, pushd and popd were counted as moving the
// folder, so a relative name after it (`cat e*n`) could be in /proc under `Bash`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bashEngine, loadedChecker, workspaceWithHome } from './support';

describe('read-back: a command whose name is computed may be a cd', () => {
  it('asks under Bash when relative names follow a computed command name', async () => {
    const { ws } = workspaceWithHome('rb83');
    const eng = bashEngine(ws, { allow: ['Bash'] }, await loadedChecker());
    for (const command of ['c=cd; $c $(echo L3Byb2Mv | base64 -d)$PPID; cat e*n', 'c=cd; $c $D; grep -r KEY .', 'c=cd; $c ../../../../../../../..; cat ./[p]roc/self/e*', '"$C" /tmp; ls']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['x=ls; $x -la', 'cd src && ls', 'for f in src/*.ts; do cat "$f"; done']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});
