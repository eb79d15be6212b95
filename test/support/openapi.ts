/** For the OpenAPI suite: a check of a reply against the document. */
import Ajv2020 from 'ajv/dist/2020';
import type { HttpResponse } from './app';

/** The schema problems of `response` against what `document` says `method path` replies with that status (none: it conforms). */
export function replyProblems(document: any, method: string, path: string, response: HttpResponse): string[] {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${path} is not in the document`];
  let declared = operation.responses[String(response.status)];
  if (!declared) return [`${method} ${path} documents no ${response.status} reply`];
  if (declared.$ref) declared = document.components.responses[declared.$ref.split('/').pop()];
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) return [`${method} ${path} ${response.status} has no JSON schema`];
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/')));
  return validate(response.body) ? [] : (validate.errors ?? []).map((e) => `${method} ${path} ${response.status}: ${e.instancePath} ${e.message}`);
}
