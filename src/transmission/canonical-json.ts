// One spelling of a JSON value, so a hash computed at write time is recomputed byte for byte on
// read, by this process or another. The rules are JCS-like (RFC 8785) without its number rewriting:
// object keys sorted by UTF-16 code units at every depth, arrays in their order, no whitespace,
// strings and numbers exactly as JSON.stringify writes them (non-ASCII kept as is).

/** What canonicalJson accepts: what a JSON column stores and gives back unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Throws on anything JSON would silently change (undefined, NaN, Infinity, functions, bigint,
 * class instances such as Date): a hash over a value the database cannot give back unchanged
 * would fail verification on the first read.
 */
export function canonicalJson(value: JsonValue): string {
  return write(value, "$");
}

function write(value: unknown, path: string): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no JSON form`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) items.push(write(value[i], `${path}[${i}]`));
    return `[${items.join(",")}]`;
  }
  if (typeof value === "object" && isPlain(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${write((value as Record<string, unknown>)[k], `${path}.${k}`)}`).join(",")}}`;
  }
  throw new TypeError(`${path}: ${value === undefined ? "undefined" : typeof value} has no JSON form`);
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};
