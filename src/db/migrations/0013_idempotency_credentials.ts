// Idempotency records belong to the credential a request came with, not to an API key alone: an
// API key, a team member's session or a widget visitor's session (`credential_kind` names which,
// `credential_id` its id). Three kinds of ids in one column cannot reference their tables, so the
// records lose the cascade from api_keys; they keep the one from workspaces, and every record is
// swept 24 h after its creation anyway. Existing rows become `api_key` records. The table is
// rebuilt (SQLite cannot change a primary key in place), the same way on both databases.
import { sql, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

const KEPT_COLUMNS = ['idempotency_key', 'workspace_id', 'request_hash', 'response_status', 'response_body', 'created_at'];
const REBUILT = 'idempotency_records_rebuilt';
type Table = CreateTableBuilder<string, string>;

/** What tells one owner's records from another's, in each shape of the table. */
interface Shape {
  /** Each shape names its key differently: PostgreSQL's constraint names share one namespace with the old table's. */
  primaryKey: string;
  ownerColumns: string[];
  addOwnerColumns(table: Table): Table;
  /** The owner columns' values, selected from the table of the other shape. */
  fromOther: RawBuilder<unknown>;
}

export function idempotencyCredentials(types: ColumnTypes) {
  const { uuid, timestamp } = types;

  const byCredential: Shape = {
    primaryKey: 'idempotency_records_credential_pk',
    ownerColumns: ['credential_kind', 'credential_id'],
    addOwnerColumns: (table) => table
      .addColumn('credential_kind', 'text', (c) => c.notNull().check(sql`credential_kind in ('api_key', 'session', 'widget_session')`))
      .addColumn('credential_id', uuid, (c) => c.notNull()),
    fromOther: sql`'api_key', api_key_id`,
  };
  const byApiKey: Shape = {
    primaryKey: 'idempotency_records_pk',
    ownerColumns: ['api_key_id'],
    addOwnerColumns: (table) => table.addColumn('api_key_id', uuid, (c) => c.notNull().references('api_keys.id').onDelete('cascade')),
    fromOther: sql`credential_id`,
  };

  /** Copies the records into a table of `shape` and puts it in the old one's place. */
  async function rebuild(db: Kysely<any>, shape: Shape): Promise<void> {
    await shape.addOwnerColumns(db.schema.createTable(REBUILT) as Table)
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint(shape.primaryKey, [...shape.ownerColumns, 'idempotency_key'])
      .execute();
    const kept = sql.join(KEPT_COLUMNS.map((column) => sql.ref(column)));
    const columns = sql.join([...shape.ownerColumns, ...KEPT_COLUMNS].map((column) => sql.ref(column)));
    await sql`insert into ${sql.table(REBUILT)} (${columns}) select ${shape.fromOther}, ${kept} from idempotency_records`.execute(db);
    await db.schema.dropTable('idempotency_records').execute();
    await db.schema.alterTable(REBUILT).renameTo('idempotency_records').execute();
    await db.schema.createIndex('idempotency_records_created').on('idempotency_records').columns(['created_at']).execute();
  }

  return {
    up: (db: Kysely<any>) => rebuild(db, byCredential),

    async down(db: Kysely<any>): Promise<void> {
      await sql`delete from idempotency_records where credential_kind <> 'api_key'`.execute(db);
      await rebuild(db, byApiKey);
    },
  };
}
