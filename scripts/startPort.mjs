// Which port `npm start` serves on. A port already taken is never "running": code-server would
// fail to bind, while whatever holds the port (an older `npm start` with its old environment, or
// any other HTTP server) went on answering the address we printed.
import { createServer } from 'node:net';

export const DEFAULT_PORT = 8080;

/** Resolves true when nothing listens on 127.0.0.1:port (we could bind it ourselves). */
export function portFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

async function anyFreePort(host) {
  const srv = createServer();
  srv.unref();
  await new Promise((res, rej) => {
    srv.once('error', rej);
    srv.listen(0, host, res);
  });
  const { port } = srv.address();
  await new Promise((res) => srv.close(res));
  return port;
}

/**
 * `PORT` given: that port, or an error saying it is taken and what to do. Not given: the default
 * port, or (when that is taken) a free one, with a note saying so.
 * Returns { port, note? } or throws an Error whose message is for the user.
 */
export async function choosePort(env = process.env, { defaultPort = DEFAULT_PORT, host = '127.0.0.1' } = {}) {
  const asked = env.PORT;
  if (asked !== undefined && asked !== '') {
    const port = Number(asked);
    if (!/^\d+$/.test(asked.trim()) || !Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT must be a port number (1-65535), got ${JSON.stringify(asked)}.`);
    if (!(await portFree(port, host))) {
      throw new Error(
        `port ${port} is already in use (another \`npm start\`, or some other server), so nothing was started.\n` +
          `Stop what runs there (Ctrl+C in its terminal), or choose another port: PORT=${port + 1} npm start. Leave PORT unset to get a free port.`,
      );
    }
    return { port };
  }
  if (await portFree(defaultPort, host)) return { port: defaultPort };
  const port = await anyFreePort(host);
  return { port, note: `Port ${defaultPort} is in use (perhaps another \`npm start\`), so this one serves on port ${port}.` };
}
