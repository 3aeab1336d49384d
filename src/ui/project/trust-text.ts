import type { ProjectFilesReview, WithheldRule } from '../../core/dto/trust'

/** Said when a project arrives from a zip, a folder or a file. */
export const UNTRUSTED_IMPORT_NOTICE = 'Imported as untrusted: its project files can only ask or deny until you trust it.'

/** What an untrusted project's marker says about its files. */
export function withheldText(count: number): string {
  if (count === 0) return 'Its project files can only ask or deny until you trust it.'
  return `${count} rule${count === 1 ? '' : 's'} from project files ${count === 1 ? 'is' : 'are'} withheld until you trust this project.`
}

/** What a trusted project's marker says about the allow rules written into its files since the user saw them. */
export function unreviewedText(count: number): string {
  const rules = count === 1 ? '1 rule' : `${count} rules`
  return `${rules} written into project files since you trusted this project ${count === 1 ? 'waits' : 'wait'} for your review.`
}

/** Why a rule waits for trust, in the user's words. */
export function withheldReason(rule: WithheldRule): string {
  if (rule.reason === 'built-in') return `changes the built-in ${rule.agent} agent`
  if (rule.reason === 'unreviewed') return 'allows without asking; written after you last reviewed this project’s rules'
  return 'allows without asking'
}

/** The ask and deny rules after an allow rule in its file (what it does not allow after all), or a dash for none. */
export function exceptionsText(rule: WithheldRule): string {
  return rule.exceptions.map((entry) => `${entry.permission} ${entry.pattern} ${entry.action}`).join(', ') || '—'
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
