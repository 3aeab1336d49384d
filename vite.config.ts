import { defineConfig } from 'vite'
import solid from 'vite-plugin-solid'
import { VitePWA } from 'vite-plugin-pwa'
import packageJson from './package.json' with { type: 'json' }

// Cross-origin isolation: WebContainer needs SharedArrayBuffer. The service worker replays these headers
// from its precache, so the page stays isolated when served offline. COEP `credentialless` (Chromium, Firefox)
// isolates like `require-corp` but still lets a `no-cors` probe see that a host answered, which is how "Test
// connection" tells a CORS refusal from a host that is down; Safari ignores it and simply runs unisolated.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
}

export default defineConfig({
  plugins: [
    solid(),
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      registerType: 'prompt',
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'tabcode',
        short_name: 'tabcode',
        description: 'An open coding agent that lives in one browser tab.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1b1d23',
        background_color: '#1b1d23',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,wasm}'],
        navigateFallback: '/index.html',
        clientsClaim: true,
        skipWaiting: false,
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
  define: { __APP_VERSION__: JSON.stringify(packageJson.version) },
  worker: { format: 'es' },
  optimizeDeps: { include: ['comlink', 'dexie', 'zod', 'workbox-window', 'marked'] },
  build: { target: 'es2022' },
  server: { headers: isolation },
  preview: { headers: isolation },
})
