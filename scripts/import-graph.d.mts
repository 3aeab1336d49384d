// Types for scripts/import-graph.mjs (imported by the layers test, which tsc checks).
export type ImportKind = 'static' | 'type' | 'dynamic'
export interface FileImport {
  specifier: string
  line: number
  kind: ImportKind
  /** Offsets of the string literal in the file, quotes included. */
  start: number
  end: number
}
export interface ImportEdge extends FileImport {
  /** The absolute path of the imported file. */
  to: string
}
export declare function sourceFiles(root: string, options?: { includeTests?: boolean }): string[]
export declare function resolveSpecifier(from: string, specifier: string): string | undefined
export declare function fileImports(file: string): FileImport[]
export declare function importGraph(root: string, options?: { includeTests?: boolean }): Map<string, ImportEdge[]>
export declare function display(root: string, file: string): string
