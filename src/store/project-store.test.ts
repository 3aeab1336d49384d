import { describe, expect, it } from 'vitest'
import type { ReviewedRule } from '../core/schema'
import { makeTestContext } from '../testing/test-context'
import { ensureDefaultProject, setProjectTrust, updateReviewedRules } from './project-store'

const rule = (permission: string): ReviewedRule => ({ path: '.opencode/agent/build.md', agent: 'build', permission, pattern: '*', action: 'allow', exceptions: [] })

describe('the allow rules a trusted project’s user has seen', () => {
  it('are the rules the trust dialog showed; trusting again adds those shown since and keeps the time trusted', async () => {
    const { context, events, advance } = makeTestContext()
    const project = await ensureDefaultProject(context)
    await setProjectTrust(context, project.id, false)
    const trusted = await setProjectTrust(context, project.id, true, [rule('bash'), rule('bash')])
    expect(trusted.trust).toEqual({ type: 'trusted', time: context.now(), reviewed: [rule('bash')] })
    advance(10)
    const reviewed = await setProjectTrust(context, project.id, true, [rule('read'), rule('bash')])
    expect(reviewed.trust).toEqual({ type: 'trusted', time: trusted.time.updated, reviewed: [rule('bash'), rule('read')] })
    expect(events.filter((event) => event.type === 'project.updated').at(-1)).toEqual({ type: 'project.updated', info: reviewed })
    // Taking trust back forgets them: trusting again starts from what is shown then.
    expect((await setProjectTrust(context, project.id, false)).trust).toEqual({ type: 'untrusted' })
  })

  it('change only in a trusted project, and tell the other tabs only when they changed', async () => {
    const { context, events } = makeTestContext()
    const project = await ensureDefaultProject(context)
    await updateReviewedRules(context, project.id, (reviewed) => [...reviewed, rule('bash')])
    expect((await context.db.projects.get(project.id))?.trust).toMatchObject({ type: 'trusted', reviewed: [rule('bash')] })
    const heard = events.length
    await updateReviewedRules(context, project.id, (reviewed) => reviewed)
    expect(events.length).toBe(heard)

    await setProjectTrust(context, project.id, false)
    await updateReviewedRules(context, project.id, () => [rule('read')])
    expect((await context.db.projects.get(project.id))?.trust).toEqual({ type: 'untrusted' })
  })

  it('refuses a rule that is not one (an ask, a missing field) with a named error, and stores nothing', async () => {
    const { context } = makeTestContext()
    const project = await ensureDefaultProject(context)
    const ask = { ...rule('bash'), action: 'ask' } as unknown as ReviewedRule
    await expect(setProjectTrust(context, project.id, true, [ask])).rejects.toMatchObject({ name: 'ValidationError' })
    expect((await context.db.projects.get(project.id))?.trust).toEqual(project.trust)
  })
})
