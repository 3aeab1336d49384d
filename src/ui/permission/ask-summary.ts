import type { PermissionAsk } from '../../core/schema'
import { describeToolChange, type ToolChange } from '../../core/tool-change'

export interface AskSummary {
  title: string
  description: string
  /** The command, diff or URL the question is about, shown as text. */
  detail?: string
  detailLabel: string
  /**
   * The question guards something a wrong Enter would give away (a file that may hold secrets, a fetch that may
   * carry one out): the dialog then focuses Reject, the safe choice, rather than Allow once.
   */
  cautious?: boolean
  /**
   * A tool whose provider defines it (an MCP server's): its description, which is what the user allows, and what
   * changed since the user allowed it before.
   */
  tool?: { description: string; change?: ToolChange }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined)

/** A question in words a person can decide on: what the agent wants to do, and the exact thing it would do. */
export function askSummary(ask: PermissionAsk): AskSummary {
  const first = ask.patterns[0] ?? ''
  const metadata = ask.metadata
  switch (ask.permission) {
    case 'edit':
      return {
        title: `Allow editing ${first}?`,
        description: 'The agent wants to change this file.',
        ...(text(metadata.diff) ? { detail: text(metadata.diff) } : {}),
        detailLabel: 'Proposed change',
      }
    case 'bash':
      return {
        title: 'Allow running this command?',
        description: text(metadata.description) ?? 'The agent wants to run a shell command in the workspace.',
        detail: text(metadata.command) ?? ask.patterns.join('\n'),
        detailLabel: 'Command',
      }
    case 'read':
      return { title: `Allow reading ${first}?`, description: 'This file may hold secrets.', detailLabel: 'File', cautious: true }
    case 'webfetch': {
      const host = text(metadata.host) ?? first
      const url = text(metadata.url) ?? first
      if (metadata.redirect === true) {
        return {
          title: `Follow a redirect from ${host}?`,
          description: `${host} answered with a redirect. The browser does not say where it leads, so following it could send this address to any host.`,
          detail: url,
          detailLabel: 'URL',
          cautious: true,
        }
      }
      return {
        title: `Allow fetching from ${host}?`,
        description: `The agent wants to read a page from ${host}. Whatever is in the address below reaches that host.`,
        detail: url,
        detailLabel: 'URL',
        cautious: true,
      }
    }
    case 'webcontainer':
      return {
        title: 'Start WebContainer for the agent?',
        description: `${text(metadata.program) ?? first} needs Node.js and npm, which run in WebContainer. Commands there can reach any host on the network, and every later command of this project runs there until the page is reloaded.`,
        ...(text(metadata.command) ? { detail: text(metadata.command) } : {}),
        detailLabel: 'Command',
        cautious: true,
      }
    case 'external_directory':
      return {
        title: 'Allow access outside the project?',
        description: `The agent wants to touch ${first}, which is outside the project folder.`,
        detailLabel: 'Path',
      }
    case 'doom_loop':
      return {
        title: 'The agent is repeating itself',
        description: `It called ${text(metadata.tool) ?? 'the same tool'} three times in a row with the same input. Let it go on?`,
        ...(metadata.input !== undefined ? { detail: JSON.stringify(metadata.input, null, 2) } : {}),
        detailLabel: 'Repeated input',
      }
    case 'task':
      return { title: `Allow starting the ${first} subagent?`, description: text(metadata.description) ?? 'The agent wants to delegate a task.', detailLabel: 'Task' }
    default:
      // An MCP server's tool (mcp/hub.ts asks under the tool's own name with these).
      if (text(metadata.server) && text(metadata.tool)) {
        const input = metadata.input !== undefined ? { detail: JSON.stringify(metadata.input, null, 2) } : {}
        const tool = ask.tool ? { tool: { description: ask.tool.description, ...(ask.changedFrom ? { change: describeToolChange(ask.changedFrom, ask.tool) } : {}) } } : {}
        if (ask.changedFrom) {
          return {
            title: `Allow ${ask.permission}?`,
            description: `The MCP server ${text(metadata.server)} changed ${text(metadata.tool)} since you allowed it, so it asks again. Read what it says now before you allow it.`,
            ...input,
            detailLabel: 'Input',
            // A changed tool is what a poisoned server would send: Enter should not allow it.
            cautious: true,
            ...tool,
          }
        }
        return {
          title: `Allow ${ask.permission}?`,
          description: `The agent wants to call ${text(metadata.tool)} on the MCP server ${text(metadata.server)}, which receives the input below.`,
          ...input,
          detailLabel: 'Input',
          ...tool,
        }
      }
      return {
        title: `Allow ${ask.permission}?`,
        description: `The agent asks for the ${ask.permission} permission.`,
        detailLabel: 'Details',
      }
  }
}
