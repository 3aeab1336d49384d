import { unzip, type Unzipped } from 'fflate'
import { normalizePath } from './path'

export interface ImportedFile {
  /** Relative to the project root, `/`-separated. */
  path: string
  data: Uint8Array
}

export const IMPORT_LIMITS = { files: 20_000, bytes: 200 * 1024 * 1024 } as const

/** A folder or archive that cannot become a project, with the reason in words. */
export class ImportError extends Error {
  override name = 'ImportError'
}

/**
 * The files of a dropped folder or zip, ready to write: paths made safe (no `..`, no absolute paths), junk left out
 * (`__MACOSX`, `.DS_Store`), a single top-level folder unwrapped, and limits on count and size, since an archive is
 * untrusted input and a zip bomb must fail with a message rather than fill the disk.
 */
export function prepareImport(files: ImportedFile[]): ImportedFile[] {
  const kept = safeFiles(files)
  const tops = new Set(kept.map((file) => file.path.split('/')[0]))
  const [top] = tops
  if (tops.size === 1 && top && kept.every((file) => file.path.includes('/'))) {
    return kept.map((file) => ({ path: file.path.slice(top.length + 1), data: file.data }))
  }
  return kept
}

/**
 * Files dropped into an existing project (the file tree's upload): the same safety as an import, but a dropped
 * folder keeps its own name, since the user dropped it as a folder.
 */
export function prepareUpload(files: ImportedFile[]): ImportedFile[] {
  return safeFiles(files)
}

/** Safe relative paths, junk left out, and the count and size limits. */
function safeFiles(files: ImportedFile[]): ImportedFile[] {
  const kept: ImportedFile[] = []
  let bytes = 0
  for (const file of files) {
    const path = normalizePath(`/${file.path.replace(/\\/g, '/')}`).slice(1)
    if (!path || path.split('/').some((segment) => segment === '__MACOSX' || segment === '.DS_Store')) continue
    bytes += file.data.byteLength
    if (kept.length >= IMPORT_LIMITS.files) throw new ImportError(`Too many files: a project can be imported with at most ${IMPORT_LIMITS.files.toLocaleString('en-US')}.`)
    if (bytes > IMPORT_LIMITS.bytes) throw new ImportError(`Too large: a project can be imported with at most ${IMPORT_LIMITS.bytes / 1024 / 1024} MB of files.`)
    kept.push({ path, data: file.data })
  }
  return kept
}

/** The files inside a zip archive (directories are implied by the paths). */
export async function filesFromZip(data: Uint8Array): Promise<ImportedFile[]> {
  let total = 0
  const unzipped = await new Promise<Unzipped>((resolve, reject) =>
    unzip(
      data,
      {
        // Checked before inflating each entry: a bomb is refused by its declared size, not after filling memory.
        filter: (entry) => {
          total += entry.originalSize
          return !entry.name.endsWith('/') && total <= IMPORT_LIMITS.bytes
        },
      },
      (error, result) => (error ? reject(new ImportError(`This is not a readable zip archive: ${error.message}`)) : resolve(result)),
    ),
  )
  if (total > IMPORT_LIMITS.bytes) throw new ImportError(`Too large: a project can be imported with at most ${IMPORT_LIMITS.bytes / 1024 / 1024} MB of files.`)
  return prepareImport(Object.entries(unzipped).map(([path, content]) => ({ path, data: content })))
}
