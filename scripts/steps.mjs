// Shared step runner for scripts/test.mjs and scripts/e2e.mjs: runs commands one after another with clear headings,
// stops at the first failure and exits with that step's exit code.
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { requireChromium } from './find-browser.mjs'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const WIN = process.platform === 'win32'
const bin = (name) => join(ROOT, 'node_modules', '.bin', WIN ? `${name}.cmd` : name)

const COLOR = process.env.FORCE_COLOR ? process.env.FORCE_COLOR !== '0' : !!process.stdout.isTTY && !process.env.NO_COLOR
const paint = (code) => (text) => (COLOR ? `\x1b[${code}m${text}\x1b[0m` : text)
const bold = paint('1')
const green = paint('32')
const red = paint('31')

const started = performance.now()
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`
let current = null
let interrupted = false
let forwardedAt = 0

// Any stop signal becomes ONE SIGINT for the running step. Playwright handles SIGINT by tearing its web server down,
// but dies on SIGTERM without doing so, which leaves `vite preview` orphaned on port 4173.
// On Ctrl-C the step also gets the terminal's SIGINT (Playwright ignores a repeat within 1 s), and `npm test` forwards
// its own copy to us, so repeats within 2 s are ignored here. A later signal is passed on as SIGTERM.
function onSignal(sig) {
  interrupted = true
  if (!current) finish(128 + constants.signals[sig])
  const now = Date.now()
  if (forwardedAt && now - forwardedAt < 2000) return
  current.kill(forwardedAt ? 'SIGTERM' : 'SIGINT')
  forwardedAt = now
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => onSignal(sig))

/** Prints a heading like `━━ [2/5] unit tests ━━`. */
export function heading(step, total, title, detail = '') {
  const line = `━━ [${step}/${total}] ${title}${detail ? `  (${detail})` : ''} `
  console.log(`\n${bold(line + '━'.repeat(Math.max(3, 78 - line.length)))}`)
}

/** Runs one of our own scripts with this Node, as `run` does a tool. */
export function runNode(title, script, args = []) {
  return run(title, 'node', [join(ROOT, script), ...args], {}, process.execPath)
}

/** Runs node_modules/.bin/<tool> with stdio inherited; on failure prints a summary and exits with its code. */
export async function run(title, tool, args, env = {}, command = bin(tool)) {
  const t = performance.now()
  const code = await new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
      shell: WIN,
    })
    current = child
    child.on('error', (err) => {
      console.error(`could not start ${tool}: ${err.message}`)
      resolve(127)
    })
    child.on('exit', (c, signal) => resolve(c ?? 128 + (constants.signals[signal] ?? 0)))
  })
  current = null
  if (interrupted) finish(code || 130)
  if (code !== 0) {
    console.error(`\n${red(`✗ ${title} failed (exit ${code})`)} after ${secs(performance.now() - t)}`)
    finish(code)
  }
  console.log(`${green(`✓ ${title}`)}  ${secs(performance.now() - t)}`)
}

/** Steps (c)(d)(e): check for a browser, build, run Playwright with extra CLI args passed through. */
export async function e2eSteps(first, total, playwrightArgs) {
  heading(first, total, 'browser')
  const chromium = requireChromium()
  console.log(`${green('✓ browser')}  ${chromium}`)

  heading(first + 1, total, 'build', 'vite build')
  await run('build', 'vite', ['build'])

  heading(first + 2, total, 'end-to-end tests', ['playwright test', ...playwrightArgs].join(' '))
  await run('end-to-end tests', 'playwright', ['test', ...playwrightArgs], { TABCODE_CHROMIUM: chromium })
}

/** Prints the total wall time and exits. */
export function finish(code = 0) {
  const status = code === 0 ? green('all steps passed') : red(`failed (exit ${code})`)
  console.log(`\n${status}; total wall time ${secs(performance.now() - started)}`)
  process.exit(code)
}
