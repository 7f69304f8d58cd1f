import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';

const server = process.env.GATEHOUSE_DEV_SERVER ?? 'http://127.0.0.1:8080';

/**
 * HTML entries: the console (index.html, routed under /ui/), the login page, the web terminal
 * (luna.html, /luna/), the session player (replay, monitor and share, /luna/replay|monitor|share/<id>) and
 * the web file manager (filemanager.html, /koko/elfinder/sftp/). Text assets are
 * also written brotli- and gzip-compressed for the server to send as they are.
 */
export default defineConfig({
  base: '/ui/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rollupOptions: {
      input: {
        index: 'index.html',
        login: 'login.html',
        luna: 'luna.html',
        player: 'player.html',
        filemanager: 'filemanager.html',
      },
      // antd's rc-component packages declare no `sideEffects`, so a bundler keeps every module their
      // index re-exports: one FormProvider import (antd's form context, used by its dropdowns and
      // modals) pulled all of rc-form and async-validator into the console's first load. They have
      // no import-time effects; see docs/console.md "Console loading".
      treeshake: { moduleSideEffects: [{ test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false }] },
    },
  },
  server: {
    // The web terminal's socket is /koko/ws/terminal/ (in development the page is /ui/luna.html).
    proxy: {
      '/api': server,
      '/core': server,
      '/ws': { target: server, ws: true },
      '/koko': { target: server, ws: true },
    },
  },
});
