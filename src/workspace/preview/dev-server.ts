/** Why a project wants a dev server rather than a static preview, or undefined when a static preview should do. */
export type DevServerNeed = { type: 'script'; script: 'dev' | 'start' | 'build'; command: string } | { type: 'packages'; names: string[] }

/**
 * Reads a `package.json` (its text, or undefined when there is none): a `dev`, `start` or `build` script means the
 * project is meant to be built or served by a tool, which only WebContainer runs. Broken JSON is no evidence.
 */
export function devServerNeed(packageJson: string | undefined, bareImports: readonly string[] = []): DevServerNeed | undefined {
  if (packageJson !== undefined) {
    let scripts: unknown
    try {
      const parsed: unknown = JSON.parse(packageJson)
      scripts = typeof parsed === 'object' && parsed !== null && 'scripts' in parsed ? parsed.scripts : undefined
    } catch {
      scripts = undefined
    }
    if (typeof scripts === 'object' && scripts !== null) {
      for (const script of ['dev', 'start', 'build'] as const) {
        if (typeof (scripts as Record<string, unknown>)[script] === 'string') return { type: 'script', script, command: script === 'start' ? 'npm start' : `npm run ${script}` }
      }
    }
  }
  if (bareImports.length > 0) return { type: 'packages', names: [...new Set(bareImports)] }
  return undefined
}
