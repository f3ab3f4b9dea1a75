import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/kubectl/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
