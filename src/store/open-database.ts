import Dexie from 'dexie'
import { SCHEMA_VERSION, TabcodeDatabase } from './database'
import type { DatabaseProblem } from '../core/protocol'

/**
 * How long an open that another tab blocks may wait for that tab to let go. Every tabcode tab closes its
 * connection on `versionchange` (see `onVersionChange`), so the wait is short unless the holder is stuck.
 */
export const BLOCKED_GRACE_MS = 3_000

export type OpenResult = { status: 'open'; db: TabcodeDatabase } | { status: 'failed'; problem: DatabaseProblem }

const blockedProblem: DatabaseProblem = {
  type: 'blocked',
  message: 'Another tabcode tab is holding the storage open with an older version. Close or reload the other tabs, then try again.',
}

/**
 * Opens the database or says why it can't, in words for the recovery screen. There is no time limit while the
 * browser works on the open: after a crash, Chromium can take several seconds to recover IndexedDB, and giving up
 * would send the user to an error screen with nothing wrong (the page says the open is slow instead;
 * `ui/app/boot/splash.tsx`). An open can wait forever only when another tab holds
 * an older version open and ignores `versionchange`; the browser says so (`blocked`), and after a grace for that tab
 * to let go, the user is told which tab to close.
 */
export async function openDatabase(
  create: () => TabcodeDatabase = () => new TabcodeDatabase(),
  blockedGraceMs = BLOCKED_GRACE_MS,
): Promise<OpenResult> {
  if (typeof indexedDB === 'undefined') {
    return {
      status: 'failed',
      problem: {
        type: 'unavailable',
        message: 'This browser gives tabcode no IndexedDB storage (private windows in some browsers do this).',
        detail: 'indexedDB is undefined',
      },
    }
  }
  const db = create()
  let timer: ReturnType<typeof setTimeout> | undefined
  const blocked = new Promise<'blocked'>((resolve) => {
    db.on('blocked', () => {
      timer ??= setTimeout(() => resolve('blocked'), blockedGraceMs)
    })
  })
  try {
    const outcome = await Promise.race([db.open().then(() => 'open' as const), blocked])
    if (outcome === 'blocked') {
      db.close()
      return { status: 'failed', problem: blockedProblem }
    }
    // Dexie 4 opens a database of a higher version without complaint (it adapts to the installed schema), but
    // this build would then write rows a newer schema may not expect, so a newer version is refused here.
    // Dexie stores schema version n as IndexedDB version n * 10.
    if (db.backendDB().version > SCHEMA_VERSION * 10) {
      db.close()
      return { status: 'failed', problem: newerVersion }
    }
    return { status: 'open', db }
  } catch (error) {
    db.close()
    return { status: 'failed', problem: classify(error) }
  } finally {
    clearTimeout(timer)
  }
}

const newerVersion: DatabaseProblem = {
  type: 'newer-version',
  message:
    'Your saved sessions were written by a newer version of tabcode. Reload to get the newest version; nothing has been changed.',
}

function classify(error: unknown): DatabaseProblem {
  const name = error instanceof Error ? error.name : 'Error'
  const inner = (error as { inner?: Error }).inner
  const detail = `${name}: ${error instanceof Error ? error.message : String(error)}${inner ? ` (${inner.name}: ${inner.message})` : ''}`
  if (name === Dexie.errnames.Version || inner?.name === 'VersionError') return newerVersion
  if (name === Dexie.errnames.MissingAPI || name === 'InvalidStateError' || name === 'SecurityError') {
    return { type: 'unavailable', message: 'This browser refused tabcode access to its storage.', detail }
  }
  return {
    type: 'corrupt',
    message: 'tabcode could not read its storage. It may be damaged, or the browser failed to open it.',
    detail,
  }
}

/** Deletes the whole database (the e2e reset); close this tab's connection first, or the delete waits for it. */
export function deleteDatabase(name: string): Promise<void> {
  return Dexie.delete(name)
}

export function closeDatabase(db: TabcodeDatabase): void {
  db.close()
}

/**
 * When another tab opens a newer schema: this connection lets go (so that tab's upgrade can run), then `closed`
 * is called.
 */
export function onVersionChange(db: TabcodeDatabase, closed: () => void): void {
  db.on('versionchange', () => {
    db.close()
    closed()
    return false
  })
}
