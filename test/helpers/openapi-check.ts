// Validates every JSON response body of the suite against the schema the served openapi.json
// declares for its route and status (one Ajv instance per document).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

type Responses = Record<string, { content?: Record<string, { schema?: object }> }>;
type RequestBody = { content?: Record<string, { schema?: object }> };
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Responses }>>;
  webhooks?: Record<string, { post?: { requestBody?: RequestBody } }>;
  components?: { schemas?: Record<string, object> };
}

/** The document's named schemas, added to Ajv once under this id; response schemas point into it. */
const COMPONENTS_ID = 'https://loopdesk.test/openapi-components.json';
const pointingToComponents = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${COMPONENTS_ID}#/components/`));

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { pattern: RegExp; template: string }[];
  private readonly cache = new Map<string, ValidateFunction | null>();
  private readonly errorSchema: object;

  private readonly document: OpenApiDocument;

  constructor(document: OpenApiDocument) {
    this.document = document;
    (formatsPlugin as unknown as typeof formatsPlugin.default)(this.ajv);
    this.ajv.addSchema(pointingToComponents({ $id: COMPONENTS_ID, components: document.components ?? {} }));
    this.routes = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    if (!document.components?.schemas?.Error) throw new Error('the OpenAPI document names no Error schema');
    this.errorSchema = { $ref: '#/components/schemas/Error' };
  }

  private validator(method: string, path: string, status: number): ValidateFunction | null {
    // Literal paths win over templated ones (/issues/maybe before /issues/{id}).
    const matches = this.routes.filter((route) => route.pattern.test(path));
    const route = matches.find((m) => !m.template.includes('{')) ?? matches[0];
    // Keyed by template: compiling a validator per concrete path would cost a compile per id.
    const key = `${method} ${route?.template ?? path} ${status}`;
    if (!this.cache.has(key)) {
      const operation = route ? this.document.paths[route.template][method.toLowerCase()] : undefined;
      let schema: object | undefined;
      if (operation) {
        schema = operation.responses?.[String(status)]?.content?.['application/json']?.schema;
        if (!schema) throw new Error(`openapi.json declares no JSON response ${status} for ${method} ${route!.template}`);
      } else if (status >= 400) {
        schema = this.errorSchema; // unknown routes and methods answer with the error envelope
      } else {
        throw new Error(`openapi.json has no operation for ${method} ${path} (status ${status})`);
      }
      this.cache.set(key, this.ajv.compile(pointingToComponents(schema)));
    }
    return this.cache.get(key)!;
  }

  /** Throws when `body` does not match the documented schema. */
  check(method: string, url: string, status: number, body: unknown): void {
    // The path as clients send it (light-my-request too): `.` and `..` segments resolved, so that
    // `/conversations/./messages`, which reaches /conversations/{id}, is checked against that.
    const path = new URL(url, 'http://loopdesk.test').pathname;
    const validate = this.validator(method, path, status);
    if (validate && !validate(body)) {
      throw new Error(
        `response of ${method} ${path} (${status}) does not match openapi.json: ${this.ajv.errorsText(validate.errors)}\n` +
          JSON.stringify(body).slice(0, 2000),
      );
    }
  }
}

/**
 * A check of webhook payloads against the document's `webhooks`: the body each event type is
 * sent with. Throws when `payload` does not match the entry of its `type`.
 */
export function webhookPayloadChecker(document: OpenApiDocument): (payload: { type: string }) => void {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (formatsPlugin as unknown as typeof formatsPlugin.default)(ajv);
  ajv.addSchema(pointingToComponents({ $id: COMPONENTS_ID, components: document.components ?? {} }));
  const validators = new Map<string, ValidateFunction>();
  return (payload) => {
    const { type } = payload;
    if (!validators.has(type)) {
      const schema = document.webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`openapi.json declares no webhook ${type}`);
      validators.set(type, ajv.compile(pointingToComponents(schema)));
    }
    const validate = validators.get(type)!;
    if (!validate(payload)) {
      throw new Error(`${type} payload does not match openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(payload).slice(0, 2000)}`);
    }
  };
}
