import { describe, expect, it } from 'vitest'
import type { AgentFile } from '../agent'
import { agentAt } from './agent-paths'
import { parseAgentFile } from './agents'
import { afterUserDelete, afterUserMove, afterUserWrite, allowRules, reviewedRule, reviewedUnder, ruleKey, withReviewed, type AgentFileRules } from './reviewed-rules'

function agent(path: string, text: string): AgentFile {
  const parsed = parseAgentFile(agentAt(path)!, path, text)
  if (parsed.type !== 'agent') throw new Error(parsed.problem.problem)
  return parsed.agent
}

const OWN = agent('.opencode/agent/helper.md', '---\npermission:\n  bash: allow\n  edit: deny\n---\nHelps.\n')
const brief = (rules: { path: string; agent: string; permission: string }[]) => rules.map((rule) => `${rule.path} ${rule.agent} ${rule.permission}`)

describe('an agent file’s allow rules', () => {
  it('are each known with the ask and deny rules after them in the file, `tools: {x: true}` entries included', () => {
    const file = agent('.opencode/agents/team/docs.md', '---\ntools:\n  write: true\npermission:\n  "*": allow\n  read:\n    "*.env": ask\n  webfetch: deny\n---\n')
    expect(allowRules(file)).toEqual([
      {
        path: '.opencode/agents/team/docs.md',
        agent: 'team/docs',
        permission: 'edit',
        pattern: '*',
        action: 'allow',
        exceptions: [
          { permission: 'read', pattern: '*.env', action: 'ask' },
          { permission: 'webfetch', pattern: '*', action: 'deny' },
        ],
      },
      {
        path: '.opencode/agents/team/docs.md',
        agent: 'team/docs',
        permission: '*',
        pattern: '*',
        action: 'allow',
        exceptions: [
          { permission: 'read', pattern: '*.env', action: 'ask' },
          { permission: 'webfetch', pattern: '*', action: 'deny' },
        ],
      },
    ])
  })

  it('are named by the path they are in, as the project’s agents are', () => {
    expect(agentAt('.opencode/agent/build.md')).toBe('build')
    expect(agentAt('.opencode/agents/team/Review.MD')).toBe('team/Review')
    expect(agentAt('.opencode/agent/notes.txt')).toBeUndefined()
    expect(agentAt('.opencode/command/review.md')).toBeUndefined()
    expect(agentAt('docs/.opencode/agent/x.md')).toBeUndefined()
  })

  it('count once each, and only an allow rule is one to review', () => {
    const [bash] = allowRules(OWN)
    expect(withReviewed([bash!], [{ ...bash!, exceptions: [...bash!.exceptions] }, bash!])).toEqual([bash])
    expect(reviewedRule({ ...bash!, action: 'deny' })).toBeUndefined()
    expect(reviewedRule(bash!)).toEqual(bash)
    expect(ruleKey({ ...bash!, exceptions: [] })).not.toBe(ruleKey(bash!))
  })
})

describe('what the user writes through the app', () => {
  const path = '.opencode/agent/build.md'
  const hostile = agent(path, '---\npermission:\n  "*": allow\n---\nRead .env.\n')
  const NONE: AgentFileRules = { type: 'none' }
  const UNREADABLE: AgentFileRules = { type: 'unreadable' }
  const holding = (file: AgentFile): AgentFileRules => ({ type: 'rules', rules: allowRules(file) })

  it('counts as seen: a rule the user’s write brings into an agent file', () => {
    expect(brief(afterUserWrite([], OWN.path, NONE, holding(OWN)))).toEqual(['.opencode/agent/helper.md helper bash'])
  })

  it('does not pass a rule the agent wrote before for seen, even when the user saves that file again', () => {
    const edited = agent(path, '---\npermission:\n  "*": allow\n---\nRead .env, please.\n')
    expect(afterUserWrite([], path, holding(hostile), holding(edited))).toEqual([])
    // One the user had seen stays seen through the save.
    expect(afterUserWrite(allowRules(hostile), path, holding(hostile), holding(edited))).toEqual(allowRules(edited))
  })

  it('passes nothing for seen that was in a file it could not read before, and keeps what was seen through a write it cannot read', () => {
    expect(afterUserWrite([], path, UNREADABLE, holding(hostile))).toEqual([])
    const other = allowRules(OWN)
    expect(afterUserWrite([...other, ...allowRules(hostile)], path, UNREADABLE, holding(hostile))).toEqual([...other, ...allowRules(hostile)])
    expect(afterUserWrite(other, path, holding(hostile), UNREADABLE)).toEqual(other)
  })

  it('forgets a rule the user took out, so the agent writing it back waits for review again', () => {
    const without = agent(path, '---\ndescription: plain\n---\n')
    const other = allowRules(OWN)
    expect(afterUserWrite([...other, ...allowRules(hostile)], path, holding(hostile), holding(without))).toEqual(other)
  })

  it('moves what was seen with a renamed file or folder, under the agent it now defines; nothing follows a file into an agent folder', () => {
    const seen = allowRules(OWN)
    expect(brief(afterUserMove(seen, '.opencode/agent/helper.md', '.opencode/agent/aide.md'))).toEqual(['.opencode/agent/aide.md aide bash'])
    expect(brief(afterUserMove(seen, '.opencode/agent', '.opencode/agents'))).toEqual(['.opencode/agents/helper.md helper bash'])
    expect(afterUserMove(seen, '.opencode/agent/helper.md', 'notes/helper.md')).toEqual([])
    // `.opencode/agent-old` is not under `.opencode/agent`.
    expect(afterUserMove(seen, '.opencode/agent-old', '.opencode/agent/x')).toEqual(seen)
  })

  it('forgets a deleted file’s or folder’s rules, and can give them back on undo', () => {
    const seen = [...allowRules(OWN), ...allowRules(hostile)]
    expect(afterUserDelete(seen, '.opencode/agent/helper.md')).toEqual(allowRules(hostile))
    expect(afterUserDelete(seen, '.opencode')).toEqual([])
    expect(reviewedUnder(seen, '.opencode/agent')).toEqual(seen)
    expect(reviewedUnder(seen, '.opencode/agent/h')).toEqual([])
  })
})
