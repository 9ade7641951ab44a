// Pass 37, B2 (medium): a deny rule under `~` (`Read(~/**/credentials)`) with a home dot-folder
// that is a link out of the home (`~/.aws -> /data/awsreal`): the Read tool denied
// `~/.aws/credentials` as spelled, but `cat ~/.aws/credentials` under `Bash(cat:*)` was allowed
// (with the target's folder added), as Bash judged the real path only. Both are judged now.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { bashTool, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

describe('pass 37 B2: a deny rule that names a path through a link out of the home', () => {
  it('holds for Bash as it holds for Read', () => {
    const root = tempDir('spelled');
    const home = join(root, 'home');
    const data = join(root, 'data', 'awsreal');
    mkdirSync(data, { recursive: true });
    mkdirSync(join(home, 'ws'), { recursive: true });
    writeFileSync(join(data, 'credentials'), 'AWSSECRET');
    symlinkSync(data, join(home, '.aws'));
    const ws = join(home, 'ws');
    for (const allow of [['Bash(cat:*)'], ['Bash']]) {
      const p = new Permissions({ cwd: ws, home, rules: () => ({ allow, ask: [], deny: ['Read(~/**/credentials)'], additionalDirectories: [join(root, 'data')] }), trusted: () => true, bash: checker });
      for (const command of ['cat ~/.aws/credentials', `cat ${join(home, '.aws', 'credentials')}`]) {
        assert.notEqual(p.decide({ tool: bashTool, input: { command } }).behavior, 'allow', `${command} under ${allow}`);
      }
    }
  });
});
