import { defineError } from '../../core/errors'

/**
 * The input is not what `opencode export` prints at all (not JSON, a tabcode file, some other document). The UI can
 * say "this is not an opencode session" and, for a tabcode file, point to the ordinary import.
 */
export const NotAnOpencodeExportError = defineError('NotAnOpencodeExportError', (reason: string) => ({
  message: `This is not an opencode session export: ${reason}.`,
  data: { reason },
}))

/** It is shaped like an opencode export, but something it needs is missing or of the wrong kind. */
export const OpencodeExportInvalidError = defineError('OpencodeExportInvalidError', (issues: string) => ({
  message: `This opencode export cannot be read: ${issues}`,
  data: { issues },
}))
