#!/usr/bin/env node
/* global Request */
// A small MCP server for the tests, written with the SDK's server side. Over stdio by default,
// streamable HTTP with --http. Flags choose its behaviour:
//   --name NAME            server name (default "testsrv")
//   --tools N              N more tools named like real ones (benchmarks)
//   --long-names           a tool whose mcp__server__tool name is far past 64 characters
//   --huge-bytes N         `huge` returns N characters of text
//   --slow-start MS        wait this long before answering anything
//   --never-answer         start, read nothing, answer nothing
//   --exit-at-start CODE   write a line to stderr and exit with CODE at once
//   --http PORT            streamable HTTP on 127.0.0.1:PORT (0: any); the URL is printed on stdout
//   --token T              (HTTP) answer 401 unless "Authorization: Bearer T"
//   --list-changed-after MS  add a tool `late` after this long and say the list changed
//   --module NAME          run ./NAME.mjs of the current folder first, if there is one: what
//                          `python3 -m NAME` and `npx` do with the folder they start in
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Readable } from 'node:stream';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};

const name = value('--name', 'testsrv');
const extraTools = Number(value('--tools', '0'));
const hugeBytes = Number(value('--huge-bytes', '300000'));
const slowStart = Number(value('--slow-start', '0'));
const exitAtStart = value('--exit-at-start', undefined);
const listChangedAfter = Number(value('--list-changed-after', '0'));

/** A 1x1 PNG, so image results can be checked without a file. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const WORDS = ['query', 'list', 'create', 'update', 'delete', 'fetch', 'search', 'describe', 'export', 'import', 'sync', 'archive', 'restore', 'merge', 'render', 'index', 'validate', 'deploy', 'rollback', 'inspect'];
const NOUNS = ['issue', 'record', 'branch', 'ticket', 'invoice', 'report', 'dataset', 'pipeline', 'comment', 'document'];

function build() {
  const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('echo', { description: 'Echoes the text back', inputSchema: z.object({ text: z.string().describe('What to echo') }) }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }), annotations: { readOnlyHint: true } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool('huge', { description: 'Returns a very long text' }, async () => ({
    content: [{ type: 'text', text: Array.from({ length: Math.ceil(hugeBytes / 64) }, (_, i) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(50)}`).join('\n').slice(0, hugeBytes) }],
  }));
  server.registerTool('crash', { description: 'Exits in the middle of the call' }, async () => {
    process.stderr.write(`${name}: segfault in the fake driver\n`);
    setTimeout(() => process.exit(3), 20);
    return new Promise(() => undefined);
  });
  server.registerTool('hang', { description: 'Never answers' }, async () => new Promise(() => undefined));
  server.registerTool('image', { description: 'Returns a picture' }, async () => ({
    content: [
      { type: 'text', text: 'a red pixel' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///tmp/notes.txt', mimeType: 'text/plain', text: 'resource text' } },
    ],
  }));
  server.registerTool('fail', { description: 'Reports an error' }, async () => ({ content: [{ type: 'text', text: 'the fake API said no' }], isError: true }));
  if (flag('--long-names')) {
    server.registerTool('a_tool_with_an_extremely_long_name_that_goes_far_past_the_api_limit', { description: 'Has a long name', inputSchema: z.object({}) }, async () => ({
      content: [{ type: 'text', text: 'long name ran' }],
    }));
  }
  for (let i = 0; i < extraTools; i++) {
    const verb = WORDS[i % WORDS.length];
    const noun = NOUNS[Math.floor(i / WORDS.length) % NOUNS.length];
    server.registerTool(
      `${verb}_${noun}${i >= 200 ? `_${i}` : ''}`,
      {
        // About as long as real servers' definitions (GitHub's, Jira's): some 250 tokens each.
        description:
          `${verb[0].toUpperCase()}${verb.slice(1)}s a ${noun} in the ${name} service. Takes the ${noun} id and optional filters; returns the ${noun} as JSON with its fields, owner, timestamps and links. ` +
          `Use this when the user asks to ${verb} one ${noun} or several; for many ${noun}s prefer a filter over repeated calls. Results are paginated: pass the cursor from the previous page to continue. ` +
          `Errors: NOT_FOUND when the ${noun} does not exist, FORBIDDEN when the token lacks the scope.`,
        inputSchema: z.object({
          id: z.string().describe(`The ${noun} id, as shown in the ${name} web interface`),
          filter: z.string().optional().describe('An optional filter expression, e.g. "state:open owner:me"'),
          limit: z.number().int().optional().describe('Most results to return (1-100, default 30)'),
          cursor: z.string().optional().describe('The cursor of the page to return, from the previous result'),
          fields: z.array(z.string()).optional().describe('Only these fields in the result'),
        }),
      },
      async ({ id }) => ({ content: [{ type: 'text', text: `${verb} ${noun} ${id} on ${name}` }] }),
    );
  }
  if (listChangedAfter) {
    setTimeout(() => {
      server.registerTool('late', { description: 'Joined later' }, async () => ({ content: [{ type: 'text', text: 'late ran' }] }));
    }, listChangedAfter);
  }
  return server;
}

async function serveHttp() {
  const token = value('--token', undefined);
  const http = createServer(async (req, res) => {
    if (token && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : v === undefined ? [] : [[k, v]])),
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
    });
    // Stateless: a server per request, as the SDK's stateless example does.
    const server = build();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body).pipe(res);
    else res.end();
  });
  await new Promise((r) => http.listen(Number(value('--http', '0')), '127.0.0.1', r));
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
}

// Last: the constants and functions above must exist before the server is built.
const moduleName = value('--module', undefined);
if (moduleName && existsSync(join(process.cwd(), `${moduleName}.mjs`))) await import(pathToFileURL(join(process.cwd(), `${moduleName}.mjs`)).href);
if (exitAtStart !== undefined) {
  process.stderr.write(`${name}: cannot open the database (fake failure for the tests)\n`);
  process.exit(Number(exitAtStart));
}
if (flag('--never-answer')) {
  process.stderr.write(`${name}: started, will never answer\n`);
  setInterval(() => undefined, 1 << 30);
} else {
  if (slowStart) await new Promise((r) => setTimeout(r, slowStart));
  if (flag('--http')) await serveHttp();
  else {
    const server = build();
    await server.connect(new StdioServerTransport());
    process.stderr.write(`${name}: ready on stdio\n`);
  }
}
