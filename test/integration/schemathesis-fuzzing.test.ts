// Schemathesis's fuzzing phase, on one database: PostgreSQL when the run has it, SQLite otherwise,
// after the examples and coverage phases on the same server (fuzzing reuses the ids of what they
// created: on a fresh server, 16 operations answered it nothing but 404s, against 10). With the
// fixed seed it sends the same generated requests whatever the database, so a second run would
// repeat every input; random requests reach SQLite through test/reliability/fuzz.test.ts. In a
// file of its own, one of the suite's longest, it starts first and runs beside the others
// (docs/openapi-tools.md, docs/testing.md).
import { DIALECTS } from '../helpers/databases.js';
import { describeSchemathesis } from '../helpers/schemathesis.js';

describeSchemathesis(DIALECTS.at(-1)!, ['examples', 'coverage', 'fuzzing']);
