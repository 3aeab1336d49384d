import { test as base, expect } from '@playwright/test'
import { NOTE_DESCRIPTION, startMcpServer, type McpTestServer } from '../../test-servers/mcp-server.mjs'
import { lanePort } from './lane'

/**
 * Console errors that never fail a test. Keep this list short and specific: every entry hides real failures too.
 * Matched against `<message text> <source url>`.
 */
export const ALLOWED_CONSOLE_ERRORS: readonly RegExp[] = [
  // Chromium's own /favicon.ico probe; index.html links /icon.svg, so this should be rare.
  /\/favicon\.ico\b/,
  // Resource loads failing after a test deliberately calls context.setOffline(true).
  /net::ERR_INTERNET_DISCONNECTED/,
]

type Options = {
  /** Extra allowed console-error patterns for one file or describe block: `test.use({ allowConsoleErrors: [/…/] })`. */
  allowConsoleErrors: RegExp[]
}

type Fixtures = {
  /** Auto fixture: fails the test if any page in its context throws (pageerror) or logs console.error. */
  failOnPageErrors: void
  /** The test MCP server (test-servers/mcp-server.mjs), with what an earlier test changed on it set back. */
  mcp: McpTestServer
}

type WorkerFixtures = {
  /** Started once for the tests that ask for `mcp`, on TABCODE_MCP_PORT if set, else on any free port. */
  mcpServer: McpTestServer
}

export const test = base.extend<Options & Fixtures, WorkerFixtures>({
  allowConsoleErrors: [[], { option: true }],

  mcpServer: [
    async ({}, use) => {
      const port = process.env.TABCODE_MCP_PORT ? lanePort(Number(process.env.TABCODE_MCP_PORT)) : 0
      const server = await startMcpServer({ port })
      await use(server)
      await server.close()
    },
    { scope: 'worker' },
  ],

  mcp: async ({ mcpServer }, use) => {
    mcpServer.calls.length = 0
    mcpServer.hostile.closed.length = 0
    mcpServer.hostile.cancelled.length = 0
    mcpServer.hostile.description = NOTE_DESCRIPTION
    Object.assign(mcpServer.oauth, { deny: false, hold: false, authorizationEndpoint: undefined, tokenEndpoint: undefined })
    await use(mcpServer)
  },

  failOnPageErrors: [
    async ({ context, allowConsoleErrors }, use) => {
      const problems: string[] = []
      const allowed = [...ALLOWED_CONSOLE_ERRORS, ...allowConsoleErrors]

      // Context-level events cover every page of the test (popups and reloads included).
      context.on('weberror', (err) => {
        const e = err.error()
        problems.push(`pageerror on ${err.page()?.url() ?? '?'}: ${e.stack ?? e.message}`)
      })
      context.on('console', (msg) => {
        if (msg.type() !== 'error') return
        const text = `${msg.text()} ${msg.location().url}`
        if (allowed.some((re) => re.test(text))) return
        const { url, lineNumber, columnNumber } = msg.location()
        problems.push(`console.error at ${url}:${lineNumber}:${columnNumber}: ${msg.text()}`)
      })

      await use()

      expect(problems, 'the page threw or logged console errors').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
