import { vi } from 'vitest'
import type { SessionEvent } from '../../../core/event'
import type { FileDiff } from '../../../core/schema'
import type { FileStat, WorkspaceChange } from '../../../core/workspace'
import type { FileContent, SavedFile, SaveFileInput, WorkspaceInfo } from '../../../core/protocol'
import type { WorkspaceApi } from '../workspace-api'

// Helpers for the workspace views' tests: never imported by the app.

export const PROJECT = 'prj_test'
export const ROOT = '/workspace'

/**
 * An in-memory worker for the workspace views (tests only): files by absolute path, directories implied by them
 * or made explicitly, and `change` to report an edit the way the worker does (after it happened).
 */
export function makeFakeWorkspace(initial: Record<string, string | Uint8Array> = {}, options: { diffs?: FileDiff[]; userEdits?: FileDiff[]; outsideEdits?: FileDiff[]; info?: Partial<WorkspaceInfo> } = {}) {
  const files = new Map(Object.entries(initial))
  const directories = new Set<string>()
  const handlers = new Set<(event: SessionEvent) => void>()

  const stat = (path: string, type: FileStat['type']): FileStat => {
    const data = files.get(path)
    const size = data === undefined ? 0 : typeof data === 'string' ? new TextEncoder().encode(data).length : data.length
    return { path, name: path.slice(path.lastIndexOf('/') + 1), type, size, modified: 1 }
  }

  const api = {
    workspaceInfo: vi.fn(async (projectID: string): Promise<WorkspaceInfo> => ({ projectID, backend: 'local', root: ROOT, ...options.info })),
    listFiles: vi.fn(async (input: { projectID: string; path: string }): Promise<FileStat[]> => {
      const prefix = `${input.path}/`
      const children = new Map<string, FileStat>()
      for (const path of [...files.keys(), ...directories]) {
        if (!path.startsWith(prefix)) continue
        const [name, ...deeper] = path.slice(prefix.length).split('/')
        const child = prefix + name
        const isDirectory = deeper.length > 0 || directories.has(child)
        children.set(child, stat(child, isDirectory ? 'directory' : 'file'))
      }
      return [...children.values()].sort((a, b) => a.name.localeCompare(b.name))
    }),
    readFile: vi.fn(async (input: { projectID: string; path: string }): Promise<FileContent> => {
      const data = files.get(input.path)
      if (data === undefined) throw Object.assign(new Error(`${input.path} was not found`), { name: 'WorkspaceError' })
      if (typeof data === 'string') return { type: 'text', path: input.path, text: data, size: stat(input.path, 'file').size }
      return { type: 'binary', path: input.path, size: data.length }
    }),
    readPreviewFile: vi.fn(async (input: { projectID: string; path: string }): Promise<Uint8Array | null> => {
      const data = files.get(input.path)
      return data === undefined ? null : typeof data === 'string' ? new TextEncoder().encode(data) : data
    }),
    sessionDiffs: vi.fn(async (_sessionID: string): Promise<FileDiff[]> => options.diffs ?? []),
    saveFile: vi.fn(async (input: SaveFileInput): Promise<SavedFile> => {
      const current = files.get(input.path)
      if (input.expected !== undefined && current !== input.expected) {
        throw Object.assign(new Error(`${input.path} changed since you opened it`), { name: 'SaveConflictError' })
      }
      files.set(input.path, input.content)
      emit({ type: 'workspace.changed', projectID: input.projectID, change: { type: 'write', path: input.path } })
      return { path: input.path, size: input.content.length, modified: 2 }
    }),
    userEdits: vi.fn(async (_sessionID: string): Promise<FileDiff[]> => options.userEdits ?? []),
    outsideEdits: vi.fn(async (_sessionID: string): Promise<FileDiff[]> => options.outsideEdits ?? []),
  } satisfies WorkspaceApi
  function emit(event: SessionEvent): void {
    for (const handler of handlers) handler(event)
  }

  return {
    api,
    listen(handler: (event: SessionEvent) => void) {
      handlers.add(handler)
      return () => void handlers.delete(handler)
    },
    /** Applies an edit and reports it, as the worker would. */
    change(change: WorkspaceChange, data?: string | Uint8Array, projectID = PROJECT) {
      if (change.type === 'write') files.set(change.path, data ?? '')
      if (change.type === 'mkdir') directories.add(change.path)
      if (change.type === 'remove') {
        for (const path of [...files.keys()]) if (path === change.path || path.startsWith(`${change.path}/`)) files.delete(path)
        for (const path of [...directories]) if (path === change.path || path.startsWith(`${change.path}/`)) directories.delete(path)
      }
      const event: SessionEvent = { type: 'workspace.changed', projectID, change }
      for (const handler of handlers) handler(event)
    },
  }
}

export { mount } from '../../testing/mount'

export function press(target: Element, key: string, init: KeyboardEventInit = {}): void {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))
}

