/** JSON Schema of what /mcp reads and answers (JSON-RPC 2.0 as the MCP transport carries it), for the OpenAPI document. */
import { type JsonSchema, int, obj, str } from '../common/openapi';

const ID: JsonSchema = { anyOf: [str(), int(), { type: 'null' }], description: 'the request id (absent on a notification)' };

export const JSON_RPC_REQUEST: JsonSchema = obj(
  {
    jsonrpc: { const: '2.0' },
    id: ID,
    method: str({ description: 'e.g. `initialize`, `notifications/initialized`, `tools/list`, `tools/call`' }),
    params: { type: 'object', description: 'the method’s parameters; `tools/call`: `{name, arguments}`' },
  },
  ['id', 'params'],
);

export const JSON_RPC_ERROR: JsonSchema = obj({
  jsonrpc: { const: '2.0' },
  id: ID,
  error: obj({ code: int(), message: str(), data: {} }, ['data']),
});

export const JSON_RPC_REPLY: JsonSchema = {
  anyOf: [
    obj({
      jsonrpc: { const: '2.0' },
      id: ID,
      result: { type: 'object', description: '`tools/call`: `{content: [{type: "text", text: "<the route’s JSON>"}], isError?}`' },
    }),
    JSON_RPC_ERROR,
  ],
};

export interface JsonRpcError {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string };
}

/** The transport's own answer to a method it does not serve (the SDK's text). */
export const METHOD_NOT_ALLOWED: JsonRpcError = { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } };
