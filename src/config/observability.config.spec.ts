import { ConfigError } from './config-error';
import { loadObservabilityConfig } from './observability.config';

describe('observability config', () => {
  it('given nothing and no terminal, then JSON logs, access log and open /metrics, tracing off', () => {
    expect(loadObservabilityConfig({}, false)).toEqual({
      logFormat: 'json',
      accessLog: true,
      metrics: { enabled: true, token: null },
      tracing: null,
    });
  });

  it('given a terminal, then pretty logs unless LOG_FORMAT says json', () => {
    expect(loadObservabilityConfig({}, true).logFormat).toBe('pretty');
    expect(loadObservabilityConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
  });

  it('given OTEL_EXPORTER_OTLP_ENDPOINT, then traces go to its /v1/traces; the traces variable wins', () => {
    expect(loadObservabilityConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, false).tracing).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'agent-platform-service',
      sampleRatio: 1,
    });
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces' };
    expect(loadObservabilityConfig(both, false).tracing?.endpoint).toBe('http://b:4318/v1/traces');
  });

  it.each([
    ['LOG_FORMAT', 'xml'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS', 'maybe'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_TRACES_SAMPLER_RATIO', '1.5'],
  ])('given %s=%s, then a ConfigError naming it', (name, value) => {
    const load = () => loadObservabilityConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', [name]: value }, false);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(name);
  });
});
