import type { StoreContext } from '../store/context'
import { loadProviders } from '../store/provider-store'
import { getSession } from '../store/session-store'
import { COMFORTABLE_LINK_CHARS } from '../share/limits'
import { attachmentChars, withPlainAttachments } from '../share/attachments'
import { exportBackup, exportFileName, exportSession, loadTranscript, unscannedFiles } from '../share/export'
import { jsonBlob } from '../share/json-blob'
import { createShareLink, measureShareLink, parseShareToken } from '../share/link'
import { importFile, importShareLink, type OpenDependencies } from '../share/open'
import { fromOpencodeExport, toOpencodeExport } from '../share/opencode'
import type { ProjectRows } from '../store/project-rows'
import type { Handlers } from '../core/protocol/base'
import type { ShareApi } from '../core/protocol/share'
import type { ProjectSource } from '../core/protocol/projects'
import type { ProjectOrigin } from '../core/schema'
import type { Operations } from './operations'

/** The user's stored provider keys: removed from anything shared or exported, whatever they look like. */
async function storedKeys(context: StoreContext): Promise<string[]> {
  const providers = await loadProviders(context.db)
  return providers.flatMap((provider) => (provider.apiKey ? [provider.apiKey] : []))
}

/**
 * Share links, export and import. The link and file formats live in src/share; this only reads the session,
 * passes the stored keys for redaction, and gives imports the current project (or a new one's rows for an export's files).
 */
export function shareHandlers(
  ready: () => StoreContext,
  currentProject: () => string | undefined,
  prepareProject: (input: { name: string; source: ProjectSource; origin: ProjectOrigin }) => Promise<ProjectRows>,
  operations: Operations,
): Handlers<ShareApi> {
  const dependencies = (): OpenDependencies => {
    const context = ready()
    const projectID = currentProject()
    if (!projectID) throw new Error('No project is open yet.')
    return {
      context,
      projectID,
      fromOpencode: fromOpencodeExport,
      // The files came in a file from anywhere: the new project waits for the user's trust.
      prepareProject: ({ name, files }) => prepareProject({ name: `${name} (imported)`, source: { type: 'files', files }, origin: { type: 'file' } }),
    }
  }
  return {
    previewShareLink: async ({ sessionID, base, includeToolOutput, encrypted }) => {
      const context = ready()
      const transcript = await loadTranscript(context, sessionID)
      const measured = measureShareLink(transcript, {
        base,
        knownSecrets: await storedKeys(context),
        ...(includeToolOutput ? { includeToolOutput } : {}),
        ...(encrypted ? { encrypted } : {}),
      })
      const attachments = attachmentChars(transcript)
      return { ...measured, comfortable: COMFORTABLE_LINK_CHARS, ...(attachments.count ? { attachments } : {}) }
    },
    createShareLink: async ({ sessionID, base, includeToolOutput, passphrase }) => {
      const context = ready()
      const transcript = await loadTranscript(context, sessionID)
      return createShareLink(transcript, {
        base,
        knownSecrets: await storedKeys(context),
        ...(includeToolOutput ? { includeToolOutput } : {}),
        ...(passphrase ? { passphrase } : {}),
      })
    },
    inspectShareLink: (link) => {
      const { encrypted, version } = parseShareToken(link)
      return { encrypted, version }
    },
    openShareLink: async ({ link, passphrase }) => ({
      kind: 'session',
      ...(await importShareLink(dependencies(), link, passphrase ? { passphrase } : {})),
    }),
    exportSession: ({ sessionID, format = 'tabcode', includeFiles, includeUnscanned, operationID }, onProgress) =>
      operations.run(operationID, onProgress, async (control) => {
        const context = ready()
        const session = await getSession(context, sessionID)
        const opencode = format === 'opencode'
        // opencode's format has no workspace files: its export is the conversation alone.
        const { document, redactions, leftOut } = await exportSession(
          context,
          sessionID,
          {
            knownSecrets: await storedKeys(context),
            ...(includeFiles && !opencode ? { includeFiles } : {}),
            ...(includeUnscanned && !opencode ? { includeUnscanned } : {}),
          },
          control,
        )
        return {
          fileName: exportFileName(session.title, opencode ? 'opencode' : 'session', context.now()),
          data: jsonBlob(opencode ? toOpencodeExport(withPlainAttachments(document.session)) : document),
          redactions,
          ...(leftOut ? { leftOut } : {}),
        }
      }),
    previewExportFiles: async ({ sessionID }) => ({ unscanned: await unscannedFiles(ready(), sessionID) }),
    exportBackup: (input, onProgress) =>
      operations.run(input?.operationID, onProgress, async (control) => {
        const context = ready()
        const { document, redactions } = await exportBackup(context, { knownSecrets: await storedKeys(context) }, control)
        // Compact: a backup can be large, and nobody reads it by eye.
        return { fileName: exportFileName('', 'backup', context.now()), data: jsonBlob(document, { indent: 0 }), redactions }
      }),
    importFile: ({ data, operationID }, onProgress) => operations.run(operationID, onProgress, (control) => importFile(dependencies(), data, control)),
  }
}
