import type { Blob, Snapshot } from '../core/schema'
import { relativePath } from '../workspace/path'
import type { FileStat, Workspace } from '../workspace/workspace'
import { hashContent } from '../workspace/local/hash'
import { putBlobs, storedHashes } from '../store/blobs'
import { saveSnapshot } from '../store/snapshots'
import { isBuiltinExcluded, isIgnored, parseGitignore, type IgnoreRule } from '../core/gitignore'
import { largeFileMarker, MAX_TRACKED_FILE_BYTES, snapshotID, type Manifest, type SnapshotStore } from './manifest'

export interface TrackInput {
  store: SnapshotStore
  projectID: string
  workspace: Workspace
  /** Remembers hashes between calls; defaults to one cache per workspace object. */
  cache?: TrackCache
}

/**
 * Path → (size, modified, hash) of files already hashed, so re-tracking an unchanged workspace reads no file.
 * `checked` is when the file was read: a file modified within `RACY_WINDOW_MS` before that could change again
 * without its size or time changing (coarse timestamps), so it is hashed again next time ("racy git").
 */
export interface TrackCache {
  entries: Map<string, CacheEntry>
  now: () => number
}

interface CacheEntry {
  size: number
  modified: number
  hash: string
  checked: number
}

export const RACY_WINDOW_MS = 2000

export function createTrackCache(options: { now?: () => number } = {}): TrackCache {
  return { entries: new Map(), now: options.now ?? Date.now }
}

const caches = new WeakMap<Workspace, TrackCache>()

function cacheFor(workspace: Workspace): TrackCache {
  let cache = caches.get(workspace)
  if (!cache) caches.set(workspace, (cache = createTrackCache()))
  return cache
}

const LIST_CONCURRENCY = 8
const READ_BATCH_FILES = 32
const READ_BATCH_BYTES = 8 * 1024 * 1024
const LOOKUP_BATCH_FILES = 1000

/**
 * Records the project's files as a snapshot: each file's bytes go to `blobs` once per hash, the manifest to
 * `snapshots` once per content. Returns the row (an existing one keeps its original creation time).
 */
export async function takeSnapshot(input: TrackInput): Promise<Snapshot> {
  const { store, projectID, workspace } = input
  const cache = input.cache ?? cacheFor(workspace)
  const files = await listTrackedFiles(workspace)
  const known = hasManifest(workspace) ? await workspace.manifest() : undefined
  const manifest: Manifest = {}
  const entries = new Map<string, CacheEntry>()

  // Files the cache or the backend vouch for cost one key lookup; reads are batched by count and bytes.
  const vouched = (file: FileStat) => known?.[file.path] !== undefined || isFresh(cache.entries.get(file.path), file)
  let batch: FileStat[] = []
  let reads = 0
  let bytes = 0
  const flush = async () => {
    await storeBatch({ store, workspace, cache, known }, batch, manifest, entries)
    batch = []
    reads = 0
    bytes = 0
  }
  for (const file of files) {
    const relative = relativePath(workspace.root, file.path)
    if (file.size > MAX_TRACKED_FILE_BYTES) {
      manifest[relative] = largeFileMarker(file.size, file.modified)
      continue
    }
    batch.push(file)
    if (!vouched(file)) {
      reads++
      bytes += file.size
    }
    if (reads >= READ_BATCH_FILES || bytes >= READ_BATCH_BYTES || batch.length >= LOOKUP_BATCH_FILES) await flush()
  }
  await flush()
  cache.entries = entries

  const id = await snapshotID(projectID, manifest)
  const row: Snapshot = { id, projectID, files: manifest, time: { created: store.now() } }
  return saveSnapshot(store, row)
}

/** `takeSnapshot`, returning the id (what step-start and step-finish parts record). */
export async function trackSnapshot(input: TrackInput): Promise<string> {
  return (await takeSnapshot(input)).id
}

/** Hashes a batch of files (reading only those the cache cannot vouch for) and stores the blobs not stored yet. */
async function storeBatch(
  { store, workspace, cache, known }: { store: SnapshotStore; workspace: Workspace; cache: TrackCache; known: Manifest | undefined },
  batch: FileStat[],
  manifest: Manifest,
  entries: Map<string, CacheEntry>,
): Promise<void> {
  if (batch.length === 0) return
  const read = async (file: FileStat) => {
    const checked = cache.now()
    const data = await workspace.readFile(file.path)
    const hash = await hashContent(data)
    return { file, data, entry: { size: file.size, modified: file.modified, hash, checked } }
  }
  const results = await Promise.all(
    batch.map(async (file) => {
      const hash = known?.[file.path]
      if (hash) return { file, data: undefined, entry: { size: file.size, modified: file.modified, hash, checked: 0 } }
      const cached = cache.entries.get(file.path)
      if (cached && isFresh(cached, file)) return { file, data: undefined, entry: cached }
      return read(file)
    }),
  )

  const stored = await storedHashes(store, unique(results.map((result) => result.entry.hash)))
  const blobs = new Map<string, Blob>()
  for (let result of results) {
    // A hash the cache vouched for whose blob is gone (cleared storage): read the file again to store it.
    if (!stored.has(result.entry.hash) && !result.data) result = await read(result.file)
    const { file, data, entry } = result
    const relative = relativePath(workspace.root, file.path)
    // The file may have grown past the limit between list and read.
    if (data && data.length > MAX_TRACKED_FILE_BYTES) {
      manifest[relative] = largeFileMarker(data.length, file.modified)
      continue
    }
    manifest[relative] = entry.hash
    if (!known?.[file.path]) entries.set(file.path, entry)
    if (data && !stored.has(entry.hash)) blobs.set(entry.hash, { hash: entry.hash, data: ownBuffer(data), size: data.length })
  }
  // Only blobs found missing above are left; putBlobs stores them without looking them up again.
  await putBlobs(store, [...blobs.values()], { known: 'checked' })
}

/**
 * The local backend keeps every file's hash (absolute path → hash), so it needs neither reads nor the cache. Other
 * backends (WebContainer) only have sizes and times.
 */
function hasManifest(workspace: Workspace): workspace is Workspace & { manifest(): Promise<Manifest> } {
  return typeof (workspace as { manifest?: unknown }).manifest === 'function'
}

function isFresh(entry: CacheEntry | undefined, file: FileStat): entry is CacheEntry {
  return entry !== undefined && entry.size === file.size && entry.modified === file.modified && entry.checked - entry.modified > RACY_WINDOW_MS
}

/** Every file under the root that a snapshot records, in path order. */
export async function listTrackedFiles(workspace: Workspace): Promise<FileStat[]> {
  const rules = await readIgnoreRules(workspace)
  const files: FileStat[] = []
  let directories = [workspace.root]
  while (directories.length > 0) {
    const next: string[] = []
    for (let start = 0; start < directories.length; start += LIST_CONCURRENCY) {
      const listings = await Promise.all(directories.slice(start, start + LIST_CONCURRENCY).map((path) => workspace.list(path)))
      for (const [index, listing] of listings.entries()) {
        const parent = directories[start + index]!
        for (const stat of listing) {
          const path = parent === '/' ? `/${stat.name}` : `${parent}/${stat.name}`
          const relative = relativePath(workspace.root, path)
          const isDirectory = stat.type === 'directory'
          if (isBuiltinExcluded(relative, isDirectory) || isIgnored(rules, relative, isDirectory)) continue
          if (isDirectory) next.push(path)
          else files.push({ ...stat, path })
        }
      }
    }
    directories = next
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

async function readIgnoreRules(workspace: Workspace): Promise<IgnoreRule[]> {
  const path = `${workspace.root === '/' ? '' : workspace.root}/.gitignore`
  const stat = await workspace.stat(path)
  if (stat?.type !== 'file') return []
  return parseGitignore(await workspace.readText(path))
}

/** IndexedDB clones a view's whole buffer; a view into a larger buffer is copied so only its bytes are stored. */
function ownBuffer(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
    ? (data as Uint8Array<ArrayBuffer>)
    : data.slice()
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
