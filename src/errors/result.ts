/**
 * What a domain function returns when failing is an outcome its caller decides about (an attachment
 * that is not there, a quota used up, a logo PDF/A cannot draw): `ok` tells the two apart, and the
 * failure says why, in `message` unless it needs more (a `reason` the caller branches on, a list).
 * A refusal that must reach the client as an error answer is thrown as a DomainError instead.
 */
export type Result<T extends object, F extends object = { message: string }> = ({ ok: true } & T) | ({ ok: false } & F);
