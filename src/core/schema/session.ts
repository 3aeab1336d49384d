import { z } from 'zod'
import {
  FileDiffSchema,
  idSchema,
  ModelReferenceSchema,
  PermissionRuleSchema,
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
  userEdits: z
    .array(
      z.object({
        file: z.string(),
        before: z.string().optional(),
        after: z.string().optional(),
        time: timestamp,
        /** `outside`: another program changed the file on disk (a folder project); absent: the user, in this app. */
        by: z.literal('outside').optional(),
      }),
    )
    .optional(),
  time: z.object({
    created: timestamp,
    updated: timestamp,
    compacting: timestamp.optional(),
    archived: z.number().optional(),
  }),
})
export type SessionInfo = z.infer<typeof SessionInfoSchema>

/**
 * An `allow` rule from a project's agent file that the user has seen (trusting the project, reviewing its rules, or
 * writing the file through the app): the file, the agent, the rule, and the `ask` and `deny` rules after it in that
 * file, which narrow what it allows (a later rule wins), so taking one away widens the rule and makes it a new one.
 */
export const ReviewedRuleSchema = z.object({
  path: z.string().min(1),
  agent: z.string().min(1),
  permission: z.string().min(1),
  pattern: z.string().min(1),
  action: z.literal('allow'),
  exceptions: z.array(PermissionRuleSchema.extend({ action: z.enum(['ask', 'deny']) })),
})
export type ReviewedRule = z.infer<typeof ReviewedRuleSchema>

/**
 * Whether the user trusts a project's own files (`.opencode/agent(s)`, `.opencode/command(s)`): until then they can
 * only make its rules stricter; once it is trusted, their `allow` rules apply once the user has seen them (see
 * `core/project-files/trust.ts`).
 */
export const ProjectTrustSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('trusted'),
    time: timestamp,
    /**
     * The `allow` rules of its files the user has seen; any other `allow` rule in them waits for the user's review,
     * because files change after trust (the agent's own `write` can edit `.opencode/agent/build.md`). Absent (rows
     * written before rules were pinned, the app's own first project included): none yet, one review away.
     */
    reviewed: z.array(ReviewedRuleSchema).optional(),
  }),
  z.object({ type: z.literal('untrusted') }),
])
export type ProjectTrust = z.infer<typeof ProjectTrustSchema>

/** Where a project's files came from, which decides the trust it starts with. */
export const ProjectOriginSchema = z.discriminatedUnion('type', [
  /** The user started it empty (the app's first project too): the user's own, trusted. */
  z.object({ type: z.literal('empty') }),
  /** A folder the user picked or dropped. */
  z.object({ type: z.literal('folder') }),
  z.object({ type: z.literal('zip') }),
  /** The workspace files of an imported session file. */
  z.object({ type: z.literal('file') }),
  /** Recreated from a backup file (without files). */
  z.object({ type: z.literal('backup') }),
  /** A repository cloned by URL (git over HTTP(S)): a stranger's code until the user trusts it. */
  z.object({ type: z.literal('clone'), url: z.string().max(2_000) }),
  /** A branch of another project's session: it keeps that project's trust. */
  z.object({ type: z.literal('fork'), projectID: idSchema('project') }),
  /** Stored before projects recorded where they came from. */
  z.object({ type: z.literal('unknown') }),
  /**
   * A folder on disk opened as the project itself (File System Access API): its files are the folder's, reached
   * through the handle kept in `folders`; `name` is the folder's, as the browser tells it (no path is ever given).
   */
  z.object({ type: z.literal('disk'), name: z.string().min(1) }),
])
export type ProjectOrigin = z.infer<typeof ProjectOriginSchema>

export const ProjectSchema = z.object({
  id: idSchema('project'),
  name: z.string().min(1),
  /** The workspace root every session of this project starts in. */
  directory: z.string().min(1),
  trust: ProjectTrustSchema,
  origin: ProjectOriginSchema,
  time: z.object({ created: timestamp, updated: timestamp }),
})
export type Project = z.infer<typeof ProjectSchema>
