/** How an invitation names who made it (`created_by`): an operator, a partner user, or the partner's own automation. */
export type CreatedBy = `operator:${string}` | `partner-user:${string}` | `partner:${string}`;
