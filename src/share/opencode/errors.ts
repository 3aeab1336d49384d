import { AppError } from '../../core/errors'

/**
 * The input is not what `opencode export` prints at all (not JSON, a tabcode file, some other document). The UI can
 * say "this is not an opencode session" and, for a tabcode file, point to the ordinary import.
 */
export class NotAnOpencodeExportError extends AppError<{ reason: string }> {
  constructor(reason: string) {
    super('NotAnOpencodeExportError', `This is not an opencode session export: ${reason}.`, { reason })
  }
}

/** It is shaped like an opencode export, but something it needs is missing or of the wrong kind. */
export class OpencodeExportInvalidError extends AppError<{ issues: string }> {
  constructor(issues: string) {
    super('OpencodeExportInvalidError', `This opencode export cannot be read: ${issues}`, { issues })
  }
}
