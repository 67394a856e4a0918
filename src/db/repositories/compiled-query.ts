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
export function findInWorkspace<Row>(db: Executor, table: 'members' | 'products' | 'webhook_endpoints' | 'saved_replies' | 'calendars' | 'sla_policies' | 'automation_rules' | 'macros', columns: readonly (keyof Row & string)[]) {
  // Kysely cannot type a query over a union of tables; the columns argument keeps the row type honest.
  const loose = db as unknown as Kysely<any>;
  const byId = compileOnce(['workspaceId', 'id'], ({ workspaceId, id }: { workspaceId: string; id: string }) =>
    loose.selectFrom(table).select([...columns]).where('workspace_id', '=', workspaceId).where('id', '=', id),
  );
  return async (workspaceId: string, id: string, tx: Executor = db): Promise<Row | undefined> =>
    (await byId(tx, { workspaceId, id }))[0] as Row | undefined;
}

/** A value a shaped query binds: a scalar, or a list whose every item is bound. */
type Bound = string | number | readonly (string | number)[] | undefined;

/** Rows as one list per column: a multi-row insert's values as compileByShape binds them (compiled once per number of rows). */
export type Columns<Row> = { [Column in keyof Row]: Row[Column][] };

export function columnsOf<Row extends object>(rows: readonly Row[], names: readonly (keyof Row & string)[]): Columns<Row> {
  return Object.fromEntries(names.map((name) => [name, rows.map((row) => row[name])])) as Columns<Row>;
}

/** The rows back from their columns, in a shaped query's `build`. */
export function rowsOf<Row extends object>(columns: Columns<Row>): Row[] {
  const names = Object.keys(columns) as (keyof Row)[];
  const count = names.length === 0 ? 0 : columns[names[0]!].length;
  return Array.from({ length: count }, (_, i) => Object.fromEntries(names.map((name) => [name, columns[name][i]])) as Row);
}

/** Shapes kept per query: a few in practice (which filters a client sets); the oldest goes past this. */
const SHAPES_KEPT = 256;

/**
 * A query whose SQL follows the shape of its arguments, compiled once per shape instead of on
 * every call (building and compiling a list's statements took an eighth of a list request's CPU).
 * The shape is which values are set, how many items each list holds, and `choices`, passed as
 * they are (a page read from the end, a flag that adds a condition). `build` receives a
 * placeholder for each value and each list item; each run puts its own values where the compiler
 * placed those placeholders. `build` may branch on whether a value is set and on `choices`, never
 * on a value's content.
 */
export function compileByShape<Values extends Record<string, Bound>, Row, Choices extends Record<string, unknown> = Record<string, never>>(
  build: (values: Values, choices: Choices) => Compilable<Row>,
): (tx: Pick<Kysely<any>, 'executeQuery'>, values: Values, choices?: Choices) => Promise<Row[]> {
  type Slot = readonly [name: string, item: number | null] | undefined;
  const shapes = new Map<string, { compiled: CompiledQuery<Row>; slots: Slot[] }>();

  function compile(values: Values, choices: Choices) {
    const byPlaceholder = new Map<unknown, Slot>();
    const placeholder = (name: string, item: number | null) => {
      const text = `\u0000value:${name}:${item ?? ''}\u0000`;
      byPlaceholder.set(text, [name, item]);
      return text;
    };
    const placeholders = Object.fromEntries(Object.entries(values).map(([name, value]) => [
      name,
      value === undefined ? undefined : Array.isArray(value) ? value.map((_, item) => placeholder(name, item)) : placeholder(name, null),
    ])) as unknown as Values;
    const compiled = build(placeholders, choices).compile();
    return { compiled, slots: compiled.parameters.map((parameter) => byPlaceholder.get(parameter)) };
  }

  return async (tx, values, choices = {} as Choices) => {
    const shape = JSON.stringify([choices, Object.entries(values).map(([name, value]) => [name, Array.isArray(value) ? value.length : value === undefined ? -1 : 0])]);
    let entry = shapes.get(shape);
    if (!entry) {
      entry = compile(values, choices);
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
      shapes.set(shape, entry);
    }
    const { compiled, slots } = entry;
    const parameters = slots.map((slot, i) => {
      if (slot === undefined) return compiled.parameters[i];
      const value = values[slot[0]];
      return slot[1] === null ? value : (value as readonly unknown[])[slot[1]];
    });
    const query: CompiledQuery<Row> = { ...compiled, parameters };
    return (await tx.executeQuery(query)).rows;
  };
}
