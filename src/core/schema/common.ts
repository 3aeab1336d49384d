import { z } from 'zod'
import { ID_PREFIXES, type IdKind } from '../id'

/** Ids are checked by prefix only: imports may carry ids minted by other builds or by opencode. */
export const idSchema = (kind: IdKind) =>
  z.string().regex(new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]+$`), `expected a ${ID_PREFIXES[kind]}_ id`)

export const timestamp = z.number().int().nonnegative()

export const TokensSchema = z.object({
  total: z.number().nonnegative().optional(),
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative(),
  cache: z.object({ read: z.number().nonnegative(), write: z.number().nonnegative() }),
})
export type Tokens = z.infer<typeof TokensSchema>

export const emptyTokens = (): Tokens => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } })

export const ModelReferenceSchema = z.object({
  providerID: z.string().min(1),
  modelID: z.string().min(1),
  variant: z.string().optional(),
})
export type ModelReference = z.infer<typeof ModelReferenceSchema>

export const FileDiffSchema = z.object({
  file: z.string(),
  before: z.string().optional(),
  after: z.string().optional(),
  patch: z.string().optional(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  status: z.enum(['added', 'deleted', 'modified']).optional(),
})
export type FileDiff = z.infer<typeof FileDiffSchema>

export const PermissionActionSchema = z.enum(['allow', 'deny', 'ask'])
export const PermissionRuleSchema = z.object({
  permission: z.string().min(1),
  pattern: z.string().min(1),
  action: PermissionActionSchema,
})
export type PermissionRule = z.infer<typeof PermissionRuleSchema>
export const PermissionRulesetSchema = z.array(PermissionRuleSchema)

// Lives in errors.ts so that file stays free of runtime zod; re-exported here for existing importers.
export { describeIssues } from '../errors'
