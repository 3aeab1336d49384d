import { describe, expect, test } from 'vitest'
import type { PermissionRule } from '../schema'
import { fromConfig } from './config'
import { disabledTools, effectiveRules, evaluate, OUTPUT_FOLDER_GLOB, permissionOf, subagentSessionRules } from './evaluate'

const rule = (permission: string, pattern: string, action: PermissionRule['action']): PermissionRule => ({ permission, pattern, action })

describe('evaluate', () => {
  test('the last matching rule wins', () => {
    const rules = [rule('bash', '*', 'allow'), rule('bash', 'rm *', 'deny')]
    expect(evaluate('bash', 'rm -rf /', rules).action).toBe('deny')
    expect(evaluate('bash', 'ls', rules).action).toBe('allow')
  })

  test('a catch-all put last overrides the specific rules before it', () => {
    const rules = [rule('bash', 'rm *', 'deny'), rule('bash', '*', 'allow')]
    expect(evaluate('bash', 'rm -rf /', rules).action).toBe('allow')
  })

  test('nothing matching means ask', () => {
    expect(evaluate('bash', 'ls', [rule('edit', '*', 'allow')])).toEqual({ permission: 'bash', pattern: '*', action: 'ask' })
    expect(evaluate('bash', 'ls').action).toBe('ask')
  })

  test('the permission name is a wildcard too', () => {
    expect(evaluate('webfetch', 'https://x', [rule('*', '*', 'deny'), rule('web*', '*', 'allow')]).action).toBe('allow')
  })

  test('returns the deciding rule', () => {
    const deciding = rule('read', '*.env', 'ask')
    expect(evaluate('read', 'app/.env', [rule('read', '*', 'allow'), deciding])).toBe(deciding)
  })

  test('later rulesets beat earlier ones: defaults → agent → user → session → approvals', () => {
    const defaults = [rule('*', '*', 'allow')]
    const agent = [rule('edit', '*', 'deny')]
    const user = [rule('edit', 'docs/*', 'ask')]
    const session = [rule('edit', 'docs/readme.md', 'deny')]
    const approvals = [rule('edit', 'docs/readme.md', 'allow')]
    expect(evaluate('edit', 'src/a.ts', defaults, agent, user, session).action).toBe('deny')
    expect(evaluate('edit', 'docs/guide.md', defaults, agent, user, session).action).toBe('ask')
    expect(evaluate('edit', 'docs/readme.md', defaults, agent, user, session).action).toBe('deny')
    expect(evaluate('edit', 'docs/readme.md', defaults, agent, user, session, approvals).action).toBe('allow')
  })
})

describe('effectiveRules', () => {
  const agentRules = [rule('*', '*', 'allow'), rule('bash', '*', 'ask')]

  test('agent, then user, then the outputs folder, then session', () => {
    const userRules = [rule('bash', 'git *', 'allow')]
    const sessionRules = [rule('bash', '*', 'deny')]
    expect(effectiveRules({ agentRules, userRules, sessionRules })).toEqual([
      ...agentRules,
      ...userRules,
      rule('external_directory', OUTPUT_FOLDER_GLOB, 'allow'),
      ...sessionRules,
    ])
  })

  test('session rules beat agent rules', () => {
    const rules = effectiveRules({ agentRules: [rule('edit', '*', 'deny')], sessionRules: [rule('edit', '*', 'allow')] })
    expect(evaluate('edit', 'a.ts', rules).action).toBe('allow')
  })

  test('the outputs folder stays readable after a user-wide external_directory deny', () => {
    const rules = effectiveRules({ agentRules, userRules: [rule('external_directory', '*', 'deny')] })
    expect(evaluate('external_directory', `${OUTPUT_FOLDER_GLOB.slice(0, -1)}tool_1`, rules).action).toBe('allow')
    expect(evaluate('external_directory', '/etc/*', rules).action).toBe('deny')
  })

  test('unless the user denied exactly that folder', () => {
    const userRules = [rule('external_directory', OUTPUT_FOLDER_GLOB, 'deny')]
    const rules = effectiveRules({ agentRules, userRules })
    expect(rules.some((candidate) => candidate.action === 'allow' && candidate.pattern === OUTPUT_FOLDER_GLOB)).toBe(false)
  })
})

describe('disabledTools', () => {
  test('hides a tool whose last rule is a deny on *', () => {
    const rules = [rule('*', '*', 'allow'), rule('webfetch', '*', 'deny'), rule('todowrite', '*', 'deny'), rule('todowrite', '*', 'allow')]
    expect(disabledTools(['webfetch', 'todowrite', 'read'], rules)).toEqual(new Set(['webfetch']))
  })

  test('a narrower deny keeps the tool visible', () => {
    expect(disabledTools(['bash'], [rule('*', '*', 'allow'), rule('bash', 'rm *', 'deny')]).size).toBe(0)
  })

  test('a narrower rule after a deny on * makes the tool visible again', () => {
    expect(disabledTools(['edit'], [rule('edit', '*', 'deny'), rule('edit', '.tabcode/plans/*.md', 'allow')]).size).toBe(0)
  })

  test('edit, write and patch all go by the edit permission', () => {
    const rules = [rule('*', '*', 'allow'), rule('edit', '*', 'deny')]
    expect(disabledTools(['edit', 'write', 'patch', 'apply_patch', 'multiedit', 'read'], rules)).toEqual(
      new Set(['edit', 'write', 'patch', 'apply_patch', 'multiedit']),
    )
    expect(permissionOf('write')).toBe('edit')
    expect(permissionOf('bash')).toBe('bash')
  })

  test('a wildcard deny of everything hides every tool', () => {
    expect(disabledTools(['read', 'bash'], [rule('*', '*', 'deny')])).toEqual(new Set(['read', 'bash']))
  })

  test('no rule for a tool keeps it', () => {
    expect(disabledTools(['read'], []).size).toBe(0)
  })
})

describe('fromConfig', () => {
  test('a bare action applies to everything', () => {
    expect(fromConfig('deny')).toEqual([rule('*', '*', 'deny')])
  })

  test('keys and patterns keep the written order', () => {
    expect(fromConfig({ '*': 'allow', bash: { '*': 'ask', 'git status *': 'allow' }, edit: 'deny' })).toEqual([
      rule('*', '*', 'allow'),
      rule('bash', '*', 'ask'),
      rule('bash', 'git status *', 'allow'),
      rule('edit', '*', 'deny'),
    ])
  })
})

describe('subagentSessionRules', () => {
  const parent = [rule('bash', '*', 'allow'), rule('bash', 'rm *', 'deny'), rule('external_directory', '/tmp/*', 'allow')]

  test("inherits the parent's denials and external_directory rules, and withholds todowrite and task", () => {
    expect(subagentSessionRules(parent, [])).toEqual([
      rule('bash', 'rm *', 'deny'),
      rule('external_directory', '/tmp/*', 'allow'),
      rule('todowrite', '*', 'deny'),
      rule('task', '*', 'deny'),
    ])
  })

  test('a subagent that says something about todowrite or task keeps its own say', () => {
    const rules = subagentSessionRules([], [rule('todowrite', '*', 'allow'), rule('task', 'explore', 'allow')])
    expect(rules).toEqual([])
  })
})
