import type { ProjectFilesReview, WithheldRule } from '../../core/dto/trust'

/** Said when a project arrives from a zip, a folder or a file. */
export const UNTRUSTED_IMPORT_NOTICE = 'Imported as untrusted: its project files can only ask or deny until you trust it.'

/** What an untrusted project's marker says about its files. */
export function withheldText(count: number): string {
  if (count === 0) return 'Its project files can only ask or deny until you trust it.'
  return `${count} rule${count === 1 ? '' : 's'} from project files ${count === 1 ? 'is' : 'are'} withheld until you trust this project.`
}

/** Why a rule waits for trust, in the user's words. */
export function withheldReason(rule: WithheldRule): string {
  return rule.reason === 'built-in' ? `changes the built-in ${rule.agent} agent` : 'allows without asking'
}

/** The review's other effects, one sentence each: built-in agents the files change, commands that switch agent or model. */
export function otherEffects(review: ProjectFilesReview): string[] {
  return [
    ...review.builtIns.map((entry) => `${entry.path} changes the built-in ${entry.agent} agent: ${entry.changes.join(', ')}.`),
    ...review.commands.map((command) => `/${command.name} (${command.path}) runs with ${runsWith(command)}.`),
  ]
}

/** `the yolo agent and the model openai/gpt-5`, for a command or a confirmation. */
export function runsWith(change: { agent?: string | undefined; model?: string | undefined }): string {
  return [change.agent ? `the ${change.agent} agent` : '', change.model ? `the model ${change.model}` : ''].filter(Boolean).join(' and ')
}
