/** Where opencode keeps a project's agents (both spellings are read, the plural one last so it wins). */
export const AGENT_FOLDERS = ['.opencode/agent', '.opencode/agents'] as const

/** The agent's name from its path inside an agent folder: `review.md` is `review`, `team/review.md` is `team/review`. */
export function agentName(relativePath: string): string {
  return relativePath.replace(/\.md$/i, '')
}

/** The agent a file at `path` (relative to the project root) defines, named as the project's agents are; none outside the agent folders. */
export function agentAt(path: string): string | undefined {
  if (!/\.md$/i.test(path)) return undefined
  const folder = AGENT_FOLDERS.find((candidate) => path.startsWith(`${candidate}/`))
  return folder ? agentName(path.slice(folder.length + 1)) : undefined
}
