import { QuestionParametersSchema } from '../core/question-schema'
import { PermissionRejectedError } from '../core/permission/errors'
import { answeredOutput, QUESTION_PERMISSION, QuestionRejectedError } from '../core/question'
import { defineTool } from './tool'

/**
 * opencode's `question`: puts one or more multiple-choice questions to the user and waits for the answers. It goes
 * through the ask machinery (any tab answers it, it survives a reload of another tab); a dismissed question
 * rejects like a permission reject, which ends the turn after the step.
 */
export const questionTool = defineTool({
  id: 'question',
  description: [
    'Use this tool when you need to ask the user questions during execution. This lets you gather preferences or',
    'requirements, clarify ambiguous instructions, get decisions on implementation choices as you work, and offer',
    'choices about what direction to take. The user can always type a custom answer instead of picking an option.',
    'Set multiple to true to allow more than one choice. If you recommend an option, make it the first one and add',
    '"(Recommended)" to its label.',
  ].join(' '),
  parameters: QuestionParametersSchema,
  async execute(input, context) {
    const { questions } = input
    context.progress({ metadata: { questions } })
    const reply = await context
      .ask({ permission: QUESTION_PERMISSION, patterns: ['*'], always: [], metadata: { questions } })
      .catch((error: unknown) => {
        // A dismissal is worded for a question, not a permission; it still ends the turn after the step.
        if (PermissionRejectedError.isInstance(error)) throw new QuestionRejectedError(error.data.askID)
        throw error
      })
    const answers = reply && reply.type === 'answer' ? reply.answers : questions.map(() => [])
    const count = questions.length
    return {
      title: `Asked ${count} question${count === 1 ? '' : 's'}`,
      output: answeredOutput(questions, answers),
      metadata: { questions, answers },
    }
  },
})
