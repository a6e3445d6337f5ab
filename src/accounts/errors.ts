/** A refused account operation (bad plan, unknown org, ...): its message is meant for the operator. */
export class AccountError extends Error {}
