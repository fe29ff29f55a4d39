export * from './env.js';
export { z } from 'zod';
