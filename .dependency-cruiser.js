/**
 * The layering of DESIGN.md §5, checked in CI (`npm run lint:deps`).
 */
module.exports = {
  forbidden: [
    {
      name: 'aggregates-import-no-packages',
      comment: 'aggregates/ imports no npm package (no Nest, no I/O libraries)',
      severity: 'error',
      from: { path: '^src/aggregates/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'] },
    },
    {
      name: 'aggregates-are-pure',
      comment: 'aggregates/ imports nothing outside aggregates/ (no Nest, no ports, no config, no read models), not even types',
      severity: 'error',
      from: { path: '^src/aggregates/' },
      to: { path: '^src/(?!aggregates/)' },
    },
    {
      name: 'projections-read-events-and-the-read-store-only',
      comment: 'projections/ imports aggregate event types, the event and read-store ports, and each other',
      severity: 'error',
      from: { path: '^src/projections/', pathNot: '\\.spec\\.ts$' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/projections/',
          '^src/aggregates/',
          '^src/infrastructure/event-store/event-store\\.port\\.ts$',
          '^src/infrastructure/read-store/read-store\\.port\\.ts$',
          '^src/infrastructure/projections/projection\\.ts$',
        ],
      },
    },
    {
      name: 'infrastructure-knows-no-feature',
      comment: 'infrastructure/ imports no aggregate, projection, saga or module',
      severity: 'error',
      from: { path: '^src/infrastructure/' },
      to: { path: '^src/(aggregates|projections|sagas|modules)/' },
    },
    {
      name: 'modules-never-import-sagas',
      comment: 'modules/ never imports sagas/ (SagasModule registers every process manager and worker; sagas import module commands and services)',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/sagas/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.d\\.ts$' },
  },
};
