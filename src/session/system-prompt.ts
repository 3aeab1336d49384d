import type { Agent } from './agent'

export interface Environment {
  providerID: string
  modelID: string
  directory: string
  /** Which workspace backend the tools run on, or none yet. */
  backend: string
  now: number
}

/** The system prompt: the agent's instructions, then the facts of where it runs (opencode's environment block). */
export function systemPrompt(agent: Agent, environment: Environment, instructions: string[] = []): string {
  const date = new Date(environment.now).toDateString()
  const block = [
    'Here is useful information about the environment you are running in:',
    '<env>',
    `  Model: ${environment.modelID} (provider ${environment.providerID})`,
    `  Workspace root: ${environment.directory}`,
    `  Workspace backend: ${environment.backend}`,
    '  Platform: a web browser tab (tabcode)',
    `  Today's date: ${date}`,
    '</env>',
  ].join('\n')
  return [agent.prompt, block, ...instructions].join('\n\n')
}
