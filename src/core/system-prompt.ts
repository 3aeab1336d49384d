import { BUILD_SWITCH_REMINDER, PLAN_REMINDER, type Agent } from './agent'
import { dateText } from './context-dates'

export interface Environment {
  providerID: string
  /** The provider's display name, when known; the id is shown otherwise. */
  providerName?: string
  modelID: string
  /** The workspace root, where the project's files live (e.g. `/workspace`). */
  directory: string
  /** Which workspace backend the tools run on: `local` or `webcontainer` (anything else is shown as it is). */
  backend: string
  /** Why this backend and not WebContainer, in words (WorkspaceInfo.reason). */
  backendReason?: string
  /** The date the block names: the day the history began (`contextDates`), so it stays the same across days. */
  now: number
}

export interface ProjectContext {
  /** The contents of the project's AGENTS.md, when it has one. */
  agentsMd?: string
  /** Where that file is, for the heading; `AGENTS.md` at the workspace root by default. */
  agentsMdPath?: string
  /** Other instructions, each added as it is after AGENTS.md. */
  instructions?: string[]
}

const BACKEND_NOTES: Record<string, string> = {
  webcontainer: 'WebContainer (Node.js and npm run inside this browser tab; there is no OS shell beyond it)',
  local:
    'local (an offline bash with the usual Unix text tools, over files stored in this browser; python3 (Pyodide: the standard ' +
    "library, plus pytest and what pip can install from tabcode's offline set of wheels), node (CommonJS, ES modules " +
    'and TypeScript, no npm packages) and git run offline; npm, npx, yarn and ' +
    'pnpm start WebContainer when it is available; commands have no network access)',
}

/**
 * The system prompt, in opencode's order: the agent's prompt, the environment block, the project's
 * instructions (AGENTS.md). A pure function of its inputs: the loop reads AGENTS.md through the workspace and passes
 * it in. The mode reminder is not here: as in opencode it goes on the request's last user message (`modeReminder`),
 * so switching between plan and build leaves the system prompt, and the provider's cache of it, as it was.
 */
export function systemPrompt(agent: Agent, environment: Environment, context: ProjectContext | string[] = {}): string {
  // A bare list is the older form: instructions already worded, AGENTS.md among them.
  const project: ProjectContext = Array.isArray(context) ? { instructions: context } : context
  const sections = [agent.prompt, environmentBlock(environment)]
  const agentsMd = project.agentsMd?.trim()
  if (agentsMd) sections.push(`Instructions from: ${project.agentsMdPath ?? 'AGENTS.md'}\n${agentsMd}`)
  for (const text of project.instructions ?? []) if (text.trim()) sections.push(text.trim())
  return sections.join('\n\n')
}

/** The reminder an agent's turn carries, if any: read-only for plan, "you may edit again" for build after plan. */
export function modeReminder(agent: string, previousAgent?: string): string | undefined {
  if (agent === 'plan') return PLAN_REMINDER
  if (agent === 'build' && previousAgent === 'plan') return BUILD_SWITCH_REMINDER
  return undefined
}

/** Where the agent runs: model, workspace, backend, platform and date (opencode's `<env>` block). */
export function environmentBlock(environment: Environment): string {
  const date = dateText(environment.now)
  const backend = BACKEND_NOTES[environment.backend] ?? environment.backend
  return [
    'Here is useful information about the environment you are running in:',
    '<env>',
    `  Model: ${environment.modelID} (provider ${environment.providerName ?? environment.providerID})`,
    `  Workspace root: ${environment.directory}`,
    `  Workspace backend: ${backend}`,
    ...(environment.backendReason ? [`  Why this backend: ${environment.backendReason}`] : []),
    '  Platform: browser (tabcode runs in a web browser tab, not on the user\'s operating system)',
    `  Today's date: ${date}`,
    '</env>',
  ].join('\n')
}
