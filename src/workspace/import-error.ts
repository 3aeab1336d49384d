import { AppError, defineError } from '../core/errors'

/**
 * Why a folder or archive cannot become a project, each with its name and data, and its words as the New project
 * dialog shows them. Every one is thrown before anything is written. The ones about an archive's entry name it (as
 * `data.path`): the user learns which file is damaged, not only that something is.
 */
export class ImportError<Data extends Record<string, unknown> = Record<string, unknown>> extends AppError<Data> {}

const damaged = (path: string, why: string) => `${path} is damaged in this archive: ${why}, so nothing was imported.`

export const ProjectTooManyFilesError = defineError('ProjectTooManyFilesError', (limit: number) => ({
  message: `Too many files: a project can be imported with at most ${limit.toLocaleString('en-US')}.`,
  data: { limit },
}), ImportError)

export const ProjectTooLargeError = defineError('ProjectTooLargeError', (limit: number) => ({
  message: `Too large: a project can be imported with at most ${limit / 1024 / 1024} MB of files.`,
  data: { limit },
}), ImportError)

const UNREADABLE = {
  'no-end-record': 'it has no end-of-archive record',
  'no-zip64-record': 'its ZIP64 record is missing',
  'damaged-directory': 'its table of contents is damaged',
  'past-end': 'its table of contents points past its end',
} as const

/** Where the archive's own structure (its end record, its table of contents) broke. */
export type ZipUnreadableReason = keyof typeof UNREADABLE

/** The archive's own structure cannot be read: nothing in it can be named, so the archive is. */
export const ZipUnreadableError = defineError('ZipUnreadableError', (reason: ZipUnreadableReason) => ({
  message: `This is not a readable zip archive: ${UNREADABLE[reason]}.`,
  data: { reason },
}), ImportError)

/** An entry whose table-of-contents record marks ZIP64 sizes but carries no ZIP64 field to hold them. */
export const ZipSizesMissingError = defineError('ZipSizesMissingError', (path: string) => ({
  message: damaged(path, 'its ZIP64 sizes are missing'),
  data: { path },
}), ImportError)

export const ZipEncryptedError = defineError('ZipEncryptedError', (path: string) => ({
  message: damaged(path, 'it is encrypted, which tabcode cannot read'),
  data: { path },
}), ImportError)

/** An entry compressed with something other than stored (0) or DEFLATE (8). */
export const ZipMethodError = defineError('ZipMethodError', (path: string, method: number) => ({
  message: damaged(path, `it is compressed with method ${method}, which tabcode cannot read`),
  data: { path, method },
}), ImportError)

/** The table of contents points at an entry whose local header is not where it says. */
export const ZipLocalHeaderError = defineError('ZipLocalHeaderError', (path: string) => ({
  message: damaged(path, 'its local header is missing'),
  data: { path },
}), ImportError)

/** An entry whose compressed data, as its headers place it, runs past the end of the archive. */
export const ZipDataPastEndError = defineError('ZipDataPastEndError', (path: string) => ({
  message: damaged(path, 'its data runs past the end of the archive'),
  data: { path },
}), ImportError)

/** DEFLATE data the inflater refuses; `detail` is the inflater's own reason. */
export const ZipDeflateError = defineError('ZipDeflateError', (path: string, detail: string) => ({
  message: damaged(path, `its compressed data cannot be read (${detail})`),
  data: { path, detail },
}), ImportError)

/** An entry that ends before the size its archive declares for it. */
export const ZipEntryShortError = defineError('ZipEntryShortError', (path: string, declared: number, found: number) => ({
  message: damaged(path, `it holds ${found.toLocaleString('en-US')} bytes where the archive declares ${declared.toLocaleString('en-US')}`),
  data: { path, declared, found },
}), ImportError)

/**
 * A zip entry that inflates past the size its archive declares for it. Inflation stops at the first slice past that
 * size, so `inflated` is what was spent finding out, never the entry's whole size: a 1 KB claim that hides 256 MB
 * costs one slice of output, not 256 MB of work.
 */
export const ZipEntrySizeError = defineError('ZipEntrySizeError', (path: string, declared: number, inflated: number) => ({
  message: `${path} holds more than the ${declared.toLocaleString('en-US')} bytes this archive declares for it: the archive is damaged or built to exhaust memory, so nothing was imported.`,
  data: { path, declared, inflated },
}), ImportError)

/** A zip entry whose bytes do not match the CRC-32 its archive declares: damaged (or tampered with) in transit. */
export const ZipChecksumError = defineError('ZipChecksumError', (path: string) => ({
  message: damaged(path, "its contents do not match the archive's CRC-32 checksum"),
  data: { path },
}), ImportError)

/** `git clone` of a new project's URL failed: git's own words (unreachable, CORS, not found, authentication). */
export const ProjectCloneError = defineError('ProjectCloneError', (url: string, reason: string) => ({
  message: `Could not clone ${url}: ${reason}`,
  data: { url, reason },
}), ImportError)
