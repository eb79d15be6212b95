// One runner for every suite: unit specs beside the code, port contract suites,
// and HTTP e2e suites against the app on the embedded default.
// Transpile only: `npm run typecheck` (tsc) does the type-checking, once.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }];

// jose (the @a2a-js/sdk client's card-signature library, used by the A2A suite)
// ships ES modules only, which Node loads with require() and jest does not:
// transpiled to CommonJS like our own files.
const esmOnly = ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022', isolatedModules: true } }];

const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest, '/node_modules/jose/.+\\.js$': esmOnly },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  testTimeout: 30000,
  // Real servers (Kafka, MongoDB wire protocol) for the suites: DESIGN.md section 6.
  // Two test files at a time (npm test: --maxWorkers=2, one per core of the CI machine: an e2e file waits on
  // fsyncs, sockets and child processes much of its time; 740 s instead of 1,100 s for the whole suite, every
  // file passing), each worker replaced once it holds more than this after a file: in one long-lived process
  // the ~360 files' module registries and app instances grew the heap past 4 GB and garbage collection slowed
  // every later file. The suites' waits are for conditions, not durations (test/support/eventually.ts), and the
  // test apps' read-your-writes bound is loosened (app.ts), so a loaded machine makes them slower, not red.
  workerIdleMemoryLimit: '1536MB',
  globalSetup: '<rootDir>/test/support/services/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/services/global-teardown.ts',
  transform: common.transform,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/test/contract/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.spec.ts'] },
    // The HTTP suites whose outcome rests on the adapters run again with READ_STORE=mongodb
    // BUS=kafka (DESIGN.md section 6): the read models' queries, sorts, counts and
    // aggregations (feeds, votes, karma, leaderboards, wallets, geo cells, admin stats), the
    // rate-limit buckets kept in the read store, delivery over the bus (notifications, the
    // encounter stream, gossip), rebuilds, restarts and crash recovery. The rest (the HTTP
    // layer, the route tables, reply shaping, /v1, A2A, MCP, signatures, node processes) is the
    // same code over the same port calls, which the adapters' contract suites (test/contract)
    // check on both stacks; running them twice pushed CI past its 20 minutes. A new suite that
    // reads or writes through a query of its own belongs in this list.
    {
      ...common,
      displayName: 'e2e:mongodb+kafka',
      testMatch: [
        'accounts',
        'ads',
        'audit',
        'chat',
        'compute',
        'contest',
        'content-communities',
        'content-posts',
        'content-rebuild',
        'crash-recovery',
        'encounter',
        'encounter-central',
        'encounter-races',
        'encounter-stream',
        'federation-two-nodes',
        'engine-skills',
        'engine-tools',
        'experiments',
        'goals',
        'marketplace',
        'missed-connections',
        'rebuild-cli',
        'restart',
        'security',
        'social-accounts',
        'social-achievements',
        'social-agents',
        'social-bots-admin',
        'social-encounters',
        'social-resonance',
        'social-tasks-recipes',
      ].map((name) => `<rootDir>/test/e2e/${name}.e2e.spec.ts`),
      setupFilesAfterEnv: ['<rootDir>/test/support/production-adapters.setup.ts'],
    },
  ],
};
