import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into dist/ and served by the admin service at /admin/console/ (no CDN, nothing fetched at run time). The
// manifest names the built file of the script the queue board's page loads (src/queue-board), which has no page here.
export default defineConfig({
  base: '/admin/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    manifest: true,
    // The content-security policy allows no inline script: the module preload helper goes into a file too.
    modulePreload: { polyfill: false },
    sourcemap: false,
    rollupOptions: { input: ['index.html', 'src/queue-board/board-accessibility.ts'] },
  },
});
