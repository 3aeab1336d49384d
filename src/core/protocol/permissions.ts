import type { Approval, PermissionAsk, PermissionReply } from '../schema'

/** Permission questions and the remembered "always" answers. */
export interface PermissionsApi {
  /** Permission questions waiting in a session, oldest first. */
  pendingAsks(sessionID: string): PermissionAsk[]
  replyAsk(input: { askID: string; reply: PermissionReply }): void
  /** Remembered "always" answers of a project, for review and revocation in settings. */
  listApprovals(projectID: string): Approval[]
  revokeApproval(approvalID: string): void
}
