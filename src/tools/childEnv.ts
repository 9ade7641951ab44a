import { withAbsolutePath } from '../base/programs';

// The environment of every process the agent starts for the model (Bash, and anything else that
// runs a command): the host's, less the credentials that let Threadline itself talk to the API.
// `printenv ANTHROPIC_API_KEY` through Bash would otherwise hand the key to the model and to
// whatever the repository's scripts send it to.

/** Names that hold the agent's own credentials (exact, or by the pattern). */
const SECRET_NAMES = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_CUSTOM_HEADERS', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_API_KEY']);
const SECRET_PATTERN = /^(?:ANTHROPIC|CLAUDE|THREADLINE)_\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$/i;

function isAgentSecret(name: string): boolean {
  return SECRET_NAMES.has(name.toUpperCase()) || SECRET_PATTERN.test(name);
}

/**
 * `base` (default: this process's environment) without the agent's secrets, plus `extra`, with a
 * PATH of absolute entries only (see base/programs.ts).
 */
export function childEnv(extra: Record<string, string> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && !isAgentSecret(k)) out[k] = v;
  return withAbsolutePath({ ...out, ...extra });
}
