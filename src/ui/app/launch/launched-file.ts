/**
 * What a file the system opened with tabcode is (its manifest's file handlers: exported sessions and zips), by its
 * name and type only: the import itself validates the content, and refuses what is not a session or backup.
 */
export type LaunchedFileKind = 'session' | 'zip' | 'other'

export function kindOfLaunchedFile(file: { name: string; type: string }): LaunchedFileKind {
  const name = file.name.toLowerCase()
  if (name.endsWith('.json') || file.type === 'application/json') return 'session'
  if (name.endsWith('.zip') || file.type === 'application/zip' || file.type === 'application/x-zip-compressed') return 'zip'
  return 'other'
}

/** The sentence for a file tabcode was asked to open but does not open. */
export function notOpenedText(name: string): string {
  return `tabcode opens exported sessions (.json) and zip archives (.zip); “${name}” is neither, so it was not opened.`
}
