import { defineConfig, type PlaywrightTestConfig } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from './scripts/find-browser.mjs'

// End-to-end tests run against the production build served by `vite preview`.
// The build is NOT done here: `npm test` / `npm run test:e2e` (scripts/test.mjs, scripts/e2e.mjs) run `vite build` first.
// Running `npx playwright test` directly serves whatever is in dist/.
// Ports can be moved (TABCODE_E2E_PORT, TABCODE_MOCK_PORT) so two checkouts can run their suites side by side.
const PORT = Number(process.env.TABCODE_E2E_PORT ?? 4173)
const HOST = '127.0.0.1'
// The mock model server; MOCK_MODEL_SERVER_URL in e2e/testing/model-script.ts must match.
const MOCK_MODEL_PORT = Number(process.env.TABCODE_MOCK_PORT ?? 8787)
// The git HTTP server (git http-backend behind CORS); GIT_SERVER_URL in e2e/testing/git-server.ts must match.
const GIT_SERVER_PORT = Number(process.env.TABCODE_GIT_PORT ?? 8821)
// The CouchDB-protocol server for sync (issue 31); SYNC_SERVER_URL in e2e/testing/sync-server.ts must match.
const SYNC_SERVER_PORT = Number(process.env.TABCODE_SYNC_E2E_PORT ?? 8822)

// Parallel lanes (Playwright workers): each has its own model, git and sync server (e2e/testing/lane.ts says why),
// the preview server is shared. TABCODE_E2E_WORKERS sets how many.
const WORKERS = Number(process.env.TABCODE_E2E_WORKERS ?? 1)
// Must match LANE_PORT_STRIDE in e2e/testing/lane.ts.
const LANE_PORT_STRIDE = 100

export default defineConfig({
  testDir: 'e2e',
  // A test that takes two or three turns and a panel takes 10–20 s on a quiet 2-core machine and over 30 s on a busy
  // one (a clean-clone run beside other work failed five such tests on time alone): the bound is for a hang, not speed.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: `http://${HOST}:${PORT}`,
    browserName: 'chromium',
    headless: true,
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.TABCODE_CHROMIUM || findChromium(),
      args: [...CHROMIUM_ARGS],
    },
  },
  webServer: [
    {
      // The vite binary directly (no npx/npm wrapper), so Playwright's teardown stops the server process itself
      // and nothing is left holding the port (toolchain.md P10).
      command: `node_modules/.bin/vite preview --host ${HOST} --port ${PORT} --strictPort`,
      url: `http://${HOST}:${PORT}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    ...Array.from({ length: WORKERS }, (_, lane) => laneServers(lane)).flat(),
  ],
})

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, readonly unknown[]>[number]

/** One lane's servers: its model, git and sync server, each LANE_PORT_STRIDE × lane above the first lane's port. */
function laneServers(lane: number): WebServer[] {
  const [mock, git, sync] = [MOCK_MODEL_PORT, GIT_SERVER_PORT, SYNC_SERVER_PORT].map((port) => port + lane * LANE_PORT_STRIDE)
  return [
    {
      // The scriptable model in four wire formats (test-servers/mock-model-server.mjs; tests drive it with
      // e2e/testing/model-script.ts). Plain `node`, so teardown stops the process that holds the port.
      command: 'node test-servers/mock-model-server.mjs',
      url: `http://${HOST}:${mock}/health`,
      env: { PORT: String(mock) },
      reuseExistingServer: false,
      timeout: 10_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
    },
    {
      // Debian's `git http-backend` behind a small server that adds CORS and a push token (test-servers/git-http-server.mjs).
      command: 'node test-servers/git-http-server.mjs',
      url: `http://${HOST}:${git}/health`,
      env: { PORT: String(git) },
      reuseExistingServer: false,
      timeout: 10_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
    },
    {
      // PouchDB Server in memory, CORS open to the app's origin (test-servers/sync-server.mjs); every run starts empty.
      command: 'node test-servers/sync-server.mjs',
      url: `http://${HOST}:${sync}/`,
      env: { PORT: String(sync), APP_ORIGIN: `http://${HOST}:${PORT}` },
      reuseExistingServer: false,
      timeout: 20_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
    },
  ]
}
