// Schemathesis's stateful phase on PostgreSQL, every operation and every check; PostgreSQL's
// examples and coverage phases run before its fuzzing (schemathesis-fuzzing.test.ts). A run
// without PostgreSQL skips it, as it does every PostgreSQL half (test/run.ts says so loudly).
import { DIALECTS } from '../helpers/databases.js';
import { describeSchemathesis } from '../helpers/schemathesis.js';

if (DIALECTS.includes('postgres')) describeSchemathesis('postgres', ['stateful']);
