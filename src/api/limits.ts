/** Body caps of the spec's Limits table ("1 MB" read as 1 MiB). */
export const DOCUMENT_BODY_MAX_BYTES = 1024 * 1024;
