import type { Db } from "./connection";

/**
 * A statement prepared once per database instead of on every call: drizzle builds the SQL text and
 * SQLite compiles it each time a query is written inline, which on the request path (key lookup,
 * quota spend) cost more than running it (about 215 us against 40 per metered request).
 * Parameters are `sql.placeholder(name)`; the statement belongs to the connection it was made on,
 * so it also runs inside that connection's transactions.
 */
export function preparedOn<Statement>(prepare: (db: Db) => Statement): (db: Db) => Statement {
  const statements = new WeakMap<Db, Statement>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) statements.set(db, (statement = prepare(db)));
    return statement;
  };
}
