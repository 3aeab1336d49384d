import type { Program } from '../runtime/program'

/** Commands that run one of our runtimes (lazy: each is imported on its first use). */
export const PROGRAMS: Record<string, () => Promise<Program>> = {
  python: async () => (await import('../python/index')).runPython,
  python3: async () => (await import('../python/index')).runPython,
  // pip installs from tabcode's offline set of pure-Python wheels, and says plainly what it cannot install.
  pip: async () => (await import('../python/index')).runPip,
  pip3: async () => (await import('../python/index')).runPip,
  pytest: async () => (await import('../python/index')).runPytest,
  node: async () => (await import('../javascript/index')).runNode,
  nodejs: async () => (await import('../javascript/index')).runNode,
  git: async () => (await import('../git/index')).runGit,
}

/** Package managers need a real Node: the shell says so plainly rather than pretend (npm scripts aside, see npm-command.ts). */
export const NEEDS_WEBCONTAINER = ['npx', 'yarn', 'pnpm']
