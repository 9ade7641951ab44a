// OAuth for remote MCP servers, with the SDK's own flow (discovery, dynamic registration, PKCE,
// token exchange and refresh): this file only keeps what the flow saves, listens on a loopback
// address for the authorization callback (RFC 8252), and hands the authorization page to the
// host, which opens the user's browser (VS Code), prints it (CLI) or follows it (the
// conformance adapter).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { McpOAuthHost, McpOAuthState } from '../connection';
import { authorizationPageProblem } from '../oauthPage';

/** How long the user has to finish signing in. */
const AUTHORIZE_TIMEOUT_MS = 5 * 60_000;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The SDK's provider interface over the host's storage, with the loopback callback. */
export class LoopbackOAuthProvider implements OAuthClientProvider {
  private saved: McpOAuthState = {};
  private callback: Promise<URLSearchParams> | undefined;
  private listening: Server | undefined;

  private constructor(
    private readonly server: string,
    private readonly host: McpOAuthHost,
    private port: number,
  ) {}

  /**
   * The provider of one server, with what was saved for it (the loopback port stays the one it
   * registered with). A client registered beforehand (`oauth.clientId` in the server's config)
   * is used as it is; otherwise the SDK registers one.
   */
  static async create(server: string, host: McpOAuthHost, configured: { clientId?: string; clientSecret?: string; callbackPort?: number } = {}): Promise<LoopbackOAuthProvider> {
    const saved = (await host.load(server)) ?? {};
    const p = new LoopbackOAuthProvider(server, host, configured.callbackPort ?? saved.port ?? (await freePort()));
    const client = configured.clientId ? { client_id: configured.clientId, ...(configured.clientSecret ? { client_secret: configured.clientSecret } : {}) } : saved.client;
    p.saved = { ...saved, port: p.port, ...(client ? { client } : {}) };
    return p;
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get clientMetadata() {
    return { client_name: 'Threadline', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  private save(): Promise<void> {
    return this.host.save(this.server, this.saved);
  }

  clientInformation() {
    return this.saved.client as never;
  }

  async saveClientInformation(info: unknown): Promise<void> {
    this.saved.client = info;
    await this.save();
  }

  tokens() {
    return this.saved.tokens as never;
  }

  async saveTokens(tokens: unknown): Promise<void> {
    this.saved.tokens = tokens;
    await this.save();
  }

  async saveCodeVerifier(v: string): Promise<void> {
    this.saved.verifier = v;
    await this.save();
  }

  codeVerifier(): string {
    if (!this.saved.verifier) throw new Error('no PKCE code verifier was saved');
    return this.saved.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') delete this.saved.tokens;
    if (scope === 'all' || scope === 'client') delete this.saved.client;
    if (scope === 'all' || scope === 'verifier') delete this.saved.verifier;
    await this.save();
  }

  /** Listens for the callback first, then lets the host show the page: the answer cannot arrive before we listen. */
  async redirectToAuthorization(url: URL): Promise<void> {
    // Checked here, the one way to the host's open() for every face.
    const problem = authorizationPageProblem(url);
    if (problem) throw new Error(`MCP server "${this.server}" cannot sign in: ${problem}`);
    const { answer } = await this.listen();
    this.callback = answer;
    // A rejection is the waiter's to report; this keeps it from going unhandled meanwhile.
    answer.catch(() => undefined);
    void Promise.resolve(this.host.open(url, this.server)).catch(() => undefined);
  }

  /** Binds the loopback port; resolves (wrapped, so it is not awaited here) with the promise of the callback's parameters. */
  private async listen(): Promise<{ answer: Promise<URLSearchParams> }> {
    this.listening?.close();
    const server = createServer();
    this.listening = server;
    const answer = new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(() => {
        server.close();
        reject(new Error(`nobody signed in to MCP server "${this.server}" within ${AUTHORIZE_TIMEOUT_MS / 60_000} minutes`));
      }, AUTHORIZE_TIMEOUT_MS);
      timer.unref();
      server.on('request', (req, res) => {
        const u = new URL(req.url ?? '/', this.redirectUrl);
        if (u.pathname !== '/callback') {
          res.writeHead(404).end();
          return;
        }
        clearTimeout(timer);
        const ok = u.searchParams.has('code');
        res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(ok ? 'Threadline is signed in to the MCP server. You can close this page.' : 'Signing in did not finish; see Threadline for the reason.');
        server.close();
        if (ok) resolve(u.searchParams);
        else reject(new Error(`signing in to MCP server "${this.server}" failed: ${u.searchParams.get('error') ?? 'no code in the answer'}`));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    return { answer };
  }

  /** After a redirect to the sign-in page: the callback's parameters once the user has signed in (asked once per redirect). */
  takeCallback(): Promise<URLSearchParams> | undefined {
    const c = this.callback;
    this.callback = undefined;
    return c;
  }

  close(): void {
    this.listening?.close();
  }
}
