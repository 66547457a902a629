// A tiny static file server for the built browser app (dist/), used by the
// end-to-end tests: 127.0.0.1 only, an ephemeral port, GET/HEAD only, no
// directory listings, nothing outside the root.
//
//   const server = await startServer();   // serves /work/main/dist
//   server.url                            // "http://127.0.0.1:PORT"
//   await server.close();

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built app: dist/ of the repository, or $FIELDSCOPE_DIST. */
export const DIST = resolve(process.env.FIELDSCOPE_DIST ?? fileURLToPath(new URL('../../dist', import.meta.url)));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file under `root` that a request path names, or null. */
function resolvePath(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  if (path.endsWith('/')) path += 'index.html';
  const full = normalize(join(root, path));
  if (full !== root && !full.startsWith(root + sep)) return null;
  return full;
}

/**
 * Starts the server. Resolves to { url, port, requests, close } where
 * `requests` lists every path asked for (for debugging).
 */
export async function startServer(root = DIST) {
  const requests = [];
  const server = createServer(async (req, res) => {
    requests.push(req.url);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const file = resolvePath(root, req.url ?? '/');
    if (!file) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad path');
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': body.length,
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  // Keep-alive sockets would hold close() open.
  server.keepAliveTimeout = 1000;
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections?.();
      }),
  };
}
