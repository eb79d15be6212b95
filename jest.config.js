// One runner for every suite: unit specs beside the code, port contract suites,
// and HTTP e2e suites against the app on the embedded default.
// Transpile only: `npm run typecheck` (tsc) does the type-checking, once.
const tsJest = ['ts-jest', { isolatedModules: true, tsconfig: '<rootDir>/tsconfig.json' }];

const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'contract', testMatch: ['<rootDir>/test/contract/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.spec.ts'] },
  ],
};
