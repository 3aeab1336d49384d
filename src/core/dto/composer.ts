/** A file or folder the `@` popup offers; folders end in `/`, paths are relative to the workspace root. */
export interface ProjectFileMatch {
  type: 'file' | 'directory'
  path: string
}
