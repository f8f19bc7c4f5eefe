import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'service/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', '*.test.ts'],
    environment: 'node',
  },
});
