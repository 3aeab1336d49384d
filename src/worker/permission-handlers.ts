import { disabledTools, effectiveRules, type PermissionService } from '../session/permission'
import type { PermissionGate } from '../session/turn-services'
import type { Handlers } from '../core/protocol/base'
import type { PermissionsApi } from '../core/protocol/permissions'

/** Questions and remembered answers, for the ask dialog and the settings page. */
export function permissionHandlers(service: () => PermissionService): Handlers<PermissionsApi> {
  return {
    pendingAsks: (sessionID) => service().pending(sessionID),
    replyAsk: ({ askID, reply }) => service().reply(askID, reply),
    listApprovals: (projectID) => service().listApprovals(projectID),
    revokeApproval: (approvalID) => service().revokeApproval(approvalID),
  }
}

/** The loop's permission gate over the ask service. */
export function permissionGate(service: () => PermissionService): PermissionGate {
  return {
    check: ({ session, messageID, callID, agentRules, sessionRules, request, signal }) =>
      service().check({ sessionID: session.id, projectID: session.projectID, messageID, callID, agentRules, sessionRules, request, signal }),
    hiddenTools: (toolIDs, agentRules, sessionRules) => [...disabledTools(toolIDs, effectiveRules({ agentRules, ...(sessionRules ? { sessionRules } : {}) }))],
  }
}
