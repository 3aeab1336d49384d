import type { Page } from '@playwright/test'
import { expect, test } from './testing/fixtures'
import { TerminalTab, type UserTerminal } from '../page-models/terminal'
import { Workbench } from '../page-models/workbench'

// Issue 27, the user's terminal: output is only ever shown. A file that asks the terminal questions types nothing
// into the prompt line, and a command printing 100 MB never holds the page, and stops at Ctrl+C.

test.describe.configure({ timeout: 120_000 })

async function openTerminal(page: Page): Promise<UserTerminal> {
  const app = new Workbench(page)
  await app.open()
  await app.newSession()
  const tab = new TerminalTab(page)
  await tab.show()
  return tab.open('Terminal 1')
}

/**
 * What a terminal's queries look like in a file: cursor position (DSR), device attributes (DA1, DA2), a setting
 * (DECRQSS), a mode (DECRQM), the colours (OSC 10, 11), the window size (XTWINOPS); then mouse tracking and focus
 * reporting turned on, the line-drawing character set chosen and a title left unterminated.
 */
const QUERIES = String.raw`\033[6n\033[c\033[>c\033P$qm\033\\\033[?2026$p\033]10;?\007\033]11;?\033\\\033[18t\033[?1000h\033[?1004h\033(0\033]2;`

test('a file full of terminal queries, cat-ed, leaves the prompt line holding only what the user types', async ({ page }) => {
  const terminal = await openTerminal(page)
  await terminal.run(`printf '${QUERIES}' > hostile.txt`)
  await terminal.run('cat hostile.txt')
  // The user clicks into the terminal and leaves it and comes back: with the modes the file set, a terminal would
  // report the click and the focus as input.
  await terminal.screen.click()
  await page.keyboard.press('Escape')
  await terminal.screen.click()
  await terminal.run('echo typed')
  expect(await terminal.outputOf('echo typed')).toBe('typed')
  // The prompt line reads as typed, in the normal character set.
  const lines = await terminal.lastLines(3)
  expect(lines).toEqual(['~ $ echo typed', 'typed', '~ $'])
})

/**
 * Waits until the terminal's last rows (as a screen reader gets them) are `last`, reading them in the page: the page
 * model's role queries are page tasks too, and would count among the tasks measured.
 */
async function waitForRows(page: Page, last: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const rows = [...document.querySelectorAll('[role="group"][aria-label="Terminal 1"] [role="listitem"]')]
        .map((row) => (row.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd())
        .filter(Boolean)
      return rows.slice(-expected.length).join('\n') === expected.join('\n')
    },
    last,
    { polling: 250, timeout: 90_000 },
  )
}

/** The page's main-thread tasks in a Chromium trace: their wall time and the CPU time they used, in ms. */
function mainThreadTasks(trace: Buffer): { wall: number; cpu: number }[] {
  type TraceEvent = { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }
  const parsed = JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] } | TraceEvent[]
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const main = new Set(events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`))
  return events
    .filter((event) => event.name === 'RunTask' && event.ph === 'X' && main.has(`${event.pid}:${event.tid}`))
    .map((event) => ({ wall: Math.round((event.dur ?? 0) / 1000), cpu: Math.round((event.tdur ?? 0) / 1000) }))
}

test('a command printing 100 MB never gives the page a task of more than 100 ms, and Ctrl+C stops one that never ends', async ({ page, browser }) => {
  const terminal = await openTerminal(page)
  await terminal.type(`node -e "const s = 'y\\n'.repeat(1 << 20); for (let i = 0; i < 50; i++) process.stdout.write(s); console.log('end of output')"`)
  await page.evaluate(() => {
    const long: number[] = []
    ;(window as Window & { longTasks?: number[] }).longTasks = long
    new PerformanceObserver((list) => long.push(...list.getEntries().map((entry) => Math.round(entry.duration)))).observe({ type: 'longtask' })
  })
  // The page's long tasks are timed on the wall clock, and on two cores the page shares them with the workers that
  // produce and pass on the output: a task can wait for a core longer than it works. The trace says how much of each
  // task was the page's own work.
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] })
  await page.keyboard.press('Enter')
  await waitForRows(page, ['end of output', '~ $'])
  const tasks = mainThreadTasks(await browser.stopTracing())
  const long = await page.evaluate(() => (window as Window & { longTasks?: number[] }).longTasks ?? [])
  const worked = tasks.filter((task) => task.cpu > 100)
  const described = `long tasks (wall ms): ${long.join(', ') || 'none'}; tasks over 50 ms (wall/CPU ms): ${tasks
    .filter((task) => task.wall > 50)
    .map((task) => `${task.wall}/${task.cpu}`)
    .join(', ')}`
  console.log(described)
  expect(tasks.length, 'the trace has the page\'s tasks').toBeGreaterThan(100)
  expect(worked, described).toEqual([])

  // One that never ends: Ctrl+C stops it, the prompt comes back, and the next command runs as typed.
  await terminal.type(`node -e "const s = 'y\\n'.repeat(1 << 16); for (;;) process.stdout.write(s)"`)
  await page.keyboard.press('Enter')
  await expect.poll(async () => (await terminal.lastLines(1))[0]).toBe('y')
  // From the key to the prompt on screen, timed in the page on the rows as drawn (the screen reader's copy of them
  // is refreshed at most once a second, which would time xterm rather than the stop). Set up before the key is
  // pressed: the page handles input before a script sent ahead of it.
  await page.evaluate(() => {
    const screen = document.querySelector('[role="group"][aria-label="Terminal 1"]')!
    const drawn = screen.querySelector('.xterm-rows')!
    ;(window as Window & { stopped?: Promise<number> }).stopped = new Promise<number>((resolve) => {
      let pressed = 0
      screen.addEventListener('keydown', () => (pressed ||= performance.now()), { capture: true })
      const observer = new MutationObserver(() => {
        const rows = [...drawn.children].map((row) => (row.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()).filter(Boolean)
        if (pressed && rows.at(-1) === '~ $') {
          observer.disconnect()
          resolve(performance.now() - pressed)
        }
      })
      observer.observe(drawn, { subtree: true, childList: true, characterData: true })
    })
  })
  await page.keyboard.press('Control+C')
  const took = await page.evaluate(() => (window as Window & { stopped?: Promise<number> }).stopped!)
  console.log(`Ctrl+C to the prompt: ${Math.round(took)} ms`)
  expect(took).toBeLessThan(1_000)
  await terminal.waitForPrompt()
  expect((await terminal.lastLines(2))[0]).toMatch(/\^C$/)
  await terminal.run('echo next')
  expect(await terminal.outputOf('echo next')).toBe('next')
})
