import fuzzysort from 'fuzzysort'
import type { Workspace } from '../core/workspace'
import type { ProjectFileMatch } from '../core/protocol'
import { WORKSPACE_ROOT } from '../workspace/workspace'

// Dependencies and history: thousands of files nobody mentions, and walking them would make the first `@` slow.
const SKIPPED = new Set(['node_modules', '.git'])
const MAX_ENTRIES = 50_000
// The index is rebuilt at most this often; a file made a moment ago shows up on the next `@` after that.
const FRESH_FOR_MS = 5_000

interface IndexEntry {
  match: ProjectFileMatch
  prepared: Fuzzysort.Prepared
}

/** Every file and folder under the workspace root (paths relative to it, folders ending in `/`), breadth first. */
export async function collectProjectPaths(workspace: Workspace): Promise<ProjectFileMatch[]> {
  const found: ProjectFileMatch[] = []
  const pending = [WORKSPACE_ROOT]
  while (pending.length && found.length < MAX_ENTRIES) {
    const directory = pending.shift()!
    const entries = await workspace.list(directory).catch(() => [])
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue
      const relative = entry.path.slice(WORKSPACE_ROOT.length + 1)
      if (entry.type === 'directory') {
        found.push({ type: 'directory', path: `${relative}/` })
        pending.push(entry.path)
      } else found.push({ type: 'file', path: relative })
    }
  }
  return found
}

/**
 * The best `limit` matches for `query`. An empty query lists the shallowest paths first, as opencode's popup does
 * before the user types.
 */
export function rankProjectPaths(entries: readonly IndexEntry[], query: string, limit: number): ProjectFileMatch[] {
  if (!query) {
    return [...entries]
      .sort((a, b) => depth(a.match.path) - depth(b.match.path) || a.match.path.localeCompare(b.match.path))
      .slice(0, limit)
      .map((entry) => entry.match)
  }
  return fuzzysort.go(query, entries, { key: 'prepared', limit }).map((result) => result.obj.match)
}

const depth = (path: string) => path.replace(/\/$/, '').split('/').length

export function indexEntries(matches: readonly ProjectFileMatch[]): IndexEntry[] {
  return matches.map((match) => ({ match, prepared: fuzzysort.prepare(match.path) }))
}

/** Keeps one project's index for a few seconds, so each key typed after `@` does not walk the tree again. */
export function createFileSearch(now: () => number = Date.now) {
  const cache = new Map<string, { built: number; entries: Promise<IndexEntry[]> }>()
  return async (projectID: string, workspace: Workspace, query: string, limit: number): Promise<ProjectFileMatch[]> => {
    let cached = cache.get(projectID)
    if (!cached || now() - cached.built > FRESH_FOR_MS) {
      cached = { built: now(), entries: collectProjectPaths(workspace).then(indexEntries) }
      cache.set(projectID, cached)
    }
    return rankProjectPaths(await cached.entries, query.trim(), limit)
  }
}
