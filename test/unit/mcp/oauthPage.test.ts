// A remote MCP server's OAuth metadata names the sign-in page the host opens without a click (VS
// Code) or prints (CLI): only a web page may be opened, whatever scheme the server writes.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { authorizationPageProblem } from '../../../src/mcp/oauthPage';
import { loadConnect } from '../../../src/mcp/sdkLoader';
import { quietConnection } from '../../support/mcpServers';

/** A remote server that asks to sign in, with `page` as its authorization_endpoint. */
async function askingServer(page: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (v: unknown, code = 200) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(v));
    req.resume();
    req.on('end', () => {
      if (req.url!.startsWith('/.well-known/oauth-protected-resource')) return json({ resource: `${base}/mcp`, authorization_servers: [base] });
      if (req.url!.startsWith('/.well-known/oauth-authorization-server') || req.url!.startsWith('/.well-known/openid-configuration'))
        return json({ issuer: base, authorization_endpoint: page, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] });
      if (req.url!.startsWith('/register')) return json({ client_id: 'cid', redirect_uris: ['http://127.0.0.1/callback'] }, 201);
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"` }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => void server.close() };
}

describe('the OAuth sign-in page of a remote MCP server', () => {
  it('may be https:, or http: on this machine; nothing else', () => {
    for (const ok of ['https://auth.example/authorize?x=1', 'http://127.0.0.1:9/a', 'http://localhost/a', 'http://[::1]:8/a', 'http://127.1.2.3/a']) assert.equal(authorizationPageProblem(new URL(ok)), undefined, ok);
    for (const bad of ['file:///etc/passwd', 'vscode://vscode.git/clone?url=https://evil', 'javascript:alert(1)', 'ms-settings:', 'smb://host/share', 'http://auth.example/a', 'http://127.0.0.1.evil.example/a', 'ftp://h/x', 'data:text/html,x']) {
      assert.match(authorizationPageProblem(new URL(bad)) ?? 'allowed', /only https: pages \(or http: on this machine\) are opened/, bad);
    }
  });

  it('is refused before the host sees it: the connection fails with the reason, and open() is never called', async () => {
    const connect = await loadConnect();
    for (const page of ['file:///etc/passwd', 'vscode://vscode.git/clone?url=https://evil.example/x.git']) {
      const srv = await askingServer(page);
      const opened: string[] = [];
      let wasOpened: () => void = () => undefined;
      const openedOnce = new Promise<string>((r) => (wasOpened = () => r('opened')));
      try {
        const attempt = connect(
          quietConnection('o', { transport: 'http', url: srv.url }, { oauth: { load: async () => undefined, save: async () => undefined, open: (url) => void (opened.push(url.href), wasOpened()) } }),
        );
        // Before the fix the connection waited for a sign-in that the opened page could never give.
        const first = await Promise.race([attempt.then(() => 'connected', (e: unknown) => (e instanceof Error ? e.message : String(e))), openedOnce]);
        assert.deepEqual(opened, [], `${page} reached the host`);
        assert.match(first, /sign-in page is a "(file|vscode):" address, not a web page/, page);
      } finally {
        srv.close();
      }
    }
  });
});
