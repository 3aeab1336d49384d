import { z } from 'zod'

/** The `question` tool's input, as opencode's (the model reads these descriptions). */
export const QuestionOptionSchema = z.object({
  label: z.string().min(1).describe('Display text (1-5 words, concise)'),
  description: z.string().describe('Explanation of the choice'),
})

export const QuestionSchema = z.object({
  question: z.string().min(1).describe('The complete question'),
  header: z.string().describe('Very short label (max 30 chars)'),
  options: z.array(QuestionOptionSchema).describe('The available choices'),
  multiple: z.boolean().optional().describe('Allow selecting more than one choice'),
})

export const QuestionParametersSchema = z.object({
  questions: z.array(QuestionSchema).min(1).describe('The questions to ask'),
})
