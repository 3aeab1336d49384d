import { createMemoryWorkspace } from '../../local/testing/memory-workspace'
import type { LocalWorkspace } from '../../local/stored-workspace'
import type { GitRemotes } from '../../runtime/program'
import { runGitCommand } from '../cli'
import '../../buffer'

/** 2026-03-04 05:06:07 UTC: a fixed clock, so commit ids and dates are the same on every run. */
export const FIXED_NOW = Date.UTC(2026, 2, 4, 5, 6, 7)

export interface GitRun {
  stdout: string
  stderr: string
  exitCode: number
}

/** Splits a command line on spaces, keeping "double-quoted" words whole: enough for the tests' git commands. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!)
}

/** A repository-less project in memory and a `git` to run in it, as the shell would run it. */
export function gitProject(files: Record<string, string> = {}, options: { env?: Record<string, string>; remotes?: GitRemotes } = {}) {
  const workspace: LocalWorkspace = createMemoryWorkspace(files)
  let tick = 0
  const git = async (line: string, at: { cwd?: string; signal?: AbortSignal } = {}): Promise<GitRun> => {
    const run: GitRun = { stdout: '', stderr: '', exitCode: 0 }
    // A second per command, as commits made by hand are apart.
    const time = FIXED_NOW + 1000 * tick++
    const result = await runGitCommand(
      {
        argv: ['git', ...words(line)],
        cwd: at.cwd ?? '/workspace',
        env: options.env ?? {},
        stdin: '',
        files: workspace,
        signal: at.signal ?? new AbortController().signal,
        onStdout: (chunk) => (run.stdout += chunk),
        onStderr: (chunk) => (run.stderr += chunk),
        ...(options.remotes ? { remotes: options.remotes } : {}),
      },
      { now: () => time },
    )
    run.exitCode = result.exitCode
    return run
  }
  const write = (path: string, content: string) => workspace.writeFile(`/workspace/${path}`, content)
  const read = (path: string) => workspace.readText(`/workspace/${path}`)
  const exists = async (path: string) => (await workspace.stat(`/workspace/${path}`)) !== undefined
  return { workspace, git, write, read, exists }
}

/** Who the tests' commits are by: git refuses a commit by nobody, as it does on a machine with no identity. */
export const TEST_IDENTITY = { name: 'Test Author', email: 'author@example.org' }
/** The same identity through the environment, for a project that commits before it has a config. */
export const TEST_IDENTITY_ENV = {
  GIT_AUTHOR_NAME: TEST_IDENTITY.name,
  GIT_AUTHOR_EMAIL: TEST_IDENTITY.email,
  GIT_COMMITTER_NAME: TEST_IDENTITY.name,
  GIT_COMMITTER_EMAIL: TEST_IDENTITY.email,
}

/** A project with one commit of `files` (`first`), by `TEST_IDENTITY` unless the environment says otherwise. */
export async function committedProject(files: Record<string, string>, options?: { env?: Record<string, string>; remotes?: GitRemotes }) {
  const project = gitProject(files, options)
  await project.git('init')
  await project.git(`config user.name "${TEST_IDENTITY.name}"`)
  await project.git(`config user.email ${TEST_IDENTITY.email}`)
  await project.git('add .')
  await project.git('commit -m first')
  return project
}
