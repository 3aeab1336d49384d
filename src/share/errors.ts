import { defineError } from '../core/errors'

/*
 * What can go wrong when a link or a file is opened. Each failure has its own stable name so the UI can say exactly
 * what happened (and offer the right next step: ask for the passphrase, update the app, use a file); every one of
 * them is thrown before anything is written.
 */

/** The input cannot be decoded at all (not base64url, not deflate, not JSON, not a format we know). */
export const ImportCorruptError = defineError('ImportCorruptError', (detail: string) => ({
  message: `This link or file is damaged and cannot be read (${detail}).`,
  data: { detail },
}))

/** The input stops early: usually a link that was cut off while copying. */
export const ImportTruncatedError = defineError('ImportTruncatedError', (detail: string) => ({
  message: 'This link or file is incomplete: it was probably cut off while copying. Copy the whole link again.',
  data: { detail },
}))

/**
 * Past one of the caps: a decompression bomb, or simply more than an import may hold. `seen`: how much had been read
 * when the cap stopped it (for a bomb, the proof that it never inflated whole).
 */
export const ImportTooLargeError = defineError('ImportTooLargeError', (what: string, limit: number, seen?: number) => ({
  message: `This link or file is too large to open: ${what} is over the limit of ${limit.toLocaleString('en-US')}.`,
  data: { what, limit, ...(seen === undefined ? {} : { seen }) } as { what: string; limit: number; seen?: number },
}))

export const ImportPassphraseRequiredError = defineError('ImportPassphraseRequiredError', () => ({
  message: 'This link is protected by a passphrase. Enter it to open the session.',
  data: {} as Record<string, never>,
}))

/** AES-GCM refused the data: the passphrase is wrong (or the encrypted bytes were altered). */
export const ImportWrongPassphraseError = defineError('ImportWrongPassphraseError', () => ({
  message: 'The passphrase is not right for this link. Check it and try again.',
  data: {} as Record<string, never>,
}))

export const ImportNewerVersionError = defineError('ImportNewerVersionError', (format: string, version: number, supported: number) => ({
  message:
    supported > 0
      ? `This ${format} was made by a newer tabcode (format version ${version}; this one reads up to ${supported}). Update tabcode to open it.`
      : `This file (${format}) was made by a newer tabcode that has kinds of export this one does not know. Update tabcode to open it.`,
  data: { format, version, supported },
}))

/** Decoded fine, but the content is not a valid session (schema or reference problems). */
export const ImportInvalidError = defineError('ImportInvalidError', (issues: string) => ({
  message: `This link or file does not hold a valid tabcode session: ${issues}`,
  data: { issues },
}))

/** The failures of opening a link or a file, by their names. */
export type ImportErrorName = (typeof IMPORT_ERRORS)[number]['errorName']
const IMPORT_ERRORS = [
  ImportCorruptError,
  ImportTruncatedError,
  ImportTooLargeError,
  ImportPassphraseRequiredError,
  ImportWrongPassphraseError,
  ImportNewerVersionError,
  ImportInvalidError,
] as const

/** A share link longer than browsers carry reliably; the file export holds any size. */
export const ShareTooLongError = defineError('ShareTooLongError', (chars: number, limit: number) => ({
  message: `This session makes a link of ${chars.toLocaleString('en-US')} characters, over the ${limit.toLocaleString('en-US')} a link can carry. Export it as a file instead, or leave out the tool outputs.`,
  data: { chars, limit },
}))
