import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Executor } from './executor.js';

/** Runs a query compiled once with this run's arguments; works on the database or a transaction. */
export type CompiledRunner<Args, Row> = (tx: Pick<Kysely<any>, 'executeQuery'>, args: Args) => Promise<Row[]>;

/**
 * A query that Kysely builds and compiles once, at start-up, instead of on every call: building
 * and compiling cost about 17 µs a query, more than SQLite takes to run a hot lookup
 * (docs/benchmarks.md). `build` receives a placeholder for each named argument; each run puts the
 * arguments where the compiler placed those placeholders among the parameters. Only queries whose
 * SQL does not depend on the arguments qualify (no `in` lists, no optional conditions).
 */
export function compileOnce<Args extends object, Row>(
  names: readonly (keyof Args & string)[],
  build: (placeholders: Args) => Compilable<Row>,
): CompiledRunner<Args, Row> {
  const placeholders = Object.fromEntries(names.map((name) => [name, `\u0000arg:${name}\u0000`])) as Args;
  const byPlaceholder = new Map<unknown, keyof Args & string>(names.map((name) => [placeholders[name], name]));
  const compiled = build(placeholders).compile();
  const slots = compiled.parameters.map((parameter) => byPlaceholder.get(parameter));
  const unused = names.filter((name) => !slots.includes(name));
  if (unused.length > 0) throw new Error(`compileOnce: ${unused.join(', ')} did not become query parameters in: ${compiled.sql}`);

  return async (tx, args) => {
    const parameters = slots.map((name, i) => (name === undefined ? compiled.parameters[i] : args[name]));
    const query: CompiledQuery<Row> = { ...compiled, parameters };
    return (await tx.executeQuery(query)).rows;
  };
}

/**
 * `findById(workspaceId, id)` for a workspace-scoped table, compiled once: the lookup every
 * reference check makes (product_id, assignee_id, …).
 */
export function findInWorkspace<Row>(db: Executor, table: 'members' | 'products' | 'webhook_endpoints' | 'saved_replies', columns: readonly (keyof Row & string)[]) {
  // Kysely cannot type a query over a union of tables; the columns argument keeps the row type honest.
  const loose = db as unknown as Kysely<any>;
  const byId = compileOnce(['workspaceId', 'id'], ({ workspaceId, id }: { workspaceId: string; id: string }) =>
    loose.selectFrom(table).select([...columns]).where('workspace_id', '=', workspaceId).where('id', '=', id),
  );
  return async (workspaceId: string, id: string, tx: Executor = db): Promise<Row | undefined> =>
    (await byId(tx, { workspaceId, id }))[0] as Row | undefined;
}
