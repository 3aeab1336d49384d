import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from '@playwright/test'
import { CHROMIUM_ARGS } from '../../scripts/find-browser.mjs'

/**
 * A Chromium with its own profile directory that a test can SIGKILL and start again on the same profile, the way
 * a crash or a power cut ends a tab: no unload, no transaction allowed to finish. Its pages are watched for
 * errors (the `failOnPageErrors` fixture only sees the test's own context).
 *
 *   const browser = await KillableBrowser.launch(baseURL)
 *   … drive browser.page …
 *   await browser.kill()          // kill -9 of the browser and every process it started
 *   await browser.relaunch()      // same profile: IndexedDB as the kill left it
 *   …
 *   await browser.dispose()       // closes it and removes the profile
 */
export class KillableBrowser {
  readonly problems: string[] = []
  private current: { context: BrowserContext; page: Page } | undefined

  private constructor(
    readonly userDataDir: string,
    private readonly baseURL: string,
  ) {}

  static async launch(baseURL: string): Promise<KillableBrowser> {
    const browser = new KillableBrowser(mkdtempSync(join(tmpdir(), 'tabcode-kill-')), baseURL)
    await browser.relaunch()
    return browser
  }

  get page(): Page {
    if (!this.current) throw new Error('The browser is not running')
    return this.current.page
  }

  /** Starts Chromium on the profile (after a kill, on what the kill left). */
  async relaunch(): Promise<Page> {
    // A killed Chromium leaves its singleton lock behind; its process is gone, so the lock means nothing.
    for (const name of ['SingletonLock', 'SingletonSocket', 'SingletonCookie']) rmSync(join(this.userDataDir, name), { force: true })
    const context = await chromium.launchPersistentContext(this.userDataDir, {
      executablePath: process.env.TABCODE_CHROMIUM || '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS],
      headless: true,
      baseURL: this.baseURL,
      serviceWorkers: 'allow',
    })
    context.on('weberror', (error) => this.problems.push(`pageerror: ${error.error().stack ?? error.error().message}`))
    context.on('console', (message) => {
      if (message.type() === 'error' && !/favicon/.test(message.text())) this.problems.push(`console.error: ${message.text()}`)
    })
    const page = context.pages()[0] ?? (await context.newPage())
    this.current = { context, page }
    return page
  }

  /** The browser's process: the one started with this profile directory (its children are found from it). */
  browserPids(): number[] {
    const flag = `--user-data-dir=${this.userDataDir}`
    const found: number[] = []
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
        if (args.includes(flag) && !args.some((arg) => arg.startsWith('--type='))) found.push(Number(entry))
      } catch {
        // The process ended while we looked.
      }
    }
    return found
  }

  /** SIGKILL of the browser and all its descendants at once, then waits until every one of them is gone. */
  async kill(): Promise<void> {
    const roots = this.browserPids()
    if (!roots.length) throw new Error(`No browser process runs with ${this.userDataDir}`)
    const all = descendants(roots)
    for (const pid of all) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Already gone: a child that died with its parent.
      }
    }
    const context = this.current?.context
    this.current = undefined
    await waitUntil(() => all.every((pid) => !alive(pid)), 'the killed browser processes to end')
    // Playwright notices the pipe closing; closing settles its side without touching the (dead) browser.
    await context?.close().catch(() => undefined)
  }

  async dispose(): Promise<void> {
    await this.current?.context.close().catch(() => undefined)
    this.current = undefined
    rmSync(this.userDataDir, { recursive: true, force: true })
  }
}

function alive(pid: number): boolean {
  try {
    // A zombie (state Z) has ended; only its parent has not reaped it yet.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^\d+ \(.*\) Z /.test(stat)
  } catch {
    return false
  }
}

/** The processes given and every process below them, from each process's parent in /proc. */
function descendants(roots: number[]): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name may hold spaces or parentheses: the fields after its closing parenthesis are fixed.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
    } catch {
      // Ended while we looked.
    }
  }
  const all = new Set<number>()
  const visit = (pid: number) => {
    if (all.has(pid)) return
    all.add(pid)
    for (const child of children.get(pid) ?? []) visit(child)
  }
  roots.forEach(visit)
  return [...all]
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
