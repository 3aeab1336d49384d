import { errorMessage } from '../kit/format/error'
import { formatNumber } from '../kit/format/number'

/** Where the untrusted input came from: the words differ ("this link" / "this file"), the problems do not. */
export type ImportSource = 'link' | 'file'

/** A failed opening, worded for the person who pasted the link or picked the file. */
export interface ImportProblem {
  /** The worker's stable error name (ImportCorruptError, …), or `Error` for anything unnamed. */
  name: string
  /** Names the problem in a few words: the alert's first sentence. */
  headline: string
  /** What to do next, and the reassurance that nothing was written. */
  advice: string
}

const NOTHING_WRITTEN = 'Nothing was imported.'

/**
 * Turns the worker's named import errors into their own sentences. The worker's messages say "this link or file";
 * here the user knows which one they gave, and each problem gets the next step that fits it.
 */
export function describeImportProblem(error: unknown, source: ImportSource): ImportProblem {
  const name = error instanceof Error ? error.name : 'Error'
  const data = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data ? (error.data as Record<string, unknown>) : {}
  const thing = `This ${source}`
  const redo = source === 'link' ? 'Ask for the link again.' : 'Export the file again.'
  switch (name) {
    case 'ImportCorruptError':
      return { name, headline: `${thing} is damaged`, advice: `It cannot be read. ${redo} ${NOTHING_WRITTEN}` }
    case 'ImportTruncatedError':
      return {
        name,
        headline: `${thing} is incomplete (it was cut off)`,
        advice: source === 'link' ? `Copy the whole link again. ${NOTHING_WRITTEN}` : `The file ends early. ${redo} ${NOTHING_WRITTEN}`,
      }
    case 'ImportTooLargeError': {
      const what = typeof data.what === 'string' ? data.what : 'its content'
      const limit = typeof data.limit === 'number' ? formatNumber(data.limit) : undefined
      const over = limit ? `${capitalise(what)} is over the limit of ${limit}.` : 'It is over what an import may hold.'
      return { name, headline: `${thing} is too large`, advice: `${over} ${NOTHING_WRITTEN}` }
    }
    case 'ImportPassphraseRequiredError':
      return { name, headline: `${thing} is protected by a passphrase`, advice: 'Enter the passphrase to open it.' }
    case 'ImportWrongPassphraseError':
      return { name, headline: 'Wrong passphrase', advice: `Check it and try again. ${NOTHING_WRITTEN}` }
    case 'ImportNewerVersionError':
      return {
        name,
        headline: `${thing} was made by a newer version of tabcode`,
        advice: `Update tabcode (reload the page when an update is offered) to open it. ${NOTHING_WRITTEN}`,
      }
    case 'ImportInvalidError': {
      const issues = typeof data.issues === 'string' && data.issues ? ` (${data.issues})` : ''
      return { name, headline: `${thing}'s content is not valid`, advice: `It does not hold a tabcode session${issues}. ${NOTHING_WRITTEN}` }
    }
    default:
      return { name, headline: `Couldn't open ${source === 'link' ? 'the link' : 'the file'}`, advice: errorMessage(error) }
  }
}

/** The alert's text: the headline, then the advice. */
export function importProblemText(problem: ImportProblem): string {
  return `${problem.headline}. ${problem.advice}`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
