import { z } from 'zod'
import { defineTool } from './tool'

/** A subagent the task tool can start: its name (the `subagent_type`) and when to use it. */
export interface SubagentInfo {
  name: string
  description: string
}

/** opencode's built-in subagents. */
export const DEFAULT_SUBAGENTS: readonly SubagentInfo[] = [
  {
    name: 'general',
    description:
      'General-purpose agent for researching complex questions and executing multi-step tasks. Use this agent to ' +
      'execute multiple units of work in parallel.',
  },
  {
    name: 'explore',
    description:
      'Fast agent specialized for exploring codebases. Use this when you need to quickly find files by patterns ' +
      '(eg. "src/components/**/*.tsx"), search code for keywords (eg. "API endpoints"), or answer questions about ' +
      'the codebase (eg. "how do API endpoints work?"). When calling this agent, specify the desired thoroughness ' +
      'level: "quick" for basic searches, "medium" for moderate exploration, or "very thorough" for comprehensive ' +
      'analysis across multiple locations and naming conventions.',
  },
]

/** The task tool's description over `subagents`: the model picks one by what it says here. */
export function describeTask(subagents: readonly SubagentInfo[]): string {
  return [
    'Launch a new agent to handle complex, multistep tasks autonomously.',
    '',
    'Available agent types and the tools they have access to:',
    ...subagents.map((agent) => `- ${agent.name}: ${agent.description || 'This subagent should only be called manually by the user.'}`),
    '',
    'When using the task tool, you must specify a subagent_type parameter to select which agent type to use.',
    '',
    'When NOT to use the task tool:',
    '- If you want to read a specific file path, use the read or glob tool instead, to find the match more quickly',
    '- If you are searching for a specific class definition like "class Foo", use the glob tool instead',
    '- If you are searching for code within a specific file or set of 2-3 files, use the read tool instead',
    '- Other tasks that are not related to the agent descriptions above',
    '',
    'Usage notes:',
    '1. Launch multiple agents concurrently whenever possible, to maximize performance; to do that, use a single ' +
      'message with multiple tool uses',
    '2. When the agent is done, it will return a single message back to you. The result returned by the agent is not ' +
      'visible to the user. To show the user the result, you should send a text message back to the user with a ' +
      'concise summary of the result. The output includes a task_id you can reuse later to continue the same ' +
      'subagent session.',
    '3. Each agent invocation starts with a fresh context unless you provide task_id to resume the same subagent ' +
      'session. When starting fresh, your prompt should contain a highly detailed task description for the agent to ' +
      'perform autonomously and you should specify exactly what information the agent should return back to you in ' +
      'its final and only message to you.',
    "4. The agent's outputs should generally be trusted",
    '5. Clearly tell the agent whether you expect it to write code or just to do research (search, file reads, web ' +
      'fetches, etc.), since it is not aware of the user\'s intent. Tell it how to verify its work if possible.',
    '6. If the agent description mentions that it should be used proactively, then you should try your best to use ' +
      'it without the user having to ask for it first. Use your judgement.',
  ].join('\n')
}

/**
 * The task tool over the subagents the calling agent may start (opencode lists the non-primary agents the caller's
 * rules do not deny). The subagent runs as a child session through `context.subtask`; stopping the parent turn must
 * stop the child, so whoever implements `subtask` ties the child run to the calling turn's abort signal (the tool
 * has nothing to pass: `SubtaskRequest` carries no signal).
 */
export function makeTaskTool(subagents: readonly SubagentInfo[]) {
  const names = subagents.map((agent) => agent.name)
  return defineTool({
    id: 'task',
    description: describeTask(subagents),
    parameters: z.object({
      description: z.string().describe('A short (3-5 words) description of the task'),
      prompt: z.string().describe('The task for the agent to perform'),
      subagent_type: z.string().describe('The type of specialized agent to use for this task'),
      task_id: z
        .string()
        .optional()
        .describe(
          'This should only be set if you mean to resume a previous task (you can pass a prior task_id and the task ' +
            'will continue the same subagent session as before instead of creating a fresh one)',
        ),
    }),
    async execute(input, context) {
      const available = context.subagents?.map((agent) => agent.name) ?? names
      if (!available.includes(input.subagent_type)) {
        throw new Error(
          `Unknown agent type: ${input.subagent_type} is not a valid agent type. Available: ${available.join(', ') || 'none'}.`,
        )
      }
      await context.ask({
        permission: 'task',
        patterns: [input.subagent_type],
        always: ['*'],
        metadata: { description: input.description, subagent_type: input.subagent_type },
      })
      context.progress({ title: input.description, metadata: { agent: input.subagent_type } })
      const result = await context.subtask({
        agent: input.subagent_type,
        description: input.description,
        prompt: input.prompt,
        ...(input.task_id ? { sessionID: input.task_id } : {}),
      })
      // opencode 1.18's shape: the child's id and state around its final text (the id continues it as task_id).
      const output = [`<task id="${result.sessionID}" state="completed">`, '<task_result>', result.output, '</task_result>', '</task>'].join('\n')
      return {
        title: input.description,
        output,
        metadata: { parentSessionId: context.sessionID, sessionId: result.sessionID, ...(result.model ? { model: result.model } : {}), truncated: false },
      }
    },
  })
}

/** The task tool with opencode's built-in subagents, general and explore. */
export const taskTool = makeTaskTool(DEFAULT_SUBAGENTS)
