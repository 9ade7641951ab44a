// The environment for processes our scripts start. `npm start` / `npm test` export dozens of
// `npm_*` variables (npm's user agent names the outer Node, v20); a nested `npm install` or
// code-server inherits them, and code-server's postinstall then reads the wrong Node major from
// `npm_config_user_agent` and refuses to install. So children get the user's environment
// without anything npm added, and only what each one needs is set back explicitly.

// npm settings a person may have passed to the outer npm (`--registry`, a proxy) that a nested
// install still needs to reach the registry; everything else of npm's is dropped.
const NETWORK_SETTINGS = ['registry', 'proxy', 'https_proxy', 'http_proxy', 'noproxy', 'cafile', 'ca', 'strict_ssl'];

// Variables npm sets for scripts that are not prefixed `npm_`.
const NPM_ADDED = new Set(['INIT_CWD', 'NODE', 'npm_execpath', 'npm_node_execpath', 'COLOR', 'EDITOR_NPM']);

/**
 * `base` minus npm's variables, plus `extra`. Keys in `extra` set to undefined are removed.
 * @param {Record<string, string | undefined>} [extra]
 * @param {NodeJS.ProcessEnv} [base]
 */
export function cleanEnv(extra = {}, base = process.env) {
  const out = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) continue;
    if (/^npm_/i.test(k) || NPM_ADDED.has(k)) continue;
    out[k] = v;
  }
  for (const s of NETWORK_SETTINGS) {
    const v = base[`npm_config_${s}`];
    if (v) out[`npm_config_${s}`] = v;
  }
  // npm puts node_modules/.bin folders of the outer project first on PATH; a child in another
  // folder must not pick up our project's binaries by accident.
  if (out.PATH) {
    out.PATH = out.PATH.split(':')
      .filter((p) => !/\/node_modules\/\.bin$/.test(p) && !/\/npm\/node_modules\/@npmcli\/run-script\/lib\/node-gyp-bin$/.test(p))
      .join(':');
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
