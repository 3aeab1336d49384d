import { InputError } from './errors'
import type { SessionInfo } from './schema'

/** Sessions opened from a link or a file carry this stamp; they are records to read, not conversations to run. */
export function isImported(session: Pick<SessionInfo, 'metadata'>): boolean {
  const stamp = session.metadata?.import
  return !!stamp && typeof stamp === 'object'
}

/** Refuses to run an imported session: the user continues it in a fork, which is theirs. */
export function assertWritable(session: Pick<SessionInfo, 'metadata'>, action: string): void {
  if (isImported(session)) {
    throw new InputError('session', `This session was imported and is read-only; use “Continue in a fork” to ${action}.`)
  }
}

/** A fork of an imported session is the user's own: it keeps the rest of the metadata but not the import stamp. */
export function withoutImportStamp(metadata: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!metadata) return undefined
  const { import: _stamp, ...rest } = structuredClone(metadata)
  return Object.keys(rest).length ? rest : undefined
}
