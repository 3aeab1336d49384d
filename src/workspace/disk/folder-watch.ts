import { log } from '../../core/log'
import type { DirectoryHandle } from './directory-handle'

/** What the folder's observer reported since the last look: some paths (relative to the folder), or "look at all". */
export type FolderNews = { type: 'none' } | { type: 'paths'; paths: string[] } | { type: 'everything' }

/** What the disk workspace asks of the browser's file-system observer. */
export interface FolderWatch {
  /** Whether the observer started (it then reports every change from now on). */
  started: Promise<boolean>
  /** What changed since the last call (which consumes it); `everything` until the observer is known to work. */
  take(): FolderNews
  /** A whole scan began after the observer started: only the paths reported since need another look. */
  scanned(): void
  /** True while the observer reports every change and has reported none (yet unread) at `relative`. */
  vouchesFor(relative: string): boolean
  stop(): void
}

interface ObserverRecord {
  type: 'appeared' | 'disappeared' | 'modified' | 'moved' | 'unknown' | 'errored'
  relativePathComponents?: string[]
  relativePathMovedFrom?: string[]
}

interface Observer {
  observe(handle: unknown, options: { recursive: boolean }): Promise<void>
  disconnect(): void
}

type ObserverConstructor = new (callback: (records: ObserverRecord[]) => void) => Observer

/** Changes are gathered for this long before the tree is told, so a `git checkout` is one update, not hundreds. */
const SETTLE_MS = 150

/**
 * Watches a folder with `FileSystemObserver` where the browser has it (Chromium); undefined elsewhere, and then the
 * workspace scans the whole folder before every step and every reading tool instead. Once `observe` has started,
 * the observer's records say which paths to look at again; a record of missed changes (`unknown`) or a stopped
 * observer (`errored`) sends the workspace back to whole scans. `onChange` runs (settled) after records arrive, so
 * file trees follow an outside change without waiting for the agent.
 */
export function watchFolder(handle: DirectoryHandle, onChange: () => void): FolderWatch | undefined {
  const Constructor = (globalThis as { FileSystemObserver?: ObserverConstructor }).FileSystemObserver
  if (!Constructor) return undefined
  let working = false
  let everything = true
  const paths = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const observer = new Constructor((records) => {
    for (const record of records) {
      if (record.type === 'errored') working = false
      if (record.type === 'unknown' || record.type === 'errored' || !record.relativePathComponents) everything = true
      else paths.add(record.relativePathComponents.join('/'))
      if (record.relativePathMovedFrom) paths.add(record.relativePathMovedFrom.join('/'))
    }
    clearTimeout(timer)
    timer = setTimeout(onChange, SETTLE_MS)
  })
  const started = observer.observe(handle, { recursive: true }).then(
    () => (working = true),
    (error: unknown) => {
      log.warn('The folder cannot be observed; it is scanned instead', error)
      return false
    },
  )
  return {
    started,
    scanned() {
      if (working) everything = false
    },
    vouchesFor(relative) {
      return working && !everything && !paths.has(relative)
    },
    take() {
      if (!working || everything) {
        everything = false
        paths.clear()
        return { type: 'everything' }
      }
      if (paths.size === 0) return { type: 'none' }
      const taken = [...paths]
      paths.clear()
      return { type: 'paths', paths: taken }
    },
    stop() {
      clearTimeout(timer)
      observer.disconnect()
    },
  }
}
