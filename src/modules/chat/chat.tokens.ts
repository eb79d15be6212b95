/** Nest injection tokens of the chat context. */
export const CHAT_RATE_LIMITER = Symbol('CHAT_RATE_LIMITER');
