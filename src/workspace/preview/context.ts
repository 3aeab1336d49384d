/** What the rewriters share while one preview is built: the project's files (read once each) and the problems found. */

export type PreviewProblemType =
  /** A referenced file is not in the project. */
  | 'missing'
  /** An npm package imported by name (`import 'react'`): only a bundler or a dev server resolves those. */
  | 'bare-import'
  /** A file from another host: the preview loads nothing from the network. */
  | 'external'
  /** A module a browser cannot import as it is (TypeScript, JSX, CSS without `with { type: 'css' }`). */
  | 'not-a-module'
  /** `import(name)` with a name computed at run time: the files it may load cannot be known in advance. */
  | 'computed-import'
  /** A module the lexer could not read (the browser reports the error itself when it runs). */
  | 'syntax'
  /** A style sheet that imports itself, directly or through others. */
  | 'import-cycle'

export interface PreviewProblem {
  type: PreviewProblemType
  /** The project file holding the reference (`/index.html`, `/src/main.js`). */
  file: string
  /** The reference as written there. */
  reference: string
  message: string
}

/** Reads a project file by its project-absolute path (`/src/util.js`); undefined when there is no such file. */
export type ReadFile = (path: string) => Promise<Uint8Array | undefined>

export interface BuildContext {
  read: ReadFile
  report(problem: PreviewProblem): void
}

export function createContext(read: ReadFile): { context: BuildContext; problems: PreviewProblem[]; files: Set<string> } {
  const cache = new Map<string, Promise<Uint8Array | undefined>>()
  const problems: PreviewProblem[] = []
  const seen = new Set<string>()
  const files = new Set<string>()
  return {
    problems,
    files,
    context: {
      read(path) {
        files.add(path)
        let bytes = cache.get(path)
        if (!bytes) cache.set(path, (bytes = read(path)))
        return bytes
      },
      report(problem) {
        // A file used in ten places is missing once.
        const key = `${problem.type}\u0000${problem.file}\u0000${problem.reference}`
        if (seen.has(key)) return
        seen.add(key)
        problems.push(problem)
      },
    },
  }
}
