import { AppError } from '../core/errors'

/**
 * What can go wrong when a link or a file is opened. Each failure has its own stable name so the UI can say exactly
 * what happened (and offer the right next step: ask for the passphrase, update the app, use a file); every one of
 * them is thrown before anything is written.
 */
export type ImportErrorName =
  | 'ImportCorruptError'
  | 'ImportTruncatedError'
  | 'ImportTooLargeError'
  | 'ImportPassphraseRequiredError'
  | 'ImportWrongPassphraseError'
  | 'ImportNewerVersionError'
  | 'ImportInvalidError'

/** The input cannot be decoded at all (not base64url, not deflate, not JSON, not a format we know). */
export class ImportCorruptError extends AppError<{ detail: string }> {
  constructor(detail: string) {
    super('ImportCorruptError', `This link or file is damaged and cannot be read (${detail}).`, { detail })
  }
}

/** The input stops early: usually a link that was cut off while copying. */
export class ImportTruncatedError extends AppError<{ detail: string }> {
  constructor(detail: string) {
    super('ImportTruncatedError', 'This link or file is incomplete: it was probably cut off while copying. Copy the whole link again.', {
      detail,
    })
  }
}

/** Past one of the caps: a decompression bomb, or simply more than an import may hold. */
export class ImportTooLargeError extends AppError<{ what: string; limit: number; seen?: number }> {
  /** `seen`: how much had been read when the cap stopped it (for a bomb, the proof that it never inflated whole). */
  constructor(what: string, limit: number, seen?: number) {
    super('ImportTooLargeError', `This link or file is too large to open: ${what} is over the limit of ${limit.toLocaleString('en-US')}.`, {
      what,
      limit,
      ...(seen === undefined ? {} : { seen }),
    })
  }
}

export class ImportPassphraseRequiredError extends AppError<Record<string, never>> {
  constructor() {
    super('ImportPassphraseRequiredError', 'This link is protected by a passphrase. Enter it to open the session.', {})
  }
}

/** AES-GCM refused the data: the passphrase is wrong (or the encrypted bytes were altered). */
export class ImportWrongPassphraseError extends AppError<Record<string, never>> {
  constructor() {
    super('ImportWrongPassphraseError', 'The passphrase is not right for this link. Check it and try again.', {})
  }
}

export class ImportNewerVersionError extends AppError<{ format: string; version: number; supported: number }> {
  constructor(format: string, version: number, supported: number) {
    super(
      'ImportNewerVersionError',
      supported > 0
        ? `This ${format} was made by a newer tabcode (format version ${version}; this one reads up to ${supported}). Update tabcode to open it.`
        : `This file (${format}) was made by a newer tabcode that has kinds of export this one does not know. Update tabcode to open it.`,
      { format, version, supported },
    )
  }
}

/** Decoded fine, but the content is not a valid session (schema or reference problems). */
export class ImportInvalidError extends AppError<{ issues: string }> {
  constructor(issues: string) {
    super('ImportInvalidError', `This link or file does not hold a valid tabcode session: ${issues}`, { issues })
  }
}

/** A share link longer than browsers carry reliably; the file export holds any size. */
export class ShareTooLongError extends AppError<{ chars: number; limit: number }> {
  constructor(chars: number, limit: number) {
    super(
      'ShareTooLongError',
      `This session makes a link of ${chars.toLocaleString('en-US')} characters, over the ${limit.toLocaleString('en-US')} a link can carry. Export it as a file instead, or leave out the tool outputs.`,
      { chars, limit },
    )
  }
}
