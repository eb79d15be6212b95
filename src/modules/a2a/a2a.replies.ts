/** Reply schemas of the A2A routes (OpenAPI). */
import { bool, type JsonSchema, list, obj, str } from '../common/openapi';

export const AGENT_ID_PARAM: JsonSchema = { type: 'string', description: 'the agent’s id (a saved recipe’s id)' };

const SKILL = obj({ id: str(), name: str(), description: str(), tags: list(str()) });

export const AGENT_CARD: JsonSchema = obj(
  {
    name: str(),
    description: str(),
    url: str({ description: 'the agent’s JSON-RPC endpoint' }),
    version: str(),
    protocolVersion: str(),
    preferredTransport: str(),
    supportedInterfaces: list(obj({ url: str(), protocolBinding: str(), protocolVersion: str() })),
    capabilities: obj({ streaming: bool(), pushNotifications: bool() }),
    defaultInputModes: list(str()),
    defaultOutputModes: list(str()),
    skills: list(SKILL),
    securitySchemes: { type: 'object' },
    security: list({ type: 'object' }),
  },
  [],
  { required: ['name', 'description', 'url', 'version', 'capabilities', 'skills', 'protocolVersion', 'defaultInputModes', 'defaultOutputModes'] },
);

export const RPC_REPLY: JsonSchema = {
  type: 'object',
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'number', 'null'] },
    result: { type: 'object', description: 'the method’s result (docs/api.md)' },
    error: obj({ code: { type: 'integer' }, message: str() }),
  },
  required: ['jsonrpc', 'id'],
};

export const PEERS_REPLY: JsonSchema = obj({
  peers: list(
    obj(
      {
        gateway: str(),
        compatible: bool(),
        reason: str(),
        card: obj({ name: str(), description: { type: ['string', 'null'] }, url: { type: ['string', 'null'] }, version: { type: ['string', 'null'] }, protocolVersion: { type: ['string', 'null'] }, skills: { type: 'integer' } }),
      },
      ['reason', 'card'],
    ),
  ),
});

export const AGENTS_REPLY: JsonSchema = obj({
  agents: list(obj({ agent_id: str(), name: str(), prompt_id: str(), version: { type: 'integer' }, card_url: str(), url: str() })),
});
