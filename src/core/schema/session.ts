import { z } from 'zod'
import {
  FileDiffSchema,
  idSchema,
  ModelReferenceSchema,
  PermissionRulesetSchema,
  timestamp,
  TokensSchema,
} from './common'

export const SessionInfoSchema = z.object({
  id: idSchema('session'),
  slug: z.string().min(1),
  projectID: z.string().min(1),
  workspaceID: z.string().optional(),
  directory: z.string().min(1),
  path: z.string().optional(),
  parentID: idSchema('session').optional(),
  title: z.string(),
  agent: z.string().optional(),
  model: ModelReferenceSchema.extend({ id: z.string().optional() }).optional(),
  version: z.string(),
  summary: z
    .object({
      additions: z.number().int().nonnegative(),
      deletions: z.number().int().nonnegative(),
      files: z.number().int().nonnegative(),
      diffs: z.array(FileDiffSchema).optional(),
    })
    .optional(),
  cost: z.number().nonnegative().optional(),
  tokens: TokensSchema.optional(),
  share: z.object({ url: z.string() }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  permission: PermissionRulesetSchema.optional(),
  /** Where this session was branched from: the original and the first message left out (absent: all was copied). */
  fork: z.object({ sessionID: idSchema('session'), messageID: idSchema('message').optional() }).optional(),
  revert: z
    .object({
      messageID: idSchema('message'),
      partID: idSchema('part').optional(),
      snapshot: z.string().optional(),
      diff: z.string().optional(),
      /** The files the revert restored or deleted (absent: the conversation only); unrevert puts back just these. */
      files: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * Files the user saved in the editor while this session was open, net per file: the content entry (snapshot
   * manifest hash) before the first save and after the last. The Changes tab shows them as the user's.
   */
  userEdits: z.array(z.object({ file: z.string(), before: z.string().optional(), after: z.string().optional(), time: timestamp })).optional(),
  time: z.object({
    created: timestamp,
    updated: timestamp,
    compacting: timestamp.optional(),
    archived: z.number().optional(),
  }),
})
export type SessionInfo = z.infer<typeof SessionInfoSchema>

export const ProjectSchema = z.object({
  id: idSchema('project'),
  name: z.string().min(1),
  /** The workspace root every session of this project starts in. */
  directory: z.string().min(1),
  time: z.object({ created: timestamp, updated: timestamp }),
})
export type Project = z.infer<typeof ProjectSchema>
