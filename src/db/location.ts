/** A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite file path (or `:memory:`). */
export const isPostgresUrl = (location: string) => /^postgres(?:ql)?:\/\//i.test(location);

/**
 * The location as logs and `db check` show it: a URL without its password (one the WHATWG parser
 * refuses, e.g. with a socket path, loses its whole userinfo).
 */
export function redactedLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  if (!URL.canParse(location)) return location.replace(/\/\/[^@/]*@/, "//");
  const parsed = new URL(location);
  parsed.password = "";
  return parsed.toString();
}
