import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The console is plain static files under /console/ served by the gateway: one hashed script and one
 * stylesheet (no inline code, as the gateway's Content-Security-Policy requires), no source maps.
 */
export default defineConfig({
  root,
  base: '/console/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/v2': { target: 'http://localhost:3002', ws: true }, '/admin': 'http://localhost:3002' },
  },
});
