import { AppError } from '../core/errors'

/**
 * Why a folder or archive cannot become a project, each with its name and data, and its words as the New project
 * dialog shows them. Every one is thrown before anything is written. The ones about an archive's entry name it (as
 * `data.path`): the user learns which file is damaged, not only that something is.
 */
export class ImportError<Data extends Record<string, unknown> = Record<string, unknown>> extends AppError<Data> {}

const damaged = (path: string, why: string) => `${path} is damaged in this archive: ${why}, so nothing was imported.`

export class ProjectTooManyFilesError extends ImportError<{ limit: number }> {
  constructor(limit: number) {
    super('ProjectTooManyFilesError', `Too many files: a project can be imported with at most ${limit.toLocaleString('en-US')}.`, { limit })
  }
}

export class ProjectTooLargeError extends ImportError<{ limit: number }> {
  constructor(limit: number) {
    super('ProjectTooLargeError', `Too large: a project can be imported with at most ${limit / 1024 / 1024} MB of files.`, { limit })
  }
}

const UNREADABLE = {
  'no-end-record': 'it has no end-of-archive record',
  'no-zip64-record': 'its ZIP64 record is missing',
  'damaged-directory': 'its table of contents is damaged',
  'past-end': 'its table of contents points past its end',
} as const

/** Where the archive's own structure (its end record, its table of contents) broke. */
export type ZipUnreadableReason = keyof typeof UNREADABLE

/** The archive's own structure cannot be read: nothing in it can be named, so the archive is. */
export class ZipUnreadableError extends ImportError<{ reason: ZipUnreadableReason }> {
  constructor(reason: ZipUnreadableReason) {
    super('ZipUnreadableError', `This is not a readable zip archive: ${UNREADABLE[reason]}.`, { reason })
  }
}

/** An entry whose table-of-contents record marks ZIP64 sizes but carries no ZIP64 field to hold them. */
export class ZipSizesMissingError extends ImportError<{ path: string }> {
  constructor(path: string) {
    super('ZipSizesMissingError', damaged(path, 'its ZIP64 sizes are missing'), { path })
  }
}

export class ZipEncryptedError extends ImportError<{ path: string }> {
  constructor(path: string) {
    super('ZipEncryptedError', damaged(path, 'it is encrypted, which tabcode cannot read'), { path })
  }
}

/** An entry compressed with something other than stored (0) or DEFLATE (8). */
export class ZipMethodError extends ImportError<{ path: string; method: number }> {
  constructor(path: string, method: number) {
    super('ZipMethodError', damaged(path, `it is compressed with method ${method}, which tabcode cannot read`), { path, method })
  }
}

/** The table of contents points at an entry whose local header is not where it says. */
export class ZipLocalHeaderError extends ImportError<{ path: string }> {
  constructor(path: string) {
    super('ZipLocalHeaderError', damaged(path, 'its local header is missing'), { path })
  }
}

/** An entry whose compressed data, as its headers place it, runs past the end of the archive. */
export class ZipDataPastEndError extends ImportError<{ path: string }> {
  constructor(path: string) {
    super('ZipDataPastEndError', damaged(path, 'its data runs past the end of the archive'), { path })
  }
}

/** DEFLATE data the inflater refuses; `detail` is the inflater's own reason. */
export class ZipDeflateError extends ImportError<{ path: string; detail: string }> {
  constructor(path: string, detail: string) {
    super('ZipDeflateError', damaged(path, `its compressed data cannot be read (${detail})`), { path, detail })
  }
}

/** An entry that ends before the size its archive declares for it. */
export class ZipEntryShortError extends ImportError<{ path: string; declared: number; found: number }> {
  constructor(path: string, declared: number, found: number) {
    super(
      'ZipEntryShortError',
      damaged(path, `it holds ${found.toLocaleString('en-US')} bytes where the archive declares ${declared.toLocaleString('en-US')}`),
      { path, declared, found },
    )
  }
}

/**
 * A zip entry that inflates past the size its archive declares for it. Inflation stops at the first slice past that
 * size, so `inflated` is what was spent finding out, never the entry's whole size: a 1 KB claim that hides 256 MB
 * costs one slice of output, not 256 MB of work.
 */
export class ZipEntrySizeError extends ImportError<{ path: string; declared: number; inflated: number }> {
  constructor(path: string, declared: number, inflated: number) {
    super(
      'ZipEntrySizeError',
      `${path} holds more than the ${declared.toLocaleString('en-US')} bytes this archive declares for it: the archive is damaged or built to exhaust memory, so nothing was imported.`,
      { path, declared, inflated },
    )
  }
}

/** A zip entry whose bytes do not match the CRC-32 its archive declares: damaged (or tampered with) in transit. */
export class ZipChecksumError extends ImportError<{ path: string }> {
  constructor(path: string) {
    super('ZipChecksumError', damaged(path, "its contents do not match the archive's CRC-32 checksum"), { path })
  }
}
