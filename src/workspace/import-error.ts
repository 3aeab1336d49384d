/** A folder or archive that cannot become a project, with the reason in words (shown as it is by the dialog). */
export class ImportError extends Error {
  override name = 'ImportError'
}

/**
 * A zip entry that inflates past the size its archive declares for it. Inflation stops at the first slice past that
 * size, so `inflated` is what was spent finding out, never the entry's whole size: a 1 KB claim that hides 256 MB
 * costs one slice of output, not 256 MB of work.
 */
export class ZipEntrySizeError extends ImportError {
  override name = 'ZipEntrySizeError'
  constructor(
    readonly path: string,
    readonly declared: number,
    readonly inflated: number,
  ) {
    super(`${path} holds more than the ${declared.toLocaleString('en-US')} bytes this archive declares for it: the archive is damaged or built to exhaust memory, so nothing was imported.`)
  }
}

/** A zip entry whose bytes do not match the CRC-32 its archive declares: damaged (or tampered with) in transit. */
export class ZipChecksumError extends ImportError {
  override name = 'ZipChecksumError'
  constructor(readonly path: string) {
    super(`${path} is damaged in this archive: its contents do not match the archive's CRC-32 checksum, so nothing was imported.`)
  }
}
