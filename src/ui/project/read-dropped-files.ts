/** A file picked or dropped, with its path inside the folder the user chose. */
export interface PickedFile {
  path: string
  data: Uint8Array
}

/** The files of an `<input type="file" webkitdirectory>` selection, with their paths inside the chosen folder. */
export async function readPickedFiles(files: FileList | File[]): Promise<PickedFile[]> {
  return Promise.all(
    [...files].map(async (file) => ({
      path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
      data: new Uint8Array(await file.arrayBuffer()),
    })),
  )
}

/** Walks a dropped folder (the File System entries API), collecting every file with its relative path. */
export async function readDroppedItems(items: DataTransferItemList): Promise<{ files: PickedFile[]; zip?: Uint8Array }> {
  const entries = [...items].map((item) => item.webkitGetAsEntry?.()).filter((entry): entry is FileSystemEntry => !!entry)
  if (entries.length === 1 && entries[0]!.isFile && entries[0]!.name.toLowerCase().endsWith('.zip')) {
    const file = await fileOf(entries[0] as FileSystemFileEntry)
    return { files: [], zip: new Uint8Array(await file.arrayBuffer()) }
  }
  const files: PickedFile[] = []
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await fileOf(entry as FileSystemFileEntry)
      files.push({ path: `${prefix}${entry.name}`, data: new Uint8Array(await file.arrayBuffer()) })
      return
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader()
    // readEntries hands out a directory in batches; an empty batch means the end.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
      if (batch.length === 0) break
      for (const child of batch) await walk(child, `${prefix}${entry.name}/`)
    }
  }
  for (const entry of entries) await walk(entry, '')
  return { files }
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject))
}
