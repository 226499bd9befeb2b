import { Ajv2020 } from 'ajv/dist/2020.js'

type Doc = { paths: Record<string, Record<string, Operation>> }
type Operation = {
  requestBody?: { content: Record<string, { schema: unknown }> }
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>
}

export interface CheckedResponse {
  status: number
  contentType: string
  body: any
  text: string
}

/** Problems found when checking a request or response against the document; empty when it conforms. */
export class OpenApiMismatch extends Error {}

/**
 * An HTTP client that checks every request body it sends and every
 * response it gets against an OpenAPI 3.1 document, with a real JSON Schema
 * 2020-12 validator. `call` throws OpenApiMismatch when either side does
 * not conform, so a test that only makes calls already checks the document.
 */
export function openApiClient(doc: Doc, base: string, headers: Record<string, string> = {}) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema({ ...doc, $id: 'openapi.json' })

  const pointer = (...parts: string[]) => `openapi.json#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
  const check = (ref: string, value: unknown, what: string) => {
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })
    if (!validate(value)) throw new OpenApiMismatch(`${what} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`)
  }

  /** Whether a request body conforms to the operation's request schema (without sending it). */
  function requestConforms(method: string, template: string, body: unknown): boolean {
    try {
      checkRequest(method, template, body)
      return true
    } catch (error) {
      if (error instanceof OpenApiMismatch) return false
      throw error
    }
  }

  function checkRequest(method: string, template: string, body: unknown): void {
    const operation = operationOf(method, template)
    if (!operation.requestBody) throw new OpenApiMismatch(`${method} ${template} takes no body`)
    check(pointer('paths', template, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'), body, `the ${method} ${template} request body`)
  }

  function operationOf(method: string, template: string): Operation {
    const operation = doc.paths[template]?.[method.toLowerCase()]
    if (!operation) throw new OpenApiMismatch(`the document has no ${method} ${template}`)
    return operation
  }

  async function call(method: string, template: string, options: { params?: Record<string, string>; query?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<CheckedResponse> {
    const operation = operationOf(method, template)
    if (options.body !== undefined) checkRequest(method, template, options.body)
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''))
    const text = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    const response = await fetch(`${base}${path}${options.query ? `?${options.query}` : ''}`, {
      method,
      headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      ...(text === undefined ? {} : { body: text }),
    })
    const responseText = await response.text()
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim()
    const status = String(response.status)
    let described = operation.responses[status]
    let where = pointer('paths', template, method.toLowerCase(), 'responses', status)
    if (!described) throw new OpenApiMismatch(`${method} ${template} answered ${status}, which the document does not list (it lists ${Object.keys(operation.responses).join(', ')}): ${responseText.slice(0, 300)}`)
    if (described.$ref) {
      where = `openapi.json${described.$ref}`
      described = described.$ref.split('/').slice(1).reduce<any>((node, part) => node[part], doc)!
    }
    const media = described?.content?.[contentType]
    if (!media) throw new OpenApiMismatch(`${method} ${template} ${status} came as ${contentType || 'no content type'}, which the document does not list`)
    const body = contentType === 'application/json' ? JSON.parse(responseText) : responseText
    check(`${where}/content/${contentType.replaceAll('/', '~1')}/schema`, body, `the ${method} ${template} ${status} response`)
    return { status: response.status, contentType, body, text: responseText }
  }

  return { call, checkRequest, requestConforms }
}
