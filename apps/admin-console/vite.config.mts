import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into dist/ and served by the admin service at /admin/console/ (no CDN, nothing fetched at run time).
export default defineConfig({
  base: '/admin/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The content-security policy allows no inline script: the module preload helper goes into a file too.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
