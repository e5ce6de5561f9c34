import { defineConfig } from 'vite';

// Vite 8 transforms TSX itself (oxc); no React plugin: the automatic runtime needs no React import.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Served under a strict CSP (src/http/console.ts): no inline scripts, so no inlined module preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
  },
});
