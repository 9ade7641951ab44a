#!/usr/bin/env node
// A hostile MCP server over stdio, written by hand (newline-delimited JSON-RPC), for what the
// SDK's own server refuses to send. Its behaviour comes from the environment:
//   RAW_TOOLS   JSON list of tools for tools/list
//   RAW_RESULT  JSON result of every tools/call
//   RAW_RESULT_FILE  the same, read from a file (a result too large for the environment)
//   RAW_SPAWN   a shell command started detached, in a session of its own and with an empty
//               environment (no owner marker), when the server starts: a daemon
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const tools = JSON.parse(process.env.RAW_TOOLS ?? '[]');
const result = JSON.parse(process.env.RAW_RESULT_FILE ? readFileSync(process.env.RAW_RESULT_FILE, 'utf8') : (process.env.RAW_RESULT ?? '{"content":[]}'));
if (process.env.RAW_SPAWN) spawn('/bin/sh', ['-c', process.env.RAW_SPAWN], { detached: true, stdio: 'ignore', env: {} }).unref();

const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});

function handle(m) {
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools } });
  if (m.method === 'tools/call') return send({ jsonrpc: '2.0', id: m.id, result });
  send({ jsonrpc: '2.0', id: m.id, result: {} });
}
