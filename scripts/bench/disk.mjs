// Issue 30: a folder on disk as a project. Two figures, in the built app with an origin-private (OPFS) folder, which
// has the interface of a folder the user picks (the bench cannot drive the picker):
// - listing a 5,000-file folder: a new page (a new worker, which holds no index yet) reconnects to the project and
//   lists its root; the time covers the scan of every file's size and time (what a tab does after a reload);
// - a 20-step `read` turn on a folder project against the same turn on a stored project holding the same file (one
//   40-line file in each, so both turns do the same work around the reads): the ratio of their medians (each after
//   a warm-up), the sessions closed (the page on the session list).
import { check, median, openFresh } from './page.mjs'
import { script, turn } from './steps.mjs'
import { size } from './size.mjs'

const FILES = size(5_000, 200)
const PER_FOLDER = 100
const READ_RUNS = Number(process.env.BENCH_READ_RUNS ?? size(3, 1))
const READ_STEPS = 20
const READ_FILE = 'bench-disk-read.txt'
const CONTENT = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the file the bench reads`).join('\n') + '\n'

/** In the page: the OPFS folder `name`, emptied and filled with `count` small files in folders of `perFolder`. */
async function fillFolder({ name, count, perFolder, readFile, content }) {
  const root = await navigator.storage.getDirectory()
  await root.removeEntry(name, { recursive: true }).catch(() => {})
  const folder = await root.getDirectoryHandle(name, { create: true })
  const write = async (directory, file, text) => {
    const writable = await (await directory.getFileHandle(file, { create: true })).createWritable()
    await writable.write(text)
    await writable.close()
  }
  for (let start = 0; start < count; start += perFolder) {
    const directory = await folder.getDirectoryHandle(`module-${String(start / perFolder).padStart(3, '0')}`, { create: true })
    const files = []
    for (let index = start; index < Math.min(count, start + perFolder); index++) files.push(write(directory, `file-${index}.ts`, `export const value${index} = ${index}\n`))
    await Promise.all(files)
  }
  await write(folder, readFile, content)
}

/** In the page: a project over the OPFS folder `name`, as "Open folder…" makes one, and a session in it. */
async function diskProject({ name }) {
  const api = window.__tabcode.api
  const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(name)
  const { project } = await api.createProject({ name: `Bench ${name}`, source: { type: 'disk', handle } })
  const session = await api.createSession({ projectID: project.id })
  return { projectID: project.id, sessionID: session.id }
}

/** In the page: a stored project holding the same file to read, and a session in it. */
async function storedProject({ path, content }) {
  const api = window.__tabcode.api
  const { project } = await api.createProject({ name: 'Bench stored', source: { type: 'empty' } })
  await api.saveFile({ projectID: project.id, path, content })
  const session = await api.createSession({ projectID: project.id })
  return { projectID: project.id, sessionID: session.id }
}

/** In the page, a new document: reconnects the folder project (OPFS grants at once) and times the first listing. */
async function timedListing({ projectID }) {
  const api = window.__tabcode.api
  await api.connectFolder({ projectID })
  const t0 = performance.now()
  const entries = await api.listFiles({ projectID, path: '/workspace' })
  const cold = performance.now() - t0
  const t1 = performance.now()
  await api.listFiles({ projectID, path: '/workspace' })
  return { cold, warm: performance.now() - t1, entries: entries.length }
}

async function readTurns(page, mockURL, providerID, target, label) {
  const times = []
  for (let run = 0; run <= READ_RUNS; run++) {
    const calls = Array.from({ length: READ_STEPS }, (_, i) => ({
      type: 'stream',
      chunks: [{ toolCall: { id: `disk_${label}_${run}_${i}`, name: 'read', arguments: JSON.stringify({ filePath: READ_FILE, offset: i + 1, limit: 5 }) } }],
    }))
    const reply = `Read it all on the ${label} project, run ${run}.`
    await script(mockURL, [...calls, { type: 'stream', chunks: [{ text: reply }] }])
    const out = await turn(page, { sessionID: target.sessionID, model: { providerID, modelID: 'mock-model' }, text: `Bench ${label} read turn ${run}` })
    check(out.errors.length === 0, `the ${label} read turn failed: ${JSON.stringify(out.errors)}`)
    check(out.reply === reply, `the ${label} read turn stored ${JSON.stringify(out.reply)}, expected ${JSON.stringify(reply)}`)
    check(out.completedTools === READ_STEPS, `the ${label} read turn completed ${out.completedTools} of ${READ_STEPS} read calls`)
    if (run > 0) times.push(out.ms)
  }
  return times
}

export async function diskFolder(page, { baseURL, mockURL, providerID }, log) {
  const figures = {}
  const name = `bench-disk-${Date.now()}`
  await page.evaluate(fillFolder, { name, count: FILES, perFolder: PER_FOLDER, readFile: READ_FILE, content: CONTENT })
  await page.evaluate(fillFolder, { name: `${name}-read`, count: 0, perFolder: PER_FOLDER, readFile: READ_FILE, content: CONTENT })
  const listed = await page.evaluate(diskProject, { name })
  const disk = await page.evaluate(diskProject, { name: `${name}-read` })
  const stored = await page.evaluate(storedProject, { path: READ_FILE, content: CONTENT })

  await openFresh(page, baseURL)
  const listing = await page.evaluate(timedListing, { projectID: listed.projectID })
  await page.evaluate(({ projectID }) => window.__tabcode.api.connectFolder({ projectID }), disk)
  check(listing.entries === FILES / PER_FOLDER + 1, `the folder's root listed ${listing.entries} entries, expected ${FILES / PER_FOLDER + 1}`)
  log(`  listing a ${FILES.toLocaleString('en')}-file folder: ${listing.cold.toFixed(0)} ms after a reload (scan included), ${listing.warm.toFixed(0)} ms again`)
  figures[`diskListingMs_${FILES / 1_000}kFiles`] = listing.cold
  figures[`diskListingWarmMs_${FILES / 1_000}kFiles`] = listing.warm

  const storedTimes = await readTurns(page, mockURL, providerID, stored, 'stored')
  const diskTimes = await readTurns(page, mockURL, providerID, disk, 'disk')
  figures.diskReadTurnMs_20Steps = median(diskTimes)
  figures.storedReadTurnMs_20Steps = median(storedTimes)
  figures.diskReadTurnRatio = figures.diskReadTurnMs_20Steps / figures.storedReadTurnMs_20Steps
  log(`  20-step read turn: disk ${figures.diskReadTurnMs_20Steps.toFixed(0)} ms (${diskTimes.map((t) => t.toFixed(0)).join(', ')}), stored ${figures.storedReadTurnMs_20Steps.toFixed(0)} ms (${storedTimes.map((t) => t.toFixed(0)).join(', ')})`)
  for (const folder of [name, `${name}-read`]) await page.evaluate(async (folder) => (await navigator.storage.getDirectory()).removeEntry(folder, { recursive: true }), folder)
  return figures
}
