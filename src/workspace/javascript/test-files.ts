import { resolvePath } from '../path'
import type { MemoryFs } from './memory-fs'

const SCRIPT = /\.(c|m)?js$/
// Node 20's naming convention for `node --test`: test.js, test-*.js, *.test.js, *-test.js, *_test.js.
const TEST_NAME = /^(test|test-.+|.+[.\-_]test)\.(c|m)?js$/

export type TestFiles = { kind: 'files'; files: string[] } | { kind: 'error'; message: string }

/**
 * The files `node --test` runs, found as Node 20 finds them: every path given (a file as it is, a folder searched),
 * or the working folder when none is; in a search, scripts named like tests and every script under a `test`
 * folder, never inside `node_modules`. Sorted, as Node runs them.
 */
export function findTestFiles(fs: MemoryFs, cwd: string, paths: string[]): TestFiles {
  const found = new Set<string>()
  for (const given of paths.length ? paths : ['.']) {
    const path = resolvePath(cwd, given)
    if (!fs.exists(path)) return { kind: 'error', message: `Could not find '${path}'\n` }
    if (fs.stat(path).type === 'file') found.add(path)
    else search(fs, path, false, found)
  }
  return { kind: 'files', files: [...found].sort() }
}

function search(fs: MemoryFs, directory: string, underTest: boolean, found: Set<string>): void {
  for (const name of fs.list(directory)) {
    const path = directory === '/' ? `/${name}` : `${directory}/${name}`
    if (fs.stat(path).type === 'directory') {
      if (name !== 'node_modules') search(fs, path, underTest || name === 'test', found)
    } else if ((underTest && SCRIPT.test(name)) || TEST_NAME.test(name)) found.add(path)
  }
}
