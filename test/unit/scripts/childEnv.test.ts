import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
// @ts-expect-error plain ESM script without types
import { cleanEnv } from '../../../scripts/childEnv.mjs';
// @ts-expect-error plain ESM script without types
import { readmeCommands } from '../../../scripts/readmeCommands.mjs';

type Env = Record<string, string | undefined>;

test('children of npm scripts get no npm_* variables, but keep the registry and proxy', () => {
  const outer: Env = {
    PATH: '/work/node_modules/.bin:/usr/bin',
    HOME: '/root',
    npm_config_user_agent: 'npm/11.1.0 node/v20.20.2 linux x64',
    npm_lifecycle_event: 'start',
    npm_config_registry: 'https://registry.example/',
    npm_config_https_proxy: 'http://proxy:3128',
    NPM_CONFIG_FOO: 'x',
    INIT_CWD: '/work',
    NODE: '/usr/bin/node',
  };
  const env = cleanEnv({ EXTRA: '1' }, outer) as Env;
  assert.equal(env.npm_config_user_agent, undefined);
  assert.equal(env.npm_lifecycle_event, undefined);
  assert.equal(env.NPM_CONFIG_FOO, undefined);
  assert.equal(env.INIT_CWD, undefined);
  assert.equal(env.NODE, undefined);
  assert.equal(env.npm_config_registry, 'https://registry.example/');
  assert.equal(env.npm_config_https_proxy, 'http://proxy:3128');
  assert.equal(env.PATH, '/usr/bin');
  assert.equal(env.HOME, '/root');
  assert.equal(env.EXTRA, '1');
});

test('a child started with the clean environment does not see the outer user agent', () => {
  const env = cleanEnv({}, { ...process.env, npm_config_user_agent: 'npm/11 node/v20.0.0' });
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.env.npm_config_user_agent))'], { env, encoding: 'utf8' });
  assert.equal(r.stdout, 'undefined');
});

test('the README test reads the two commands from the README', () => {
  const md = '# x\n\n## Two commands\n\nText\n\n```sh\nnpm install && npm start   # editor\nnpm test                   # checks\n```\n';
  assert.deepEqual(readmeCommands(md), { start: 'npm install && npm start', test: 'npm test' });
  assert.throws(() => readmeCommands('# nothing'), /Two commands/);
});
