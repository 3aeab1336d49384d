import { batch, createMemo, onCleanup, type Accessor } from 'solid-js'
import { createStore, produce, reconcile } from 'solid-js/store'
import { errorMessage } from '../kit/format/error'
import type { WorkspaceChanges } from './create-workspace-changes'
import { directoryToRefresh, isWithin, parentOf, sortEntries, visibleRows, type DirectoryListing, type TreeRow } from './tree-rows'
import type { WorkspaceApi } from './workspace-api'

export interface FileTree {
  rows: Accessor<TreeRow[]>
  /** The root's own listing (loading, loaded or failed). */
  root: Accessor<DirectoryListing | undefined>
  listing(path: string): DirectoryListing | undefined
  isExpanded(path: string): boolean
  expand(path: string): void
  collapse(path: string): void
  /** Lists the root again (after an error). */
  reload(): void
}

interface TreeState {
  listings: Record<string, DirectoryListing | undefined>
  expanded: Record<string, boolean | undefined>
}

/**
 * The tree's data: directories are listed when first expanded and kept while the tree lives. A change reported by
 * the worker lists its directory again if it is on screen; a listing that is hidden (collapsed) is dropped
 * instead, so the next expand reads it fresh. Owner-bound: it listens to changes until its owner is disposed.
 */
export function createFileTree(options: { api: WorkspaceApi; projectID: string; root: string; changes: WorkspaceChanges }): FileTree {
  const { api, projectID, root } = options
  const [state, setState] = createStore<TreeState>({ listings: {}, expanded: {} })
  const running = new Map<string, Promise<void>>()
  // A directory that changed while its listing was on the way: list it once more when that one lands.
  const stale = new Set<string>()

  async function load(path: string): Promise<void> {
    const current = running.get(path)
    if (current) {
      stale.add(path)
      return current
    }
    if (!state.listings[path]) setState('listings', path, { status: 'loading', entries: [] })
    const run = (async () => {
      try {
        const entries = sortEntries(await api.listFiles({ projectID, path }))
        // Removed (or collapsed and dropped) while listing: nothing to show it in.
        if (!state.listings[path]) return
        setState('listings', path, reconcile<DirectoryListing, DirectoryListing | undefined>({ status: 'loaded', entries }, { key: 'path' }))
      } catch (error) {
        if (!state.listings[path]) return
        setState('listings', path, { status: 'error', entries: state.listings[path]?.entries ?? [], message: errorMessage(error) })
      }
    })()
    running.set(path, run)
    await run
    running.delete(path)
    if (stale.delete(path) && state.listings[path]) await load(path)
  }

  /** Forgets a directory's listing and everything below it. */
  function forget(path: string): void {
    setState(
      produce((draft) => {
        for (const key of Object.keys(draft.listings)) if (isWithin(key, path)) delete draft.listings[key]
        for (const key of Object.keys(draft.expanded)) if (isWithin(key, path)) delete draft.expanded[key]
      }),
    )
  }

  onCleanup(
    options.changes.subscribe((change) => {
      batch(() => {
        // The root itself changed (another backend took over, an import replaced the project): read again all
        // that is on screen, and forget the rest.
        if (change.path === root) {
          for (const path of Object.keys(state.listings)) {
            if (path === root || state.expanded[path]) void load(path)
            else setState('listings', path, undefined)
          }
          return
        }
        if (change.type === 'remove') {
          forget(change.path)
          // Gone from its folder at once, not when the folder's new listing lands: a move's new place may be
          // listed first, and the entry would show in both.
          const parent = state.listings[parentOf(change.path)]
          if (parent?.entries.some((entry) => entry.path === change.path)) {
            setState('listings', parentOf(change.path), 'entries', (entries) => entries.filter((entry) => entry.path !== change.path))
          }
        }
        const directory = directoryToRefresh(change.path, root, state.listings)
        if (!directory) return
        if (directory === root || state.expanded[directory]) void load(directory)
        else forget(directory)
      })
    }),
  )

  void load(root)

  const rows = createMemo(() => visibleRows(root, state.listings, state.expanded))
  return {
    rows,
    root: () => state.listings[root],
    listing: (path) => state.listings[path],
    isExpanded: (path) => !!state.expanded[path],
    expand(path) {
      setState('expanded', path, true)
      const listing = state.listings[path]
      if (!listing || listing.status === 'error') void load(path)
    },
    collapse(path) {
      setState('expanded', path, undefined)
    },
    reload() {
      void load(root)
    },
  }
}
