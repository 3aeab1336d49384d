import { defineError } from '../errors'

/** Compared by name on the page: an error rebuilt on the other side of postMessage is a plain AppError. */
export const COMMAND_CONFIRMATION = 'CommandConfirmationError'

/** A project command that would run under another agent or model than the prompt box's, as its file says. */
export interface CommandSwitch extends Record<string, unknown> {
  /** The command's name, without its `/`. */
  name: string
  /** The agent it runs as, when that is not the one picked. */
  agent?: string
  /** Its `provider/model`, when a configured provider offers it and it is not the one picked. */
  model?: string
}

/**
 * A project the user has not trusted named another agent or model for one of its commands: nothing was stored, and
 * the page asks the user to confirm (then sends again with `PromptInput.command`), so a `/review` cannot quietly run
 * as an agent other than the one the picker shows.
 */
export const CommandConfirmationError = defineError(COMMAND_CONFIRMATION, (change: CommandSwitch) => {
  const under = [change.agent ? `the ${change.agent} agent` : '', change.model ? `the model ${change.model}` : ''].filter(Boolean).join(' and ')
  return { message: `/${change.name} would run with ${under} instead of what the prompt box shows: confirm it to send it.`, data: change }
})

/** Whether the user confirmed exactly this switch (the file may have changed since the page asked). */
export function confirmsSwitch(confirmed: CommandSwitch | undefined, change: CommandSwitch): boolean {
  return !!confirmed && confirmed.name === change.name && confirmed.agent === change.agent && confirmed.model === change.model
}

/** The switch a `CommandConfirmationError` (rebuilt on the page as a plain AppError) asks about, if it is one. */
export function commandSwitchOf(error: unknown): CommandSwitch | undefined {
  if (!(error instanceof Error) || error.name !== COMMAND_CONFIRMATION) return undefined
  const data = (error as { data?: unknown }).data
  if (!data || typeof data !== 'object' || typeof (data as { name?: unknown }).name !== 'string') return undefined
  const { name, agent, model } = data as Record<string, unknown>
  return { name: name as string, ...(typeof agent === 'string' ? { agent } : {}), ...(typeof model === 'string' ? { model } : {}) }
}
