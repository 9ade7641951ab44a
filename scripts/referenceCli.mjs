// The reference Claude Code CLI for scripts that compare with it or record what it writes: found
// at --claude / CLAUDE_BIN, or installed once from npm into a cache folder outside the repository
// (its binary comes in a per-platform package; its install script links it, so scripts are
// allowed for that one install). Not used by `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv } from './childEnv.mjs';

const PACKAGE = '@anthropic-ai/claude-code';

/** Where the CLI is installed when no path is given: one folder per requested version. */
export function claudeCacheDir(version = 'latest') {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'threadline', `claude-code-${version}`);
}

/**
 * The path of a working `claude` binary: the given one, or the cached install (made now if
 * missing). Throws with the npm output when the install fails.
 */
export function ensureClaude({ bin = process.env.CLAUDE_BIN, version = process.env.CLAUDE_CODE_VERSION || 'latest' } = {}) {
  if (bin) {
    if (!existsSync(bin)) throw new Error(`no Claude Code CLI at ${bin}`);
    return bin;
  }
  const dir = claudeCacheDir(version);
  const installed = join(dir, 'node_modules', '.bin', 'claude');
  if (!existsSync(installed)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    process.stderr.write(`installing ${PACKAGE}@${version} into ${dir} …\n`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', `${PACKAGE}@${version}`], {
      cwd: dir,
      encoding: 'utf8',
      env: cleanEnv({ npm_config_dangerously_allow_all_scripts: 'true' }),
    });
    if (r.status !== 0 || !existsSync(installed)) throw new Error(`npm install ${PACKAGE} failed:\n${r.stdout}\n${r.stderr}`);
  }
  return installed;
}

export function claudeVersion(bin) {
  return spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

/** A clean environment for one run: nothing of the caller's Claude setup leaks in. */
export function claudeEnv({ home, baseUrl, extra = {} }) {
  const env = cleanEnv();
  for (const k of Object.keys(env)) if (/^(ANTHROPIC_|CLAUDE_|CLAUDECODE|THREADLINE_)/.test(k)) delete env[k];
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-reference-fixture',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extra,
  };
}

/** Runs a command to its end with a time limit; resolves with its exit and output. */
export function run(cmd, args, { cwd, env, timeoutMs = 180_000 }) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}
