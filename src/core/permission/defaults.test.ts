import { describe, expect, test } from 'vitest'
import { AGENT_RULES, agentRules, DEFAULT_RULES, PLAN_FILES } from './defaults'
import { disabledTools, effectiveRules, evaluate, OUTPUT_FOLDER_GLOB } from './evaluate'

const action = (agent: string, permission: string, pattern: string) => evaluate(permission, pattern, effectiveRules({ agentRules: agentRules(agent) })).action

describe('DEFAULT_RULES', () => {
  const decide = (permission: string, pattern: string) => evaluate(permission, pattern, DEFAULT_RULES).action

  test('everything is allowed by default', () => {
    expect(decide('bash', 'rm -rf /')).toBe('allow')
    expect(decide('edit', 'src/a.ts')).toBe('allow')
    expect(decide('some_mcp_tool', '*')).toBe('allow')
  })

  test('reading .env files asks, except the example file', () => {
    expect(decide('read', 'src/index.ts')).toBe('allow')
    expect(decide('read', '.env')).toBe('ask')
    expect(decide('read', 'apps/web/.env')).toBe('ask')
    expect(decide('read', '.env.local')).toBe('ask')
    expect(decide('read', '.env.production.local')).toBe('ask')
    expect(decide('read', '.env.example')).toBe('allow')
    expect(decide('read', 'apps/web/.env.example')).toBe('allow')
    expect(decide('read', 'environment.ts')).toBe('allow')
  })

  test('outside the project asks, except the saved tool outputs', () => {
    expect(decide('external_directory', '/etc/*')).toBe('ask')
    expect(decide('external_directory', OUTPUT_FOLDER_GLOB)).toBe('allow')
  })

  test('a fetch and starting WebContainer ask, where opencode allows everything: both can carry what the model read out of the tab', () => {
    expect(decide('webfetch', 'example.com')).toBe('ask')
    expect(decide('webfetch', '*')).toBe('ask')
    expect(decide('webcontainer', 'npm')).toBe('ask')
  })

  test('doom loops ask; question and plan switches are denied', () => {
    expect(decide('doom_loop', 'read')).toBe('ask')
    expect(decide('question', '*')).toBe('deny')
    expect(decide('plan_enter', '*')).toBe('deny')
    expect(decide('plan_exit', '*')).toBe('deny')
  })
})

describe('agent rulesets', () => {
  test('agentRules puts the defaults first', () => {
    expect(agentRules('build')).toEqual([...DEFAULT_RULES, ...AGENT_RULES.build])
    expect(agentRules('my-custom-agent')).toEqual([...DEFAULT_RULES])
    expect(agentRules('toString')).toEqual([...DEFAULT_RULES])
  })

  test('build may ask questions and enter plan mode, and keeps the .env guard', () => {
    expect(action('build', 'question', '*')).toBe('allow')
    expect(action('build', 'plan_enter', '*')).toBe('allow')
    expect(action('build', 'plan_exit', '*')).toBe('deny')
    expect(action('build', 'read', '.env')).toBe('ask')
    expect(action('build', 'edit', 'src/a.ts')).toBe('allow')
  })

  test('plan edits nothing but plan files', () => {
    expect(PLAN_FILES).toBe('.tabcode/plans/*.md')
    expect(action('plan', 'edit', 'src/a.ts')).toBe('deny')
    expect(action('plan', 'edit', '.tabcode/plans/refactor.md')).toBe('allow')
    expect(action('plan', 'edit', '.tabcode/plans/notes.txt')).toBe('deny')
    expect(action('plan', 'plan_exit', '*')).toBe('allow')
    expect(action('plan', 'task', 'general')).toBe('deny')
    expect(action('plan', 'task', 'explore')).toBe('allow')
    expect(action('plan', 'bash', 'ls')).toBe('allow')
    // a narrower allow after the deny keeps the edit tools visible, so plan files can be written
    expect(disabledTools(['edit', 'write'], agentRules('plan')).size).toBe(0)
  })

  test('general keeps no todo list', () => {
    expect(action('general', 'todowrite', '*')).toBe('deny')
    expect(disabledTools(['todowrite', 'edit'], agentRules('general'))).toEqual(new Set(['todowrite']))
  })

  test('explore only looks', () => {
    for (const permission of ['read', 'grep', 'glob', 'list', 'bash', 'websearch']) {
      expect(action('explore', permission, 'x')).toBe('allow')
    }
    // A subagent is no way around the question a fetch asks.
    expect(action('explore', 'webfetch', 'example.com')).toBe('ask')
    expect(action('general', 'webfetch', 'example.com')).toBe('ask')
    expect(action('explore', 'edit', 'src/a.ts')).toBe('deny')
    expect(action('explore', 'todowrite', '*')).toBe('deny')
    expect(action('explore', 'task', 'general')).toBe('deny')
    expect(action('explore', 'external_directory', '/etc/*')).toBe('ask')
    expect(action('explore', 'external_directory', OUTPUT_FOLDER_GLOB)).toBe('allow')
    expect(disabledTools(['edit', 'write', 'todowrite', 'read', 'bash'], agentRules('explore'))).toEqual(
      new Set(['edit', 'write', 'todowrite']),
    )
  })

  test.each(['title', 'compaction', 'summary'])('%s may call no tool', (agent) => {
    for (const permission of ['read', 'edit', 'bash', 'webfetch', 'todowrite', 'doom_loop']) {
      expect(action(agent, permission, 'x')).toBe('deny')
    }
    expect(disabledTools(['read', 'edit', 'bash', 'webfetch', 'todowrite'], agentRules(agent)).size).toBe(5)
  })
})
