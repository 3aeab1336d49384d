import { z } from 'zod'
import { defineTool } from './tool'

/** Where calls to tools that don't exist (or whose input could not be read) are routed, so the model sees why. */
export const invalidTool = defineTool({
  id: 'invalid',
  description: 'Do not use this tool.',
  parameters: z.object({ tool: z.string(), error: z.string() }),
  async execute(input) {
    return {
      title: 'Invalid tool call',
      output: `The arguments provided to the tool are invalid: ${input.error}`,
      metadata: { tool: input.tool },
    }
  },
})
