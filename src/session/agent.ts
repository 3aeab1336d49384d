/** An agent: the prompt and limits a turn runs with. The workspace issue adds plan, subagents and permissions. */
export interface Agent {
  name: string
  description: string
  prompt: string
  /** Most model calls per turn; the last one is told to wrap up. Undefined: no limit. */
  steps?: number
}

const BUILD_PROMPT = [
  'You are tabcode, a coding agent that works inside the user\'s browser tab.',
  'Be concise and direct. Prefer doing the work over describing it. When a task has several steps, keep a todo',
  'list with the todowrite tool and update it as you go. Never invent tool results; if a tool fails, read its',
  'error and adjust. Use Markdown for formatting; put code in fenced blocks with a language.',
].join(' ')

export const AGENTS: Record<string, Agent> = {
  build: { name: 'build', description: 'The default agent: does the work.', prompt: BUILD_PROMPT },
}

export function agentNamed(name: string): Agent {
  return AGENTS[name] ?? AGENTS.build!
}

export const MAX_STEPS_PROMPT = [
  'CRITICAL - MAXIMUM STEPS REACHED.',
  'This is the last step of this turn: tools are disabled from here on, so do not call any.',
  'Reply with text only, in this shape: a summary of what was done; the tasks that remain; your recommendations',
  'for what the user should do next.',
].join(' ')
