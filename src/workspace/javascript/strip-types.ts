import { transform } from 'sucrase'

/**
 * A TypeScript file as JavaScript, the way Node's `--experimental-strip-types` runs it: types removed, everything
 * else (imports, line numbers) kept, so errors point at the lines of the file as written.
 */
export function stripTypes(source: string, path: string): string {
  return transform(source, {
    transforms: path.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
    filePath: path,
    disableESTransforms: true,
  }).code
}
