import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Read by `npm run bench` to measure the participant pages' initial JavaScript.
    manifest: true,
    chunkSizeWarningLimit: 600,
    // Every browser the study supports preloads modules itself (Safari 17, Chrome 66, Firefox 115); the polyfill
    // would cost every participant page 0.4 KB of its 100 KB budget (DESIGN.md section 6). Without it a page loads.
    modulePreload: { polyfill: false },
  },
});
