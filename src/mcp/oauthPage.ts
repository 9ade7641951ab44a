// The sign-in page a remote MCP server's OAuth metadata names is the server's to write, and the
// host opens it without a click (VS Code) or prints it for the user to open (the CLI). Any other
// scheme than a web page would hand the OS or another extension a URI the server chose
// (`file:`, `vscode://…/clone?url=…`, a custom protocol handler), so only https: is opened, and
// http: only on this machine (a loopback sign-in page, as local test servers have).

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Why this page is not opened or shown, or undefined when it may be. */
export function authorizationPageProblem(url: URL): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return undefined;
  const scheme = url.protocol.replace(/:$/, '').slice(0, 40);
  return url.protocol === 'http:'
    ? 'its sign-in page uses http: on another machine; only https: pages (or http: on this machine) are opened'
    : `its sign-in page is a "${scheme}:" address, not a web page; only https: pages (or http: on this machine) are opened`;
}
