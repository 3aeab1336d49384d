import { onCleanup } from 'solid-js'
import type { EventSource, WorkspaceChange } from './workspace-api'

export interface WorkspaceChanges {
  /** Calls `listener` for every change to the project's files; returns the unsubscribe function. */
  subscribe(listener: (change: WorkspaceChange) => void): () => void
}

/**
 * One subscription to the worker's events for all workspace views of a project: the tree, the open file and
 * whoever else cares hear each `workspace.changed` of this project, and nothing of other projects. Owner-bound.
 */
export function createWorkspaceChanges(listen: EventSource, projectID: () => string): WorkspaceChanges {
  const listeners = new Set<(change: WorkspaceChange) => void>()
  onCleanup(
    listen((event) => {
      if (event.type !== 'workspace.changed' || event.projectID !== projectID()) return
      for (const listener of listeners) listener(event.change)
    }),
  )
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
