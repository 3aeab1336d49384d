import { defineConfig } from 'vitest/config'
import solid from 'vite-plugin-solid'

// Unit tests run in Node (fake-indexeddb for Dexie); the browser is exercised by e2e/ through Playwright.
export default defineConfig({
  plugins: [solid()],
  test: {
    // scripts/*.test.mjs test the repository's own checks (import cycles); test-servers/ tests the servers tests start.
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.mjs', 'test-servers/**/*.test.ts'],
    environment: 'node',
    // Dexie looks for indexedDB when it is first imported, so the fake must be installed before any test file loads.
    setupFiles: ['fake-indexeddb/auto'],
  },
})
