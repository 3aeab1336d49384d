
/** What the index knows of a path of the folder: a file's size and time as last read from disk. */
export type DiskEntry = { type: 'file'; path: string; size: number; modified: number } | { type: 'directory'; path: string; modified: number }
export type DiskFile = Extract<DiskEntry, { type: 'file' }>

/** A file's contents are kept under its path, size and time, so a file changed on disk is read again. */
export function cacheKey(file: DiskFile): string {
  return `${file.path}\0${file.size}\0${file.modified}`
}
