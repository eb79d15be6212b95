/** A bad environment variable: the message names it, so an operator can fix the start. */
export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`Invalid environment variable ${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}
