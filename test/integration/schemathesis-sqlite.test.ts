// Schemathesis on SQLite, every operation and every check: the examples, coverage and stateful
// phases. Fuzzing runs on one database (schemathesis-fuzzing.test.ts; docs/openapi-tools.md).
import { describeSchemathesis } from '../helpers/schemathesis.js';

describeSchemathesis('sqlite', ['examples', 'coverage', 'stateful']);
