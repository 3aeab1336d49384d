// Locates a Chromium for Playwright. Used by playwright.config.ts and scripts/test.mjs / scripts/e2e.mjs.
//
// Order: Playwright's own downloaded Chromium (only if that file really exists), then /usr/bin/chromium,
// then `chromium` / `chromium-browser` on PATH. Playwright 1.65 expects Chromium 159; Debian's 156 works
// `npx playwright install` cannot download in this environment.
import { accessSync, constants, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, join } from 'node:path'

const require = createRequire(import.meta.url)

/** Flags every launch uses (headless is set by Playwright's `headless: true`, not here). */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
])

function isExecutable(path) {
  try {
    if (!statSync(path).isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function playwrightChromium() {
  // playwright-core carries the browser registry; playwright and @playwright/test re-export it.
  for (const pkg of ['playwright-core', 'playwright', '@playwright/test']) {
    try {
      const path = require(pkg).chromium?.executablePath?.()
      if (typeof path === 'string' && path && isExecutable(path)) return path
      return undefined // the package loaded: its answer is the answer, whichever package we ask
    } catch {
      // package not installed (or executablePath() threw on an unsupported host): try the next one
    }
  }
  return undefined
}

function onPath(names) {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean)
  for (const name of names) {
    for (const dir of dirs) {
      const path = join(dir, name)
      if (isExecutable(path)) return path
    }
  }
  return undefined
}

/** Absolute path of a usable Chromium executable, or undefined if none is found. */
export function findChromium() {
  return (
    playwrightChromium() ??
    (isExecutable('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined) ??
    onPath(['chromium', 'chromium-browser'])
  )
}

/**
 * Returns the Chromium path, honouring TABCODE_CHROMIUM if it points at an executable.
 * If there is none, prints what to install and exits the process with code 1.
 */
export function requireChromium() {
  const fromEnv = process.env.TABCODE_CHROMIUM
  if (fromEnv && isExecutable(fromEnv)) return fromEnv
  if (fromEnv) console.error(`TABCODE_CHROMIUM=${fromEnv} is not an executable file; looking elsewhere.`)
  const found = findChromium()
  if (found) return found
  console.error(
    [
      '',
      'No Chromium found for the end-to-end tests.',
      'Looked for: Playwright\'s own Chromium, /usr/bin/chromium, and chromium / chromium-browser on PATH.',
      '',
      'Install one:',
      '  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium',
      '  elsewhere:      npx playwright install chromium',
      '',
      'Or point TABCODE_CHROMIUM at an existing Chromium/Chrome executable.',
      '',
    ].join('\n'),
  )
  process.exit(1)
}
