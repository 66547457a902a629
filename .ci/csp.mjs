// Trunk post-build hook (see Trunk.toml): writes the page's
// Content-Security-Policy into the built index.html.
//
// The policy lets the page load only its own files and forbids every
// network connection to anywhere else: no remote scripts, styles, images,
// fonts or frames, no fetch/XHR/WebSocket except to the page's own origin
// (the .wasm file itself, and `trunk serve`'s live reload), no forms, no
// plugins. Trunk's loader is an inline module script whose text changes
// with every build (it names the hashed files), so its SHA-256 is computed
// here, after the build, and allowed by hash; no other inline script runs.
// `wasm-unsafe-eval` lets the page compile its WebAssembly.
//
// Usage: node .ci/csp.mjs [DIR]   (DIR defaults to $TRUNK_STAGING_DIR, then dist)

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? 'dist';
const file = join(dir, 'index.html');
let html = readFileSync(file, 'utf8');

// `trunk serve` fills its live-reload script's placeholders when it serves
// the page, after this hook: that script is allowed as `.ci/serve` fills it
// (Trunk.toml's [serve] address and port), too.
const SERVED = { '{{__TRUNK_ADDRESS__}}': '127.0.0.1:8080', '{{__TRUNK_WS_BASE__}}': '/' };
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const hashes = [];
let liveReload = false;
for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
  hashes.push(sha256(m[1]));
  if (m[1].includes('{{__TRUNK_ADDRESS__}}')) {
    liveReload = true;
    hashes.push(sha256(Object.entries(SERVED).reduce((text, [from, to]) => text.replaceAll(from, to), m[1])));
  }
}
const policy = [
  "default-src 'none'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  "style-src 'self'",
  "img-src 'self' data: blob:",
  // `trunk serve`'s live reload talks over a WebSocket to the address it
  // serves on; Chromium does not count ws: as 'self', so exactly that
  // socket is allowed, in the served build only (a release `trunk build`
  // has no live-reload script and keeps 'self' alone).
  `connect-src 'self'${liveReload ? ` ws://${SERVED['{{__TRUNK_ADDRESS__}}']}` : ''}`,
  // The schema validator and the exporter run in Web Workers from this
  // origin (assets/workers/worker-loader.js).
  "worker-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
const charset = /<meta charset="utf-8" \/>/;
if (!charset.test(html)) {
  console.error(`${file}: no <meta charset="utf-8" /> to put the Content-Security-Policy after`);
  process.exit(1);
}
html = html.replace(charset, (m) => `${m}\n    ${meta}`);
writeFileSync(file, html);
console.log(`${file}: Content-Security-Policy with ${hashes.length} inline script hash(es)`);
