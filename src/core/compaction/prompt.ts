/**
 * What the summariser is asked, in our own words, following opencode's anchored structure: a fixed skeleton the
 * summary must reproduce, so a later compaction can update it section by section instead of summarising a summary.
 */
export const SUMMARY_TEMPLATE = [
  '## Objective',
  '<what the user wants achieved, in one or two sentences>',
  '',
  '## Important Details',
  '- <constraints and preferences the user stated, decisions taken and why, facts found, exact context needed later>',
  '',
  '## Work State',
  '### Completed',
  '- <what is done, with its outcome>',
  '### Active',
  '- <what was in progress when the history ends>',
  '### Blocked',
  '- <what cannot go on, and what it waits for>',
  '',
  '## Next Move',
  '1. <the next action>',
  '2. <an optional second action>',
  '',
  '## Relevant Files',
  '- <path>: <why it matters>',
].join('\n')

const RULES = [
  'Rules:',
  '- Reproduce every heading of the template, in that order; write "(none)" under a heading with nothing to say.',
  '- Replace each <...> placeholder with content; do not copy the placeholders.',
  '- Use short bullets, not prose.',
  '- Keep exact file paths, symbol names, commands, error messages, URLs and identifiers exactly as written.',
  '- Do not mention that this is a summary, or that the conversation was shortened.',
  '- Write in the language of the conversation.',
].join('\n')

/**
 * The final user message of the summariser's request. Without a previous summary it asks for a new one from the
 * history above; with one, for that summary brought up to date with the history that followed it.
 */
export function compactionPrompt(input: { previousSummary?: string } = {}): string {
  const previous = input.previousSummary?.trim()
  const opening = previous
    ? [
        'Update the anchored summary below with the conversation above, which came after it.',
        'Keep every detail that is still true, drop what the newer messages made stale, and merge in the new facts,',
        'decisions and progress. Answer with the whole updated summary, not only the changes.',
        '',
        '<previous-summary>',
        previous,
        '</previous-summary>',
      ].join('\n')
    : 'Write an anchored summary of the conversation above, for the agent that will continue this work without it.'
  return [opening, '', 'Use exactly this structure:', '', SUMMARY_TEMPLATE, '', RULES].join('\n')
}

/** Said first to a summariser whose context could not take the whole history. */
export function omittedMessagesNote(count: number): string {
  return `The ${count} oldest ${count === 1 ? 'message' : 'messages'} of this conversation ${count === 1 ? 'was' : 'were'} left out here: the history is larger than your context. Summarise what follows.`
}

/** What the agent is told after an automatic compaction when there is no prompt to replay. */
export const CONTINUE_TEXT = 'Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.'

/** Said first, after an overflow compaction without a replay: attachments were what made the history too big. */
export const MEDIA_REMOVED_TEXT =
  'The previous request was too large for the model\'s context, most likely because of attached files or images; ' +
  'they were removed from the history and replaced by a note naming each one.'

/** The summariser's own overflow: when a prompt was to be replayed, and otherwise. */
export const HISTORY_TOO_LARGE = 'The conversation history is too large to summarise: it exceeds the model\'s context limit.'
export const SESSION_TOO_LARGE = 'This session is too large to summarise: it exceeds the model\'s context limit even without attachments.'

/** The bounded error (better than opencode, which compacts again without end). */
export function stillOverflowing(detail?: string): string {
  return [
    'Still over the model\'s context after compacting' + (detail ? ` (${detail})` : '') + '.',
    'Branch from a recent message into a new session, or choose a model with a larger context.',
  ].join(' ')
}

/** The overflow error when automatic compaction is off: what happened and what the user can do. */
/** The first prompt alone overflowed: there is no history a summary could shrink. */
export function promptTooLarge(detail: string): string {
  return [
    `This prompt alone does not fit the model's context (${detail}).`,
    'There is no earlier conversation to compact: shorten the prompt, or choose a model with a larger context.',
  ].join(' ')
}

export function overflowWithoutAuto(detail: string): string {
  return [
    `The conversation no longer fits the model's context (${detail}).`,
    'Automatic compaction is off: compact the session now, branch from a recent message into a new session, or',
    'choose a model with a larger context.',
  ].join(' ')
}

/** The note a file or image becomes when media are stripped. */
export const attachedNote = (mime: string, filename?: string) => `[Attached ${mime}: ${filename || 'file'}]`
