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
  globalSetup: '<rootDir>/test/support/services/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/services/global-teardown.ts',
  transform: common.transform,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/test/contract/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.spec.ts'] },
    // The same HTTP suites again with READ_STORE=mongodb BUS=kafka (DESIGN.md section 6).
    {
      ...common,
      displayName: 'e2e:mongodb+kafka',
      testMatch: ['<rootDir>/test/e2e/**/*.spec.ts'],
      // suites of the HTTP layer alone (input checks, server limits, headers, the
      // route tables, the OpenAPI document, the embed pages and scripts in a browser): no adapter
      // behind them changes what they test
      testPathIgnorePatterns: [
        '/node_modules/',
        '/test/e2e/(input-fuzz|server-limits|browser-policy|openapi|auth-matrix|request-bodies|names|number-bounds|embeds|embeds\\.browser)\\.e2e\\.spec\\.ts$',
        // the node's own processes and HTTP plumbing: nothing in them reads or writes through a store or the bus differently per adapter
        '/test/e2e/(engine-pressure|engine-coding|http-robustness|tracing|observability)\\.e2e\\.spec\\.ts$',
      ],
      setupFilesAfterEnv: ['<rootDir>/test/support/production-adapters.setup.ts'],
    },
  ],
};
