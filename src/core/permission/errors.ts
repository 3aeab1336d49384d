import { AppError, defineError } from '../errors'
import type { PermissionRule } from '../schema'

/*
 * The three ways a permission check fails, worded for the model: each becomes the tool part's error text, which
 * the model reads on its next step (opencode's DeniedError, RejectedError and CorrectedError). Guards compare the
 * `name`, not the class, because an error rebuilt on the other side of postMessage is a plain AppError.
 */


export interface PermissionDeniedData extends Record<string, unknown> {
  permission: string
  /** The pattern of the call that was denied (a path, a command line, a URL). */
  pattern: string
  /** The last matching rule, the one that decided. */
  rule: PermissionRule
  /** Every configured rule for this permission, so the model can see what it may still do. */
  rules: PermissionRule[]
}

/** How a denial's text begins (opencode's words); the card recognises it by this and says it in the user's terms. */
export const DENIED_TEXT = 'The user has specified a rule which prevents you from using this specific tool call: '
/** Where the rules listed for the model begin. */
export const DENIED_RULES_TEXT = '. Here are some of the relevant rules '

const describeRule = (rule: PermissionRule) => `${rule.permission} "${rule.pattern}" → ${rule.action}`

/** A configured rule denies the call; no one was asked. The loop carries on: the model reads the rule and adapts. */
export const PermissionDeniedError = defineError('PermissionDeniedError', (data: PermissionDeniedData) => ({
  message: `${DENIED_TEXT}${describeRule(data.rule)} (for "${data.pattern}")${DENIED_RULES_TEXT}${JSON.stringify(data.rules)}`,
  data,
}))

/** The user said no (to this call, or to another question of the session, which rejects them all). Ends the turn. */
export const PermissionRejectedError = defineError('PermissionRejectedError', (askID: string) => ({
  message: 'The user rejected permission to use this specific tool call.',
  data: { askID },
}))

/** The user said no and said why; the message carries the feedback so the model reads it and carries on. */
export const PermissionCorrectedError = defineError('PermissionCorrectedError', (askID: string, feedback: string) => ({
  message: `The user rejected permission to use this specific tool call with the following feedback: ${feedback}`,
  data: { askID, feedback },
}))

export const PERMISSION_DENIED = PermissionDeniedError.errorName
export const PERMISSION_REJECTED = PermissionRejectedError.errorName
export const PERMISSION_CORRECTED = PermissionCorrectedError.errorName

/** Any of the three, also after a trip through postMessage. */
export function isPermissionError(error: unknown): error is AppError {
  return (
    error instanceof AppError &&
    (error.name === PERMISSION_DENIED || error.name === PERMISSION_REJECTED || error.name === PERMISSION_CORRECTED)
  )
}

/**
 * Whether the failure should end the turn after this step (opencode's `blocked`): only a plain rejection does. A
 * denial by rule and a rejection with feedback leave the model to react.
 */
export function blocksTurn(error: unknown): boolean {
  return PermissionRejectedError.isInstance(error)
}

/** What a check rejects with when the turn is stopped while it waits; named like every other abort in the loop. */
export function permissionAbortError(): Error {
  return Object.assign(new Error('Stopped while waiting for permission'), { name: 'AbortError' })
}
