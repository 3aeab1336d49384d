import type { StoreContext } from '../store/context'
import type { ImportedSession, ImportOutcome } from '../core/dto/share'
import type { ProjectRows } from '../store/project-rows'
import { importBackup } from './backup'
import { decodeWorkspaceFiles, readImportFile, type FromOpencode } from './file'
import { findImported, importTranscript } from './import'
import { openShareLink } from './link'
import { throwIfCancelled } from '../core/errors'
import type { OperationControl } from '../core/progress'

/** What opening a link or a file needs from the app; the worker passes the real ones, tests fakes. */
export interface OpenDependencies {
  context: StoreContext
  /** The project imported sessions join (the one open). */
  projectID: string
  /**
   * The rows of a new project holding an export's workspace files, written nowhere yet: the import writes them
   * with the session in one transaction. Without it the files are not restored.
   */
  prepareProject?: (input: { name: string; files: { path: string; data: Uint8Array }[] }) => Promise<ProjectRows>
  fromOpencode?: FromOpencode
}

/**
 * The Web Lock an import holds while it writes its rows. Imports from several tabs take turns, and a tab (or a
 * test that kills the browser mid-import) can tell that one is being written.
 */
export const IMPORT_WRITE_LOCK = 'tabcode:import'

function whileWriting<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  return locks ? locks.request(IMPORT_WRITE_LOCK, work) : work()
}

export type { ImportOutcome }

/** Opens a share link: decoded and validated first, then written in one transaction (or the earlier copy returned). */
export async function importShareLink(dependencies: OpenDependencies, link: string, options: { passphrase?: string } = {}): Promise<ImportedSession> {
  const opened = await openShareLink(link, options)
  return whileWriting(() => importTranscript(dependencies.context, opened.transcript, { projectID: dependencies.projectID, source: 'link', hash: opened.hash }))
}

/**
 * Opens a file: a tabcode session or backup, or an opencode export. Nothing is written unless all of it is valid.
 * `control` hears that the file is being read and checked (its size in messages is not known until it is), then how
 * many messages are written; cancelling at any point leaves nothing written.
 */
export async function importFile(dependencies: OpenDependencies, input: Uint8Array | string, control: OperationControl = {}): Promise<ImportOutcome> {
  control.onProgress?.({ type: 'working' })
  const document = await readImportFile(input, dependencies.fromOpencode ? { fromOpencode: dependencies.fromOpencode } : {})
  throwIfCancelled(control.signal, 'The import')
  const { context } = dependencies
  if (document.kind === 'backup') {
    return { kind: 'backup', ...(await importBackup(context, document.backup, { hash: document.hash, fallbackProjectID: dependencies.projectID }, control)) }
  }
  const existing = await findImported(context, document.hash)
  if (existing) return { kind: 'session', session: existing, duplicate: true, counts: { sessions: 0, messages: 0, parts: 0 } }
  // The workspace files are restored as a project of their own, so they never overwrite the open project's files.
  const project =
    document.kind === 'session' && document.files.length && dependencies.prepareProject
      ? await dependencies.prepareProject({ name: document.transcript.info.title || 'Imported session', files: decodeWorkspaceFiles(document.files) })
      : undefined
  throwIfCancelled(control.signal, 'The import')
  const source = document.kind === 'opencode' ? 'opencode' : 'file'
  return {
    kind: 'session',
    ...(await whileWriting(() =>
      importTranscript(context, document.transcript, { projectID: dependencies.projectID, source, hash: document.hash, ...(project ? { project } : {}) }, control),
    )),
  }
}
