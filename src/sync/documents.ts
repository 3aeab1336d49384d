import type { ProviderConfig } from '../core/provider/schema'
import type { Part } from '../core/schema'
import type { LocalKey, SyncKind } from '../core/sync-state'
import { isTerminalPart } from '../core/terminal-part'
import { fromBase64, keyedHash, toBase64 } from './crypto'

/*
 * How a local row becomes a document and back (docs/sync.md, "Documents"): its id on the server, what of it travels
 * (secrets only when the user chose so), and how a pulled row is stored here (a secret the server did not bring is
 * kept from this device's row).
 */

/**
 * The user's settings, the same on every device (how compaction works, the tail it keeps included: a choice about the
 * agent, not about this machine); the rest (`project.current`, `python.packages`, `workspace.backend`,
 * `notifications`, whose browser permission is this device's) belong to this machine.
 */
const SYNCED_SETTINGS: ReadonlySet<string> = new Set(['model.default', 'model.small', 'retry.limit', 'agents', 'compaction.auto', 'compaction.prune', 'compaction.tailTurns', 'compaction.preserveRecentTokens', 'mcp.servers', 'git.corsProxy'])
/** Settings that are secrets themselves: they travel only with `secrets`. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set(['mcp.oauth', 'git.tokens'])

/** The prefix of the documents of one session's messages and parts. */
export const GROUP_PREFIX = 'grp_'

/** Whether a local row goes to the server at all. */
export function travels(kind: SyncKind, key: LocalKey, row: unknown, secrets: boolean): boolean {
  if (kind === 'part') return isTerminalPart(row as Part)
  if (kind === 'setting') return SYNCED_SETTINGS.has(key as string) || (secrets && SECRET_SETTINGS.has(key as string))
  return true
}

/** A setting key read from the server (in its ciphertext) that this device accepts. */
export function acceptsSetting(key: string, secrets: boolean): boolean {
  return SYNCED_SETTINGS.has(key) || (secrets && SECRET_SETTINGS.has(key))
}

/**
 * The group of a session's messages and parts: a keyed hash of the session id, the prefix of their document ids. It
 * lets a device ask for one session's documents (a key range of `_all_docs`) and lets the server see which documents
 * belong together, never which session that is or what they say.
 */
export async function groupOf(ids: CryptoKey, sessionID: string): Promise<string> {
  return `${GROUP_PREFIX}${await keyedHash(ids, `session\n${sessionID}`)}`
}

/**
 * A row's document id. Rows whose ids are random and time-ordered keep them (`ses_…`, `prj_…`); a message or part is
 * its session's group, then its id (`grp_<hash>:msg_…`); a file, a blob and a setting are named by keyed hashes, so the
 * server sees no file name, no content hash it could compare with a known file, no setting name. A message or part
 * needs its row (for the session); the others need only the key.
 */
export async function documentId(ids: CryptoKey, kind: SyncKind, key: LocalKey, row?: unknown): Promise<string | undefined> {
  switch (kind) {
    case 'message':
    case 'part': {
      const sessionID = (row as { sessionID?: string } | undefined)?.sessionID
      return sessionID === undefined ? undefined : `${await groupOf(ids, sessionID)}:${key as string}`
    }
    case 'file': {
      const [projectID, path] = key as [string, string]
      return `fil_${await keyedHash(ids, `file\n${projectID}\n${path}`)}`
    }
    case 'blob':
      return `blb_${await keyedHash(ids, `blob\n${key as string}`)}`
    case 'setting':
      return `set_${await keyedHash(ids, `setting\n${key as string}`)}`
    default:
      return key as string
  }
}

/** The key of the blob document a file row needs on the server; undefined for a directory. */
export function blobOf(kind: SyncKind, row: unknown): string | undefined {
  if (kind !== 'file') return undefined
  const entry = row as { type: string; hash?: string }
  return entry.type === 'file' ? entry.hash : undefined
}

interface McpServerRow {
  name: string
  headers: Array<{ name: string; value: string }>
}

/** What of a row is sealed and sent: provider keys, MCP header values and a blob's bytes (as base64) adjusted. */
export function outgoing(kind: SyncKind, row: unknown, secrets: boolean): unknown {
  if (kind === 'blob') {
    const blob = row as { hash: string; size: number; data: Uint8Array }
    return { hash: blob.hash, size: blob.size, data: toBase64(blob.data) }
  }
  if (secrets) return row
  if (kind === 'provider') {
    const { apiKey: _key, ...rest } = row as ProviderConfig
    return rest
  }
  if (kind === 'setting' && (row as { key: string }).key === 'mcp.servers') {
    const setting = row as { key: string; value: unknown[] }
    return { ...setting, value: setting.value.map((server) => ({ ...(server as McpServerRow), headers: (server as McpServerRow).headers.map((header) => ({ name: header.name, value: '' })) })) }
  }
  return row
}

/**
 * The row to store for what the server sent (after any merge): a blob's bytes decoded, and a secret the server left
 * out (sync without secrets) kept from this device's own row, so a key is never replaced with nothing.
 */
export function incoming(kind: SyncKind, row: unknown, current: unknown): unknown {
  if (kind === 'blob') {
    const blob = row as { hash: string; size: number; data: string }
    return { hash: blob.hash, size: blob.size, data: fromBase64(blob.data) }
  }
  if (kind === 'provider') {
    const pulled = row as ProviderConfig
    const here = current as ProviderConfig | undefined
    return pulled.apiKey === undefined && here?.apiKey !== undefined ? { ...pulled, apiKey: here.apiKey } : pulled
  }
  if (kind === 'setting' && (row as { key: string }).key === 'mcp.servers') {
    const setting = row as { key: string; value: McpServerRow[] }
    const here = (current as { value?: McpServerRow[] } | undefined)?.value ?? []
    const value = setting.value.map((server) => ({
      ...server,
      headers: server.headers.map((header) => {
        if (header.value !== '') return header
        const kept = here.find((local) => local.name === server.name)?.headers.find((local) => local.name.toLowerCase() === header.name.toLowerCase())
        return kept ? { ...header, value: kept.value } : header
      }),
    }))
    return { ...setting, value }
  }
  return row
}
