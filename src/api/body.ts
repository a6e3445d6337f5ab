import { tooLarge, unsupportedMediaType, badRequest, bodyTimedOut, connectionClosed } from "./errors";

export interface BodySpec {
  /** Media types (without parameters) the route takes. */
  contentTypes: readonly string[];
  maxBytes: number;
}

export function mediaType(request: Request): string | null {
  const header = request.headers.get("content-type");
  return header ? header.split(";")[0].trim().toLowerCase() : null;
}

export function checkContentType(request: Request, spec: BodySpec): string {
  const type = mediaType(request);
  if (!type || !spec.contentTypes.includes(type)) throw unsupportedMediaType(type, spec.contentTypes);
  return type;
}

/**
 * Reads the body under the route's cap and by its deadline. A declared Content-Length over the cap
 * is refused before a byte is read; a chunked body is cut off the moment it passes the cap; a body
 * still incomplete at the deadline (a stalled or trickling client) is answered 408. A read the
 * runtime breaks off means the connection closed.
 */
export async function readCappedBody(request: Request, limits: { maxBytes: number; deadlineAt: number; timeoutMs: number }): Promise<Uint8Array> {
  const { maxBytes } = limits;
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) throw badRequest("the Content-Length header is not a valid length");
    if (length > maxBytes) throw tooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timer: Timer | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimedOut(limits.timeoutMs)), limits.deadlineAt - Date.now());
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read().catch(() => Promise.reject(connectionClosed("before the request body was complete"))), late]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) throw badRequest("the request body is empty; send a JSON object");
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    throw badRequest(`the request body is not valid UTF-8 JSON: ${(e as Error).message}`);
  }
}
