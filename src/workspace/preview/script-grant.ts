import type { PreviewScripts } from './build-preview'

/**
 * What the user granted by pressing "Run the page's scripts": that page's document as it was then, by its digest
 * (build-preview.ts), never the page's later versions. A page the agent wrote can be rewritten by the agent (after a
 * prompt injection, to send what it read to another host), so a rewrite shows inert again until the user runs it.
 */
export type ScriptGrants = ReadonlyMap<string, string>

export type PreviewMode = { scripts: Extract<PreviewScripts, 'run'> } | { scripts: Extract<PreviewScripts, 'inert'>; changed: boolean }

/** How `page`, built now with `digest`, shows: running only while it is the document the user ran. */
export function previewMode(grants: ScriptGrants, page: string, digest: string): PreviewMode {
  const granted = grants.get(page)
  if (granted === undefined) return { scripts: 'inert', changed: false }
  return granted === digest ? { scripts: 'run' } : { scripts: 'inert', changed: true }
}
