// Whether a body is a PDF, decided from its first bytes without loading any PDF code (the HTTP
// thread and the worker's job routing ask). PDF readers accept the `%PDF-` header anywhere in the
// first 1 KiB, so a PDF with a few bytes of junk before it (a mail gateway's, say) is still read as
// one; but a body that begins as XML stays XML even when a comment or note near its start mentions
// `%PDF-`.

const HEAD = 1024;
/** Optional UTF-8 byte-order mark (read as Latin-1), white space, then markup. */
const XML_START = /^(?:\u00ef\u00bb\u00bf)?\s*</;

export function isPdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, HEAD));
  const at = head.indexOf("%PDF-");
  return at === 0 || (at > 0 && !XML_START.test(head));
}
