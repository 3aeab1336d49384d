import { defineError } from './errors'

/*
 * opencode's `question` tool: the shapes the tool, the ask service and the dialog share, and the pure rules over
 * them. No zod here: the page imports this file and must not pull zod into its bundle (the tool's schema is in
 * `question-schema.ts`).
 */

/** The permission key of a question ask; its `metadata.questions` holds what is asked. */
export const QUESTION_PERMISSION = 'question'

export interface QuestionOption {
  label: string
  description: string
}

export interface Question {
  question: string
  header: string
  options: QuestionOption[]
  multiple?: boolean | undefined
}

/** One list of chosen labels (or typed text) per question, in the questions' order. */
export type QuestionAnswers = string[][]

/** The answers do not fit the questions (a count mismatch, two answers to a single-choice question, a blank one). */
export const QuestionAnswerError = defineError('QuestionAnswerError', (question: number, reason: string) => ({
  message: `Answer ${question + 1}: ${reason}`,
  data: { question, reason },
}))

/** The user dismissed the questions: the model reads this, and the turn stops after the step (opencode's RejectedError). */
export const QuestionRejectedError = defineError('QuestionRejectedError', (askID: string | undefined) => ({
  message: 'The user dismissed this question',
  data: { askID },
}))

/** The questions an ask carries, or undefined when it is not a question (or its metadata is not readable as one). */
export function askedQuestions(ask: { permission: string; metadata: Record<string, unknown> }): Question[] | undefined {
  if (ask.permission !== QUESTION_PERMISSION) return undefined
  const questions = ask.metadata.questions
  if (!Array.isArray(questions)) return undefined
  return questions.every(isQuestion) ? questions : undefined
}

function isQuestion(value: unknown): value is Question {
  if (!value || typeof value !== 'object') return false
  const candidate = value as Partial<Question>
  return (
    typeof candidate.question === 'string' &&
    typeof candidate.header === 'string' &&
    Array.isArray(candidate.options) &&
    candidate.options.every((option) => typeof option?.label === 'string' && typeof option.description === 'string')
  )
}

/**
 * Throws a `QuestionAnswerError` unless there is one answer list per question, each of non-blank entries, and a
 * question that is not `multiple` has at most one. An empty list is allowed: the question stays unanswered, as in
 * opencode. Typed text is accepted for any question (the user may always answer in their own words).
 */
export function validateAnswers(questions: readonly Question[], answers: QuestionAnswers): void {
  if (answers.length !== questions.length) {
    throw new QuestionAnswerError(Math.min(answers.length, questions.length), `expected ${questions.length} answer lists (one per question), got ${answers.length}.`)
  }
  questions.forEach((question, index) => {
    const answer = answers[index]!
    if (answer.some((entry) => entry.trim() === '')) throw new QuestionAnswerError(index, 'an answer is blank.')
    if (!question.multiple && answer.length > 1) {
      throw new QuestionAnswerError(index, `"${question.question}" takes one answer, got ${answer.length}.`)
    }
  })
}

/** What the model reads once the user has answered (opencode's wording: answers of one question joined by ", "). */
export function answeredOutput(questions: readonly Question[], answers: QuestionAnswers): string {
  const pairs = questions.map((question, index) => {
    const answer = answers[index] ?? []
    return `"${question.question}"="${answer.length > 0 ? answer.join(', ') : 'Unanswered'}"`
  })
  return `User has answered your questions: ${pairs.join(', ')}. You can now continue with the user's answers in mind.`
}
