import { z } from 'zod'
import { ASK_KINDS } from '../policy/operator-policy.js'
import { TIMING } from '../slack/timing.js'
import { askCreatedSchema, askStateSchema, askStatusSchema, askWithdrawnSchema, errorBodySchema, healthSchema } from './api-schemas.js'
import { createAskBodySchema } from './create-ask-body.js'
import { HTTP_LIMIT } from './limits.js'

type JsonSchema = Record<string, unknown>

/**
 * The OpenAPI 3.1 description of the whole HTTP API (ARCHITECTURE.md,
 * fixed), served at `GET /v1/openapi.json`. Every schema in it is generated
 * from the zod schemas the service parses and answers with, so the document
 * cannot drift from the code; a test checks real requests and responses
 * against it. OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what
 * `z.toJSONSchema` writes.
 */
export function openApiDocument(): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {}
  const named = (name: string, schema: z.ZodType): JsonSchema => {
    addSchema(schemas, name, schema)
    return ref(name)
  }
  const createAskRequest = named('CreateAskRequest', createAskBodySchema)
  const error = named('Error', errorBodySchema)
  const askCreated = named('AskCreated', askCreatedSchema)
  const askState = named('AskState', askStateSchema)
  const askWithdrawn = named('AskWithdrawn', askWithdrawnSchema)
  const health = named('Health', healthSchema)
  const askStatus = named('AskStatus', askStatusSchema)

  const json = (schema: JsonSchema, description: string) => ({ description, content: { 'application/json': { schema } } })
  const refusal = (description: string) => json(error, description)
  const askId = { name: 'id', in: 'path', required: true, description: 'The ask\'s id, as POST /v1/asks gave it.', schema: { type: 'string' } }
  const common = {
    '401': { $ref: '#/components/responses/Unauthorized' },
    '403': { $ref: '#/components/responses/Forbidden' },
    '503': { $ref: '#/components/responses/StateUnavailable' },
  }
  const idempotencyKey = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A key the client picks for this ask (a UUID): sent again with the same key, after a timeout or a broken connection, the POST answers with the same ask instead of posting it twice. 1 to 255 printable characters without spaces. The key identifies the ask, whatever the body of the repeat.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  }
  const prefer = {
    name: 'Prefer',
    in: 'header',
    required: false,
    description: `\`respond-async\`: answer 201 as soon as the ask is recorded and queued (\`queued\`, \`expectedPostAt\`), not once its message is posted. Without it the POST waits for the post up to ${TIMING.postAnswerWithinMs / 1000} s, then answers queued all the same.`,
    schema: { type: 'string' },
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'dsh-slack',
      version: '1',
      summary: 'Agents ask, people answer in Slack.',
      description:
        'Post a question to Slack, then long-poll for the answer. A request field the API does not know is refused with 400 BAD_REQUEST naming it and the field it most likely means. When the service runs with an API key (DSH_SLACK_API_KEY, DSH_SLACK_API_KEYS or the policy file\'s keys; required on any non-loopback address), every /v1 route needs `Authorization: Bearer <key>`. A request\'s `policy` and `channel` may only tighten the operator\'s policy (DSH_SLACK_POLICY): anything looser is refused with 403 POLICY_FORBIDDEN.',
    },
    paths: {
      '/v1/asks': {
        post: {
          operationId: 'createAsk',
          summary: 'Ask: post the questions to Slack and return at once',
          description: `Returns as soon as the message is posted, or with \`queued\` and the expected post time when the post waits for its turn longer than ${TIMING.postAnswerWithinMs / 1000} s (a burst to one channel goes out about one a second) or the client sent \`Prefer: respond-async\`; the ask is posted all the same. Wait for the answer with GET /v1/asks/{id}?wait=${TIMING.longPollMaxSeconds}. Bodies over ${HTTP_LIMIT.maxBodyBytes} bytes are refused with 413.`,
          security: [{ bearer: [] }, {}],
          parameters: [idempotencyKey, prefer],
          requestBody: { required: true, content: { 'application/json': { schema: createAskRequest, examples: REQUEST_EXAMPLES } } },
          responses: {
            '201': json(askCreated, 'Posted; the ask is pending.'),
            '400': refusal('An invalid request: BAD_REQUEST (with the field and the problem), EMPTY_QUESTIONS or BAD_INTENT.'),
            ...common,
            '413': refusal(`The body is over ${HTTP_LIMIT.maxBodyBytes} bytes (PAYLOAD_TOO_LARGE).`),
            '415': refusal('The body was not sent as `Content-Type: application/json` (UNSUPPORTED_MEDIA_TYPE).'),
            '429': refusal('Too many asks are pending, for this API key (the policy\'s limits.pendingPerKey) or in total (limits.pending): TOO_MANY_PENDING; ask again after Retry-After, or withdraw asks first.'),
            '502': refusal('Slack refused the post (SLACK_API_ERROR); the message names Slack\'s error and the fix.'),
            '503': refusal('The service is stopping and takes no new asks (UNAVAILABLE), or cannot reach its state store (STATE_UNAVAILABLE); ask again after Retry-After, with the same Idempotency-Key, on another instance or this one.'),
          },
        },
        get: {
          operationId: 'listAsks',
          summary: 'List asks, newest first',
          description: 'A key lists its own asks; one whose policy entry says read: all lists every key\'s (and may narrow with key=). Another key named in key= gives an empty page.',
          security: [{ bearer: [] }, {}],
          parameters: [
            { name: 'status', in: 'query', description: 'Only asks with this status.', schema: askStatus },
            { name: 'since', in: 'query', description: 'Only asks created at or after this time (ISO 8601, epoch milliseconds, or a duration back from now such as 7d).', schema: { type: 'string' } },
            { name: 'limit', in: 'query', description: 'At most this many asks.', schema: { type: 'integer', minimum: 1 } },
            { name: 'cursor', in: 'query', description: 'The `nextCursor` of the previous page.', schema: { type: 'string' } },
            { name: 'key', in: 'query', description: 'Only asks sent with this API key (by its name).', schema: { type: 'string' } },
            { name: 'rule', in: 'query', description: 'Only asks that fell under this rule of the operator\'s policy (`defaults` when none matched; `environment` without a policy file).', schema: { type: 'string' } },
          ],
          responses: {
            '200': json(
              {
                type: 'object',
                properties: { asks: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, status: askStatus, kind: { type: 'string', enum: [...ASK_KINDS], description: 'What was asked, in the words of the policy\'s rules and `policy explain`: a question, a plan review (intent plan-review), or a tool approval.' } }, required: ['id', 'status', 'kind'] } }, nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; absent on the last page.' } },
                required: ['asks'],
              },
              'A page of asks.',
            ),
            '400': refusal('A malformed query parameter (BAD_REQUEST).'),
            ...common,
          },
        },
      },
      '/v1/asks/{id}': {
        get: {
          operationId: 'getAsk',
          summary: 'The ask\'s state, waiting up to `wait` seconds for it to settle',
          security: [{ bearer: [] }, {}],
          parameters: [
            askId,
            {
              name: 'wait',
              in: 'query',
              description: `Long-poll: wait up to this many seconds (at most ${TIMING.longPollMaxSeconds}) for a settled state; the pending state comes back when the wait runs out. Hanging up never withdraws the ask.`,
              schema: { type: 'number', minimum: 0, maximum: TIMING.longPollMaxSeconds },
            },
          ],
          responses: {
            '200': json(askState, 'The ask as it stands.'),
            '400': refusal('`wait` is not a number of seconds (BAD_REQUEST).'),
            ...common,
            '404': refusal('No ask has this id, or it belongs to another API key this key may not read (NOT_FOUND: the same answer either way).'),
          },
        },
        delete: {
          operationId: 'withdrawAsk',
          summary: 'Withdraw the ask: the message says so and loses its controls',
          description: 'Idempotent: an ask already settled keeps its status. A key withdraws its own asks; another key\'s ask is 404, or 403 POLICY_FORBIDDEN to a key whose policy entry lets it read every ask but not withdraw them.',
          security: [{ bearer: [] }, {}],
          parameters: [askId],
          responses: {
            '200': json(askWithdrawn, 'Withdrawn, or already settled.'),
            ...common,
            '404': refusal('No ask has this id, or it belongs to another API key this key may not read (NOT_FOUND: the same answer either way).'),
          },
        },
      },
      '/v1/asks/{id}/events': {
        get: {
          operationId: 'listAskEvents',
          summary: 'The ask\'s audit trail: posted, approvals, reminders, the answer, withdrawal, expiry, failed updates',
          security: [{ bearer: [] }, {}],
          parameters: [askId],
          responses: {
            '200': json({ type: 'object', properties: { events: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, at: {} }, required: ['type'] } } }, required: ['events'] }, 'The events, oldest first.'),
            ...common,
            '404': refusal('No ask has this id, or it belongs to another API key this key may not read (NOT_FOUND: the same answer either way).'),
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          security: [{ bearer: [] }, {}],
          responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } }, ...common },
        },
      },
      '/healthz': {
        get: {
          operationId: 'health',
          summary: 'Whether the service can take asks (no key needed, for load balancers)',
          responses: { '200': json(health, 'Slack is reachable and the store answers.'), '403': { $ref: '#/components/responses/Forbidden' }, '503': json(health, 'Slack or the store is unreachable, or the service is stopping.') },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          summary: 'Prometheus metrics (text format): asks by status, time to answer, Slack calls and errors by method, 429s, posts waiting per channel, open asks, event-loop delay',
          security: [{ bearer: [] }, {}],
          responses: { '200': { description: 'Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } }, '401': refusal('The API key is missing or wrong (UNAUTHORIZED).'), '403': { $ref: '#/components/responses/Forbidden' } },
        },
      },
    },
    components: {
      schemas,
      responses: {
        Forbidden: {
          description: 'A request from a web page (an `Origin` or `Sec-Fetch-Site` this service does not accept: BAD_ORIGIN) or for a `Host` it does not answer to (BAD_HOST; see DSH_SLACK_ALLOWED_HOSTS); on POST /v1/asks also a request looser than the operator\'s policy (POLICY_FORBIDDEN, naming the rule and the field: a request may only tighten it).',
          content: { 'application/json': { schema: error } },
        },
        StateUnavailable: {
          description: 'The state store (PostgreSQL, the SQLite file) cannot be reached right now (STATE_UNAVAILABLE): ask again after Retry-After. A long-poll keeps waiting this way; a POST repeated with the same Idempotency-Key is never posted twice.',
          headers: { 'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer' } } },
          content: { 'application/json': { schema: error } },
        },
        Unauthorized: { description: 'The service has an API key and the request did not send it (UNAUTHORIZED).', content: { 'application/json': { schema: error } } },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'DSH_SLACK_API_KEY, when the service has one.' },
      },
    },
  }
}

/** One example per request shape; docs/request-format.md shows the same ones. */
const REQUEST_EXAMPLES = {
  buttons: {
    summary: 'One question, a few options: one tap answers',
    value: { questions: [{ id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)', description: 'fast, strict' }, { label: 'npm' }] }], agent: { id: 'session-1', title: 'Refactor' }, timeoutMs: 600000 },
  },
  multiSelect: {
    summary: 'Several choices, then Submit',
    value: { questions: [{ id: 'checks', question: 'Which checks should run?', options: [{ label: 'lint' }, { label: 'unit tests' }, { label: 'e2e tests', description: 'slow' }], multiSelect: true }] },
  },
  freeText: { summary: 'No options: the person types the answer', value: { questions: [{ id: 'name', question: 'What should the new service be called?' }] } },
  batch: {
    summary: 'Several questions, one form',
    value: {
      questions: [
        { id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] },
        { id: 'ci', header: 'CI', question: 'Run CI on every push?', options: [{ label: 'Yes' }, { label: 'No' }] },
      ],
    },
  },
  planReview: {
    summary: 'A plan review: the plan card, Approve, Request changes…',
    value: {
      questions: [
        {
          id: 'plan-review',
          header: 'Plan review',
          question: 'Approve this plan and leave plan mode?',
          detail: '# Plan\n\n1. Add the `users.email_verified` column\n2. Backfill it in batches\n\n| step | risk |\n| --- | --- |\n| migration | low |\n| backfill | medium |',
          options: [
            { label: 'Approve', description: 'Leave plan mode; the plan is carried out from the next step.' },
            { label: 'Keep planning', description: 'Stay in plan mode; feedback goes back to the model.' },
          ],
          intent: { kind: 'plan-review', approve: 'Approve' },
        },
      ],
    },
  },
}

function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` }
}

/**
 * Adds `schema` as `components.schemas[name]`, with the schemas it names
 * (`.meta({ id })`) hoisted beside it and every reference pointed there.
 */
function addSchema(schemas: Record<string, JsonSchema>, name: string, schema: z.ZodType): void {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema
  const { $schema: _dialect, $defs, id: _id, ...own } = generated as JsonSchema & { $defs?: Record<string, JsonSchema> }
  for (const [defName, def] of Object.entries($defs ?? {})) schemas[defName] ??= pointRefs(def)
  // A schema that names itself comes back as a reference to its own definition.
  const onlySelfRef = Object.keys(own).length === 1 && own.$ref === `#/$defs/${name}`
  if (!onlySelfRef) schemas[name] = pointRefs(own)
}

function pointRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(pointRefs) as T
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, '#/components/schemas/') : pointRefs(inner)]),
  ) as T
}
