// The offline set of pure-Python wheels (pytest and what it needs) that the build serves from the app's own origin
// under /python-wheels/ (issue 29). The repository holds only their names, versions and sha256
// (src/workspace/python/offline-wheels.json): this fetches them with pip into .cache/python-wheels/ (kept between
// builds), checks every hash, and says why when it cannot, so a build without them still succeeds and `pip install`
// in the app says that this build has no wheels and why.
//
// `vite build` runs it through the plugin in vite.config.ts; `node scripts/python-wheels.mjs` runs it alone.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const MANIFEST_PATH = join(ROOT, 'src/workspace/python/offline-wheels.json')
const CACHE = join(ROOT, '.cache/python-wheels')
/** pip through a slow mirror took ~40 s for the five wheels here; past this the build goes on without them. */
const PIP_TIMEOUT_MS = 5 * 60_000

/**
 * `{ available: true, wheels: [{ file, path }] }` with every pinned wheel in the cache and verified, or
 * `{ available: false, reason }`.
 */
export async function prepareWheels({ log = (line) => console.error(line) } = {}) {
  const manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8'))
  mkdirSync(CACHE, { recursive: true })
  const missing = manifest.wheels.filter((wheel) => !matches(join(CACHE, wheel.file), wheel.sha256))
  if (missing.length > 0) {
    log(`python wheels: downloading ${missing.map((wheel) => `${wheel.name}==${wheel.version}`).join(' ')} with pip…`)
    const scratch = mkdtempSync(join(tmpdir(), 'tabcode-wheels-'))
    try {
      const failure = await pipDownload(missing, scratch)
      if (failure) return { available: false, reason: failure }
      for (const wheel of missing) {
        const path = join(scratch, wheel.file)
        if (!existsSync(path)) return { available: false, reason: `pip did not produce ${wheel.file}` }
        const actual = sha256(path)
        if (actual !== wheel.sha256) return { available: false, reason: `${wheel.file} has sha256 ${actual}, but the manifest pins ${wheel.sha256}` }
        renameSync(path, join(CACHE, wheel.file))
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
  return { available: true, wheels: manifest.wheels.map((wheel) => ({ file: wheel.file, path: join(CACHE, wheel.file) })) }
}

function matches(path, expected) {
  return existsSync(path) && sha256(path) === expected
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** Why pip could not download them, or undefined when it did. */
function pipDownload(wheels, directory) {
  const args = ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '--no-input', '-d', directory]
  args.push(...wheels.map((wheel) => `${wheel.name}==${wheel.version}`))
  return new Promise((resolve) => {
    let stderr = ''
    let child
    try {
      child = spawn(process.env.PYTHON ?? 'python3', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    } catch (error) {
      resolve(`python3 could not be started (${error.message}): the build needs Python 3 with pip to fetch the wheels`)
      return
    }
    const timer = setTimeout(() => child.kill(), PIP_TIMEOUT_MS)
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', (error) =>
      resolve(error.code === 'ENOENT' ? 'python3 was not found: the build needs Python 3 with pip to fetch the wheels' : `python3 failed to start: ${error.message}`),
    )
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) return resolve(undefined)
      const last = stderr.trim().split('\n').filter(Boolean).at(-1) ?? ''
      if (/No module named pip/.test(stderr)) return resolve('python3 has no pip module: the build needs pip to fetch the wheels')
      resolve(signal ? `pip download took longer than ${PIP_TIMEOUT_MS / 1000} s` : `pip download failed (exit ${code}): ${last}`)
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await prepareWheels()
  if (result.available) console.log(`python wheels: ${result.wheels.length} ready in ${CACHE}`)
  else {
    console.error(`python wheels: not available: ${result.reason}`)
    process.exitCode = 1
  }
}
