import { log } from '../../core/log'
import type { DirectoryHandle } from './directory-handle'

/** What the disk workspace asks of the browser's file-system observer. */
export interface FolderWatch {
  /**
   * Whether the folder may have changed since the last call: always true until the observer has shown it works (it
   * delivered a record), then only after it reported something. Calling it consumes what was reported.
   */
  needsScan(): boolean
  stop(): void
}

interface ObserverRecord {
  type: string
}

interface Observer {
  observe(handle: unknown, options: { recursive: boolean }): Promise<void>
  disconnect(): void
}

type ObserverConstructor = new (callback: (records: ObserverRecord[]) => void) => Observer

/** Changes are gathered for this long before the folder is scanned, so a `git checkout` is one scan, not hundreds. */
const SETTLE_MS = 150

/**
 * Watches a folder with `FileSystemObserver` where the browser has it (Chromium); undefined elsewhere, and then the
 * workspace scans before every step and every reading tool instead. `onChange` runs (settled) after the observer
 * reports, so file trees follow an outside change without waiting for the agent.
 */
export function watchFolder(handle: DirectoryHandle, onChange: () => void): FolderWatch | undefined {
  const Constructor = (globalThis as { FileSystemObserver?: ObserverConstructor }).FileSystemObserver
  if (!Constructor) return undefined
  let working = false
  let dirty = true
  let timer: ReturnType<typeof setTimeout> | undefined
  const observer = new Constructor((records) => {
    // 'errored' means the observer stopped; 'unknown' that changes were missed: both call for scans from now on.
    if (records.some((record) => record.type === 'errored')) working = false
    else working = true
    dirty = true
    clearTimeout(timer)
    timer = setTimeout(onChange, SETTLE_MS)
  })
  observer.observe(handle, { recursive: true }).catch((error: unknown) => log.warn('The folder cannot be observed; it is scanned instead', error))
  return {
    needsScan() {
      if (working && !dirty) return false
      dirty = false
      return true
    },
    stop() {
      clearTimeout(timer)
      observer.disconnect()
    },
  }
}
